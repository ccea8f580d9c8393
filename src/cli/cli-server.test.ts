import { writeFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHILD_PROCESSES, cliEnv, runBin, runInProcess } from '../../test/helpers/cli.js';
import { createTestDatabase, testDialects, type TestDatabase } from '../../test/helpers/databases.js';
import { seedCatalog } from '../../test/helpers/seed-catalog.js';
import { startServer, type ServerProcess } from '../../test/helpers/server-process.js';
import { API } from '../../test/helpers/test-app.js';
import type { DatabaseHandle } from '../db/connect.js';
import { migrations } from '../db/migrations/index.js';
import { describeTarget } from './errors.js';
import { loadConfig } from '../config.js';

/**
 * The account and search commands against a service started with `lawrisk serve`, over real HTTP:
 * an operator's day on a new database, on SQLite and on PostgreSQL.
 */
describe.each(testDialects())('lawrisk with a running service on %s', (dialect) => {
  let database: TestDatabase;
  let env: Record<string, string>;
  let server: ServerProcess | null = null;
  let dbh: DatabaseHandle;
  let cookie = '';

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    env = cliEnv(database);
  });
  afterAll(async () => {
    await server?.stop();
    await dbh?.close();
    await database?.drop();
  });

  const login = (username: string, password: string) =>
    fetch(`${server!.base}${API}/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ username, password }),
    });
  const cookieOf = (res: Response) => res.headers.getSetCookie()[0].split(';')[0];
  const json = async (res: Response) => (await res.json()) as { data: any };

  it(
    'refuses a database without the schema until migrate has run, then migrates it once',
    async () => {
      const create = ['create-admin', 'ops', '--password', 'Ops-Pass-12345'];
      if (dialect === 'sqlite') {
        const path = loadConfig(env).database.url.slice('sqlite:'.length);
        const none = await runInProcess(create, { env });
        expect(none.code).toBe(3);
        expect(none.stderr).toBe(`lawrisk create-admin: no database file at ${path} (set DATABASE_URL, or create it with "lawrisk migrate")\n`);
        writeFileSync(path, ''); // an empty file is an empty SQLite database
      }
      const behind = await runInProcess(create, { env });
      expect(behind.code).toBe(1);
      const names = Object.keys(migrations);
      expect(behind.stderr).toBe(
        `lawrisk create-admin: the database schema is not up to date (${names.length} pending migrations): run "lawrisk migrate" first\n`,
      );

      const target = describeTarget(loadConfig(env).database);
      const migrated = await runBin(['migrate'], { env });
      expect(migrated).toMatchObject({ code: 0, stderr: '' });
      expect(migrated.stdout).toBe(`${target}: applied ${names.length} migrations: ${names.join(', ')}\n`);
      const again = await runInProcess(['migrate'], { env });
      expect(again).toMatchObject({ code: 0, stdout: `${target}: the schema is up to date (${names.length} migrations)\n` });
      dbh = database.open();
    },
    CHILD_PROCESSES,
  );

  it(
    'creates an administrator who logs in over HTTP to `lawrisk serve`',
    async () => {
      const created = await runBin(['create-admin', ' Ops ', '--display-name', '运维值班', '--password-stdin'], { env, input: 'Ops-Pass-12345\n' });
      expect(created).toMatchObject({ code: 0, stdout: 'created administrator "ops" (id 1)\n', stderr: '' });
      const taken = await runInProcess(['create-admin', 'OPS', '--password', 'Other-Pass-123'], { env });
      expect(taken).toMatchObject({ code: 1, stderr: 'lawrisk create-admin: 用户名 ops 已存在\n' });
      const short = await runInProcess(['create-admin', 'ops2', '--password', 'short'], { env });
      expect(short).toMatchObject({ code: 1, stderr: 'lawrisk create-admin: 超级管理员账号的密码至少需要 12 个字符\n' });

      server = await startServer({ ...env, LOG_LEVEL: 'warn' }, { args: ['bin/lawrisk.js', 'serve'] });
      const res = await login('ops', 'Ops-Pass-12345');
      expect(res.status).toBe(200);
      expect((await json(res)).data.user).toMatchObject({
        username: 'ops',
        display_name: '运维值班',
        role: 'admin',
        grade: 100,
        department: null,
        must_change_password: false,
      });
      cookie = cookieOf(res);
      // The administrator exists, so the service created no default one.
      expect(await dbh.db.selectFrom('users').select('username').execute()).toEqual([{ username: 'ops' }]);
    },
    CHILD_PROCESSES,
  );

  it(
    'resets a password: the sessions end, a lockout lifts, only the new (generated) password logs in',
    async () => {
      for (let i = 0; i < 5; i++) expect((await login('ops', 'wrong-password')).status).toBe(401);
      expect((await login('ops', 'Ops-Pass-12345')).status).toBe(429);

      const reset = await runBin(['reset-password', 'OPS'], { env });
      expect(reset.code).toBe(0);
      const generated = /^password of "ops" reset; its sessions were ended\npassword for "ops": (\S{16})\n$/.exec(reset.stdout)?.[1];
      expect(generated, reset.stdout).toBeDefined();
      expect(reset.stderr).toContain('shown this once');

      const me = await fetch(`${server!.base}${API}/auth/me`, { headers: { cookie } });
      expect(me.status).toBe(401);
      expect((await login('ops', 'Ops-Pass-12345')).status).toBe(401);
      const fresh = await login('ops', generated!);
      expect(fresh.status).toBe(200);
      expect((await json(fresh)).data.user.must_change_password).toBe(true);

      const unknown = await runInProcess(['reset-password', 'nobody', '--password', 'Some-Pass-123'], { env });
      expect(unknown).toMatchObject({ code: 1, stderr: 'lawrisk reset-password: 用户不存在：nobody\n' });
    },
    CHILD_PROCESSES,
  );

  it(
    'rebuilds the search index of the running service with reindex',
    async () => {
      // Data written straight into the database: no instance hears of it.
      const seeded = await seedCatalog(dbh.db, { regions: ['511600'], maxPermitsPerRegion: 2 });
      const permit = seeded.seeded.find((p) => p.visible)!;
      const search = async () => {
        const res = await fetch(`${server!.base}${API}/v2?query=${encodeURIComponent(permit.name)}`);
        return ((await json(res)).data.risk_subject as Array<{ permit: { name: string } }>).map((s) => s.permit.name);
      };
      expect(await search()).not.toContain(permit.name);

      const run = await runBin(['reindex'], { env });
      expect(run.code).toBe(0);
      expect(run.stdout).toMatch(/^search index built from the database: 2 permits in 1 region \(read in \d+ ms, built in \d+ ms\)\n/);
      // The service polls the change feed every 250 ms; a full rebuild follows.
      const deadline = Date.now() + 15_000;
      let found: string[] = [];
      while (Date.now() < deadline && !(found = await search()).includes(permit.name)) await new Promise((r) => setTimeout(r, 100));
      expect(found).toContain(permit.name);
    },
    CHILD_PROCESSES,
  );

  it(
    'writes every change in the operation log, as operator cli, without the passwords',
    async () => {
      const logs = await dbh.db.selectFrom('operation_logs').selectAll().where('operator_username', '=', 'cli').orderBy('id').execute();
      expect(logs.map((l) => [l.operation_type, l.target_type, l.target_name, l.summary, l.outcome, l.error_message])).toEqual([
        ['migrate', 'database', null, `数据库结构升级：${Object.keys(migrations).join('、')}`, 'success', null],
        ['create', 'user', 'ops', '创建超级管理员 ops', 'success', null],
        ['create', 'user', 'ops', '创建超级管理员', 'failure', '用户名 ops 已存在'],
        ['create', 'user', 'ops2', '创建超级管理员', 'failure', '超级管理员账号的密码至少需要 12 个字符'],
        ['update', 'user', 'ops', '修改用户 ops：重置密码、要求下次登录修改密码', 'success', null],
        ['update', 'user', 'nobody', '重置密码', 'failure', '用户不存在：nobody'],
        ['reindex', 'search_index', null, '重建检索索引：2 个许可事项，1 个区域', 'success', null],
      ]);
      for (const l of logs) {
        expect(l).toMatchObject({ operator_id: null, client_ip: null });
        expect(l.operator_name).toMatch(/^命令行（.+）$/);
        expect(l.request_id).toMatch(/^cli-[0-9a-f-]{36}$/);
        expect(l.params).not.toMatch(/Pass-123/);
      }
      expect(logs[1].target_id).toBe('1');
    },
    CHILD_PROCESSES,
  );

  it(
    'stops `lawrisk serve` cleanly on SIGTERM',
    async () => {
      expect(await server!.stop('SIGTERM')).toBe(0);
      server = null;
    },
    CHILD_PROCESSES,
  );
});
