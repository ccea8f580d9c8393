import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CATALOGUE_BUSY } from '../../src/db/catalogue-lock.js';
import { connect, type DatabaseHandle } from '../../src/db/connect.js';
import { migrations } from '../../src/db/migrations/index.js';
import { createTestDatabase, testDialects, type TestDatabase } from '../helpers/databases.js';
import { expectedContent, generatedPermits, generatedWorkbook, storedContent, within } from '../helpers/instances.js';
import { multipartBody } from '../helpers/multipart.js';
import { PROJECT_ROOT, startServer, type ServerProcess } from '../helpers/server-process.js';
import { ADMIN_PASSWORD, API } from '../helpers/test-app.js';

const REGION = '进程区';

/** The JSON log lines a server printed (anything else it printed is returned as text lines too). */
function logLines(srv: ServerProcess): Array<Record<string, unknown>> {
  return srv
    .output()
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => {
      try {
        return JSON.parse(l) as Record<string, unknown>;
      } catch {
        return { text: l };
      }
    });
}

/**
 * Two real server processes (`src/server.ts`, as `npm start` runs it) started at the same moment
 * on one new, empty database: PostgreSQL, and a SQLite file shared by two processes.
 */
describe.each(testDialects())('two server processes on one new %s database', (dialect) => {
  let database: TestDatabase;
  let dbh: DatabaseHandle;
  let a: ServerProcess;
  let b: ServerProcess;
  const dirs: string[] = [];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    const url = dialect === 'sqlite' ? `sqlite:${join(database.dataDir, 'shared.db')}` : database.url;
    const env = () => {
      const dir = mkdtempSync(join(tmpdir(), 'lawrisk-instance-'));
      dirs.push(dir);
      return { DATABASE_URL: url, DATA_DIR: dir, ADMIN_PASSWORD, DEMO_DATA: '0', LOG_LEVEL: 'info' };
    };
    // Both spawned before either is waited for: they migrate and create the administrator together.
    [a, b] = await Promise.all([startServer(env()), startServer(env())]);
    dbh = dialect === 'sqlite' ? connect({ kind: 'sqlite', path: url.slice('sqlite:'.length), url }) : database.open();
  });
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await dbh?.close();
    await database?.drop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  const http = (srv: ServerProcess, path: string, init: { method?: string; cookie?: string; json?: unknown; body?: Buffer; type?: string } = {}) =>
    fetch(`${srv.base}${API}${path}`, {
      method: init.method ?? 'GET',
      headers: {
        ...(init.cookie ? { cookie: init.cookie } : {}),
        ...(init.json !== undefined ? { 'content-type': 'application/json' } : init.type ? { 'content-type': init.type } : {}),
      },
      body: init.json !== undefined ? JSON.stringify(init.json) : init.body,
    });
  const login = async (srv: ServerProcess) => {
    const res = await http(srv, '/auth/login', { method: 'POST', json: { username: 'admin', password: ADMIN_PASSWORD } });
    expect(res.status).toBe(200);
    return res.headers.get('set-cookie')!.split(';')[0];
  };
  const upload = async (srv: ServerProcess, cookie: string, content: Buffer, filename: string) => {
    const { payload, headers } = multipartBody({}, { file: { filename, content } });
    const res = await http(srv, '/admin/permit-import/upload', { method: 'POST', cookie, body: payload, type: headers['content-type'] });
    expect(res.status).toBe(200);
    return ((await res.json()) as { data: { session_id: string } }).data.session_id;
  };

  it('ran each migration once and created one administrator, without an error in either log', async () => {
    const ran = await dbh.db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .execute();
    expect((ran as Array<{ name: string }>).map((r) => r.name).sort()).toEqual(Object.keys(migrations).sort());
    const admins = await dbh.db.selectFrom('users').select('username').where('role', '=', 'admin').execute();
    expect(admins).toEqual([{ username: 'admin' }]);
    for (const srv of [a, b]) {
      const bad = logLines(srv).filter((l) => 'text' in l || Number(l.level) >= 50);
      expect(bad, srv.output()).toEqual([]);
    }
  });

  it('shares the session: logged in on A, working on B, logged out on B, ended on A', async () => {
    const cookie = await login(a);
    expect((await http(b, '/auth/me', { cookie })).status).toBe(200);
    expect((await http(b, '/auth/logout', { method: 'POST', cookie })).status).toBe(200);
    expect((await http(a, '/auth/me', { cookie })).status).toBe(401);
  });

  it('commits overlapping workbooks sent to A and B at the same moment as one serial order, and both search it', async () => {
    const cookie = await login(a);
    const created = await http(a, '/admin/regions', { method: 'POST', cookie, json: { name: REGION } });
    expect(created.status).toBe(200);
    const regionId = Number(((await created.json()) as { data: { region: { id: string } } }).data.region.id);
    const left = generatedPermits('A', 0, 40);
    const right = generatedPermits('B', 20, 60);
    const sa = await upload(a, cookie, await generatedWorkbook(left, REGION, '进程主题'), 'a.xlsx');
    const sb = await upload(b, cookie, await generatedWorkbook(right, REGION, '进程主题'), 'b.xlsx');

    const [ra, rb] = await Promise.all([
      http(a, '/admin/permit-import/commit', { method: 'POST', cookie, json: { session_id: sa } }),
      http(b, '/admin/permit-import/commit', { method: 'POST', cookie, json: { session_id: sb } }),
    ]);
    for (const r of [ra, rb]) if (r.status !== 200) expect(await r.json()).toEqual({ success: false, message: CATALOGUE_BUSY });
    const ok = [ra.status === 200, rb.status === 200];
    expect(ok).toContain(true);
    const orders = [
      ok[0] && ok[1] && expectedContent(left, right),
      ok[0] && ok[1] && expectedContent(right, left),
      ok[0] && !ok[1] && expectedContent(left),
      !ok[0] && ok[1] && expectedContent(right),
    ]
      .filter((o) => o !== false)
      .map((o) => JSON.stringify(o));
    const stored = await storedContent(dbh.db, regionId);
    expect(orders).toContain(JSON.stringify(stored));

    // Each instance's search shows the final content of a permit both workbooks hold.
    const want = stored.GEN030.split('|')[0];
    for (const srv of [a, b]) {
      await within(1000, async () => {
        const res = await http(srv, '/v2', { method: 'POST', json: { query: '生成许可事项030号', region: String(regionId) } });
        const items = ((await res.json()) as { data: { risk_subject: Array<{ permit: { code: string; contact_info: string } }> } }).data.risk_subject;
        return items.find((i) => i.permit.code === 'GEN030')?.permit.contact_info === want ? true : undefined;
      });
    }
  });

  it('logged one access line with a request id per request, and never a password or a session cookie', async () => {
    const cookie = await login(b);
    expect((await http(b, '/auth/me', { cookie })).status).toBe(200);
    const token = cookie.split('=')[1];
    for (const srv of [a, b]) {
      expect(srv.output()).not.toContain(ADMIN_PASSWORD);
      expect(srv.output()).not.toContain(token);
      const access = logLines(srv).filter((l) => l.msg === 'request completed');
      expect(access.length).toBeGreaterThan(3);
      for (const line of access) expect(line.reqId, JSON.stringify(line)).toEqual(expect.any(String));
    }
    const me = logLines(b)
      .filter((l) => l.msg === 'request completed' && l.url === `${API}/auth/me`)
      .at(-1);
    expect(me).toMatchObject({ method: 'GET', route: `${API}/auth/me`, statusCode: 200, userId: expect.any(Number) });
  });
});

