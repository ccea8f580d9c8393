import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { dumpDifference } from '../../../test/helpers/data-dump.js';
import { createUser } from '../../../test/helpers/fixtures.js';
import { httpClient } from '../../../test/helpers/http-client.js';
import { multipartBody } from '../../../test/helpers/multipart.js';
import { startServer, type ServerProcess } from '../../../test/helpers/server-process.js';
import { ADMIN_PASSWORD, API, type TestApp } from '../../../test/helpers/test-app.js';
import { dumpDatabase, GUANGAN_CITY, importer, importerApp, json, workbookBytes } from './import.test-helpers.js';
import { PARSES_BUSY_MESSAGE } from './parse-slots.js';
import { OUT_OF_MEMORY_MESSAGE } from './parser/errors.js';
import { CANONICAL_HEADER, gridWorkbook, row, workbookBuffer } from './parser/test-support.js';
import { uploadRateMessage } from './upload-rate-limit.js';

/**
 * What one instance spends on uploaded workbooks (docs/import.md): parses at once, uploads and
 * re-imports a minute per user, and the memory of one parse, whose worker thread is also checked
 * under the real server process. Every refusal leaves the database as it was.
 */

const SETTINGS = { IMPORT_MAX_PARSES: '1', IMPORT_PARSE_WAIT_MS: '0', IMPORT_RATE_LIMIT: '3', IMPORT_PARSE_MEMORY_MB: '32' };
/** 60,000 text cells: within every count, but more than a 32 MB parse can hold. */
const HEAVY_ROWS = 4000;
const PASSWORD = 'Clerk-Pass-123';

const small = () => workbookBuffer([CANONICAL_HEADER, row({ 区域: '广安区', 许可事项: '限额测试许可', 风险点: '限额测试风险' })]);

