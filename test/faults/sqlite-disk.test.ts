import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type BuiltApp } from '../../src/app.js';
import { connect } from '../../src/db/connect.js';
import { dumpDatabase, GUANGAN_CITY, seedCorpusRegions, workbookBytes } from '../../src/modules/importer/import.test-helpers.js';
import { loopDiskUnavailable, mountLoopDisk, type LoopDisk } from '../helpers/loop-disk.js';
import { multipartBody } from '../helpers/multipart.js';
import { seedCatalog, type CorpusPermit } from '../helpers/seed-catalog.js';
import { ADMIN_PASSWORD, API, cookieOf, testConfig } from '../helpers/test-app.js';

/**
 * The disk holding the SQLite file fills up, or the kernel takes it read-only under the running
 * service (as after an I/O error). A real ext4 file system on a loop device (test/helpers/loop-disk.ts),
 * so the failures come from the operating system through SQLite exactly as in production: writes
 * answer 503 with what happened, change nothing, reads (with a session too) keep working, and the
 * file is intact afterwards. Needs root and loop devices, as CI has; elsewhere the suite is skipped
 * with the reason printed.
 */

const FULL = { success: false, message: '数据库磁盘空间已满，修改未保存，请联系管理员' };
const READ_ONLY = { success: false, message: '数据库无法写入磁盘（磁盘可能只读或已损坏），修改未保存，请联系管理员' };
const CITY_PERMITS = 159;

const unavailable = loopDiskUnavailable();
if (unavailable) console.warn(`skipping the full and read-only disk tests: ${unavailable}`);

describe.skipIf(unavailable !== null)('the disk of the SQLite file full or read-only', () => {
  let disk: LoopDisk;
  let app: BuiltApp;
  let cookie = '';
  let importSession = '';
  let permit: CorpusPermit & { id: number };
  let clock = Date.now();
  const dataDir = mkdtempSync(join(tmpdir(), 'lawrisk-disk-data-'));
  const database = () => ({ url: `sqlite:${join(disk.dir, 'lawrisk.db')}`, dataDir });

  const call = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: object) =>
    app.app.inject({ method, url: `${API}${url}`, headers: { cookie }, ...(payload ? { payload } : {}) });
  const commit = () => call('POST', '/admin/permit-import/commit', { session_id: importSession });
  const deletePermit = () => call('DELETE', `/admin/permits?region=511602&permit_id=${permit.id}`);
  const permitCount = async () => (await app.ctx.db.selectFrom('permits').select('id').execute()).length;
  const found = async (name: string) =>
    (await app.app.inject({ method: 'POST', url: `${API}/v2`, headers: { cookie }, payload: { query: name } }))
      .json()
      .data.risk_subject.map((s: { permit: { name: string } }) => s.permit.name) as string[];
  /** The reads a user makes, logged in (a session due for its last-seen update) and not. */
  const readsWork = async () => {
    clock += 2 * 60 * 1000;
    const list = await call('POST', '/admin/permits/filter', {});
    expect(list.statusCode, list.body).toBe(200);
    expect(list.json().data.pagination.total).toBe(await permitCount());
    expect((await call('GET', '/auth/me')).statusCode).toBe(200);
    expect((await app.app.inject({ url: `${API}/v2/regions` })).statusCode).toBe(200);
    expect(await found(permit.name)).toContain(permit.name);
    expect((await app.app.inject({ url: '/healthz' })).statusCode).toBe(200);
  };

  beforeAll(async () => {
    disk = mountLoopDisk(32);
    app = await buildApp(testConfig(database()), { logger: false, now: () => clock });
    await seedCorpusRegions(app.ctx.db);
    const seed = await seedCatalog(app.ctx.db, { regions: ['511602'], maxPermitsPerRegion: 40 });
    const p = seed.seeded.find((x) => x.themes.length > 0)!;
    permit = { ...p, id: seed.permits.get(p.key)! };
    await app.app.searchIndex.rebuild();
    const login = await app.app.inject({ method: 'POST', url: `${API}/auth/login`, payload: { username: 'admin', password: ADMIN_PASSWORD } });
    cookie = cookieOf(login);
    const { payload, headers } = multipartBody({}, { file: { filename: GUANGAN_CITY, content: workbookBytes(GUANGAN_CITY) } });
    const up = await app.app.inject({ method: 'POST', url: `${API}/admin/permit-import/upload`, payload, headers: { ...headers, cookie } });
    importSession = up.json().data.session_id;
  });
  afterAll(async () => {
    await app?.app.close();
    disk?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('full: an import answers 503 and leaves nothing; reads go on; with space again it commits, no restart', async () => {
    // A just-checkpointed database: the write-ahead log has no room left over to reuse.
    app.ctx.dbh.sqlite!.pragma('wal_checkpoint(TRUNCATE)');
    const before = await dumpDatabase(app.ctx.db);
    disk.fill();

    expect(await commit()).toMatchObject({ statusCode: 503 });
    expect((await commit()).json()).toEqual(FULL);
    expect(await dumpDatabase(app.ctx.db)).toEqual(before);
    await readsWork();

    disk.free();
    const again = await commit();
    expect(again.statusCode, again.body).toBe(200);
    expect(await permitCount()).toBe(before.permits.length + CITY_PERMITS);
    expect(await found('道路旅客运输经营许可（新增）')).toContain('道路旅客运输经营许可（新增）');
  });

  it('read-only: writes and logins answer 503 and change nothing; reads go on; the file is intact after repair', async () => {
    const before = await dumpDatabase(app.ctx.db);
    disk.failReadOnly();

    expect(await deletePermit()).toMatchObject({ statusCode: 503 });
    expect((await deletePermit()).json()).toEqual(READ_ONLY);
    const login = await app.app.inject({ method: 'POST', url: `${API}/auth/login`, payload: { username: 'admin', password: ADMIN_PASSWORD } });
    expect({ status: login.statusCode, body: login.json() }).toEqual({ status: 503, body: READ_ONLY });
    await readsWork();
    expect(await dumpDatabase(app.ctx.db)).toEqual(before);

    // The administrator repairs the disk and restarts: the file holds exactly what was committed.
    await app.app.close();
    disk.remount();
    const check = connect({ kind: 'sqlite', path: join(disk.dir, 'lawrisk.db'), url: database().url });
    expect(check.sqlite!.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(await dumpDatabase(check.db)).toEqual(before);
    await check.close();
    app = await buildApp(testConfig(database()), { logger: false, now: () => clock });
    const del = await deletePermit();
    expect(del.statusCode, del.body).toBe(200);
    expect(await found(permit.name)).not.toContain(permit.name);
  });
});