/** Processes migrating one new SQLite file at the same instant (the server start-up above leaves it to chance). */
describe('migrations of one new SQLite file by several processes at the same instant', () => {
  it('run once: one process applies them, the others wait and find nothing to do', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'lawrisk-migrate-'));
    try {
      const env = { ...process.env, DATABASE_URL: `sqlite:${join(dir, 'new.db')}` };
      const children = [1, 2].map(() => spawn(process.execPath, ['--import', 'tsx', 'test/helpers/migrate-process.ts'], { cwd: PROJECT_ROOT, env }));
      const runs = children.map((child) => {
        let out = '';
        child.stderr.on('data', (d) => (out += d));
        const ready = new Promise<void>((resolve) =>
          child.stdout.on('data', (d) => {
            out += d;
            if (out.includes('ready\n')) resolve();
          }),
        );
        const exit = new Promise<{ code: number | null; out: string }>((resolve) => child.on('exit', (code) => resolve({ code, out })));
        return { child, ready, exit };
      });
      // Every process has loaded and opened the file: now all at once.
      await Promise.all(runs.map((r) => r.ready));
      for (const r of runs) r.child.stdin.write('go\n');
      const results = await Promise.all(runs.map((r) => r.exit));
      for (const r of results) expect(r.code, r.out).toBe(0);
      const ran = results.map((r) => JSON.parse(r.out.trim().split('\n').at(-1)!) as { ran: string[] });
      expect(ran.map((r) => r.ran).filter((r) => r.length > 0)).toEqual([Object.keys(migrations)]);
      const dbh = connect({ kind: 'sqlite', path: join(dir, 'new.db'), url: `sqlite:${join(dir, 'new.db')}` });
      const rows = await dbh.db
        .selectFrom('kysely_migration' as never)
        .select('name' as never)
        .execute();
      await dbh.close();
      expect((rows as Array<{ name: string }>).map((r) => r.name).sort()).toEqual(Object.keys(migrations).sort());
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