describe.each(testDialects())('load limits of the import (%s)', (dialect) => {
  let t: TestApp;
  let imp: ReturnType<typeof importer>;
  const cookies: Record<'admin' | 'parallel' | 'memory' | 'other', string> = { admin: '', parallel: '', memory: '', other: '' };

  beforeAll(async () => {
    ({ t, imp, admin: cookies.admin } = await importerApp(dialect, SETTINGS));
    // One user per test: the rate limit counts per user.
    for (const name of ['parallel', 'memory', 'other'] as const) {
      await createUser(t.dbh.db, { username: name, password: PASSWORD, grade: 90 });
      cookies[name] = await t.login(name, PASSWORD);
    }
  });
  afterAll(async () => t?.close());

  const reimport = (cookie: string, fileId: string) =>
    t.app.inject({ method: 'POST', url: `${API}/admin/permit-files/${fileId}/reimport`, headers: { cookie } });

  it('parses one workbook at a time with IMPORT_MAX_PARSES=1: of two uploads at once one is answered 429 with Retry-After, storing nothing', async () => {
    const before = await dumpDatabase(t.dbh.db);
    const content = await small();
    const answers = await Promise.all([imp.upload(cookies.parallel, content, '甲.xlsx'), imp.upload(cookies.parallel, content, '乙.xlsx')]);
    expect(answers.map((a) => a.statusCode).sort()).toEqual([200, 429]);
    const accepted = answers.find((a) => a.statusCode === 200)!;
    const refused = answers.find((a) => a.statusCode === 429)!;
    expect(json(refused)).toEqual({ success: false, message: PARSES_BUSY_MESSAGE });
    expect(refused.headers['retry-after']).toBe('1');
    // The accepted upload's session is the one row added.
    const diff = dumpDifference(before, await dumpDatabase(t.dbh.db));
    expect(Object.keys(diff)).toEqual(['import_sessions']);
    expect(diff.import_sessions.removed).toEqual([]);
    expect(diff.import_sessions.added.map((r) => JSON.parse(r).id)).toEqual([json(accepted).data.session_id]);
    // The slot is free again.
    expect((await imp.upload(cookies.parallel, content, '丙.xlsx')).statusCode).toBe(200);
  });

  it('answers 429 with Retry-After past IMPORT_RATE_LIMIT uploads and re-imports a minute by one user, changing nothing; other users go on', async () => {
    const content = await small();
    const first = await imp.upload(cookies.admin, content, '限额.xlsx');
    expect(first.statusCode, first.body).toBe(200);
    const commit = await imp.commit(cookies.admin, { session_id: json(first).data.session_id });
    expect(commit.statusCode, commit.body).toBe(200);
    const fileId: string = json(commit).data.file_id;
    expect((await reimport(cookies.admin, fileId)).statusCode).toBe(200);
    expect((await imp.upload(cookies.admin, content, '限额.xlsx')).statusCode).toBe(200);

    // The fourth and fifth of the minute, whichever route: refused before the body is read.
    const before = await dumpDatabase(t.dbh.db);
    const refusals: LightMyRequestResponse[] = [await reimport(cookies.admin, fileId), await imp.upload(cookies.admin, content, '限额.xlsx')];
    for (const res of refusals) {
      expect(res.statusCode).toBe(429);
      expect(json(res)).toEqual({ success: false, message: uploadRateMessage(3) });
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(60);
    }
    expect(await dumpDatabase(t.dbh.db)).toEqual(before);
    expect(uploadRateMessage(3)).toBe('上传过于频繁（每个账号每分钟最多 3 次上传或重新导入），请稍后再试');

    const other = await imp.upload(cookies.other, content, '限额.xlsx');
    expect(other.statusCode, other.body).toBe(200);
  });

  it("refuses a workbook that fills the parse's memory (IMPORT_PARSE_MEMORY_MB) with 400, storing nothing; the next upload is parsed", async () => {
    const before = await dumpDatabase(t.dbh.db);
    const heavy = await imp.upload(cookies.memory, await gridWorkbook(HEAVY_ROWS), '大表.xlsx');
    expect(heavy.statusCode, heavy.body).toBe(400);
    expect(json(heavy)).toEqual({ success: false, message: OUT_OF_MEMORY_MESSAGE });
    expect(await dumpDatabase(t.dbh.db)).toEqual(before);

    const next = await imp.upload(cookies.memory, workbookBytes(GUANGAN_CITY), GUANGAN_CITY);
    expect(next.statusCode, next.body).toBe(200);
    expect(json(next).data).toMatchObject({ filename: GUANGAN_CITY, error_count: 0, totals: { permits: 159 } });
  });
});

describe('the parse worker under the real server process', () => {
  let srv: ServerProcess;
  let dir = '';

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'lawrisk-parse-worker-'));
    srv = await startServer({ DATABASE_URL: `sqlite:${join(dir, 'server.db')}`, DATA_DIR: dir, ADMIN_PASSWORD, DEMO_DATA: '0', IMPORT_PARSE_MEMORY_MB: '32' });
  });
  afterAll(async () => {
    await srv?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it("loads the parser in its worker as `npm start` runs it, refuses a workbook that fills the worker's memory and keeps answering", async () => {
    const http = httpClient(srv.base);
    const cookie = await http.login('admin', ADMIN_PASSWORD);
    const upload = (content: Buffer, filename: string) =>
      http.call('POST', '/admin/permit-import/upload', { cookie, raw: multipartBody({}, { file: { filename, content } }) });

    expect(await upload(await gridWorkbook(HEAVY_ROWS), '大表.xlsx')).toEqual({ status: 400, body: { success: false, message: OUT_OF_MEMORY_MESSAGE } });
    expect((await http.health()).status).toBe(200);
    const next = await upload(workbookBytes(GUANGAN_CITY), GUANGAN_CITY);
    expect(next.status).toBe(200);
    expect(next.body.data).toMatchObject({ filename: GUANGAN_CITY, error_count: 0, totals: { permits: 159 } });
    expect(srv.child.exitCode).toBeNull();
  });
});
