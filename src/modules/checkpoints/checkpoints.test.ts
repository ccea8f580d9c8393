import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { createDepartment, createUser } from '../../../test/helpers/fixtures.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { changeDataset, dumpCoveredTables, seedSmallDataset, type SmallDataset } from '../../../test/helpers/checkpoint-data.js';
import { COVERED_TABLES } from './checkpoint-tables.js';

describe.each(testDialects())('checkpoints on %s', (dialect) => {
  let t: TestApp;
  let admin = '';
  let data: SmallDataset;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    data = await seedSmallDataset(t.dbh.db);
    admin = await t.login();
  });
  afterAll(async () => t?.close());

  const call = (method: 'GET' | 'POST' | 'DELETE', path: string, payload?: object | string, cookie = admin, type?: string) =>
    t.app.inject({ method, url: `${API}/admin/checkpoints${path}`, payload, headers: { cookie, ...(type ? { 'content-type': type } : {}) } });
  const create = async (description?: string) => {
    const res = await call('POST', '', description === undefined ? {} : { description });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { checkpoint_id: string; total_rows: number };
  };
  const restore = (id: string, body: object | string = {}, type?: string) => call('POST', `/${id}/restore`, body, admin, type);
  const count = async (table: 'checkpoints' | 'checkpoint_chunks') =>
    Number(
      (
        await t.dbh.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const lastLog = async () => (await t.dbh.db.selectFrom('operation_logs').selectAll().orderBy('id', 'desc').limit(1).execute())[0];

  it('creates a checkpoint whose list entry shows the operator, row counts and table statistics', async () => {
    const before = await dumpCoveredTables(t.dbh.db);
    const created = await create('发布前');
    const list = (await call('GET', '')).json();
    expect(list.success).toBe(true);
    const entry = list.data.checkpoints.find((c: { checkpoint_id: string }) => c.checkpoint_id === created.checkpoint_id);
    expect(entry).toEqual(created);
    expect(entry).toMatchObject({ id: created.checkpoint_id, description: '发布前', created_by: 'admin', kind: 'manual', tables: COVERED_TABLES.length });
    expect(entry.table_stats.map((s: { table: string }) => s.table)).toEqual(COVERED_TABLES.map((c) => c.name));
    for (const s of entry.table_stats) expect(s.rows, s.table).toBe(before[s.table].length);
    expect(entry.total_rows).toBe(Object.values(before).reduce((n, rows) => n + rows.length, 0));
    expect(entry.size_bytes).toBeGreaterThan(0);
    // Chunks and bytes say what is stored for each table, and add up to the checkpoint's size.
    const chunks = await t.dbh.db
      .selectFrom('checkpoint_chunks')
      .select(['table_name', 'content'])
      .where('checkpoint_id', '=', Number(created.checkpoint_id))
      .execute();
    const stored = entry.table_stats.map((s: { table: string }) => {
      const mine = chunks.filter((c) => c.table_name === s.table);
      return { table: s.table, rows: before[s.table].length, chunks: mine.length, bytes: mine.reduce((n, c) => n + c.content.length, 0) };
    });
    expect(entry.table_stats).toEqual(stored);
    expect(stored.reduce((n: number, s: { bytes: number }) => n + s.bytes, 0)).toBe(entry.size_bytes);
    expect(await lastLog()).toMatchObject({ operation_type: 'checkpoint', outcome: 'success', target_id: created.checkpoint_id });
  });

  it('takes the description from a form body, defaults it to empty, and lists newest first', async () => {
    const form = await call('POST', '', 'description=%E8%A1%A8%E5%8D%95', admin, 'application/x-www-form-urlencoded');
    expect(form.json().data.description).toBe('表单');
    const bare = await t.app.inject({ method: 'POST', url: `${API}/admin/checkpoints`, headers: { cookie: admin } });
    expect(bare.statusCode).toBe(200);
    expect(bare.json().data.description).toBe('');
    const ids = (await call('GET', '')).json().data.checkpoints.map((c: { checkpoint_id: string }) => Number(c.checkpoint_id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(ids[0]).toBe(Number(bare.json().data.checkpoint_id));
  });

  it('restores every covered table exactly, after an automatic backup of the state it replaces', async () => {
    const atCheckpoint = await dumpCoveredTables(t.dbh.db);
    const { checkpoint_id } = await create('round trip');
    await changeDataset(t.dbh.db, data);
    const changed = await dumpCoveredTables(t.dbh.db);
    expect(changed).not.toEqual(atCheckpoint);

    const res = await restore(checkpoint_id);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(Object.keys(body).sort()).toEqual(['data', 'message', 'success']);
    expect(Object.keys(body.data).sort()).toEqual(['auto_backup', 'checkpoint_id', 'table_details', 'tables_restored', 'total_rows']);
    expect(body.data).toMatchObject({ checkpoint_id, tables_restored: COVERED_TABLES.length });
    expect(body.data.table_details).toEqual(COVERED_TABLES.map((c) => ({ table: c.name, rows: atCheckpoint[c.name].length })));
    expect(await dumpCoveredTables(t.dbh.db)).toEqual(atCheckpoint);

    const backup = (await call('GET', '')).json().data.checkpoints.find((c: { checkpoint_id: string }) => c.checkpoint_id === body.data.auto_backup);
    expect(backup).toMatchObject({ kind: 'auto_backup', description: `Auto backup before restoring checkpoint ${checkpoint_id}`, created_by: 'admin' });
    expect((await restore(backup.checkpoint_id, { create_auto_backup: 'no' })).json().data.auto_backup).toBeNull();
    expect(await dumpCoveredTables(t.dbh.db)).toEqual(changed);
    expect(await lastLog()).toMatchObject({ operation_type: 'restore', outcome: 'success', target_id: backup.checkpoint_id });

    // New rows after a restore get fresh ids, even when the id generator had fallen behind.
    await (dialect === 'postgres'
      ? sql`select setval(pg_get_serial_sequence('regions', 'id'), 1)`.execute(t.dbh.db)
      : sql`update sqlite_sequence set seq = 0 where name = 'regions'`.execute(t.dbh.db));
    expect((await restore(checkpoint_id, { create_auto_backup: false })).statusCode).toBe(200);
    await t.dbh.db.insertInto('regions').values({ code: 'NEW', name: '恢复后新建', created_at: 'x' }).execute();
  });

  it('records the user who acts as the operator of a checkpoint and of the backup a restore takes', async () => {
    const dept = await createDepartment(t.dbh.db, { name: '运维部门', code: 'OPS', grade: 90 });
    await createUser(t.dbh.db, { username: 'ops', password: 'Ops-Pass-12345', grade: 90, department_id: dept });
    const ops = await t.login('ops', 'Ops-Pass-12345');
    const made = await call('POST', '', { description: '运维' }, ops);
    expect(made.statusCode, made.body).toBe(200);
    expect(made.json().data).toMatchObject({ description: '运维', created_by: 'ops', kind: 'manual' });
    const restored = await call('POST', `/${made.json().data.checkpoint_id}/restore`, {}, ops);
    expect(restored.statusCode, restored.body).toBe(200);
    const backup = await t.dbh.db.selectFrom('checkpoints').selectAll().where('id', '=', Number(restored.json().data.auto_backup)).executeTakeFirstOrThrow();
    expect(backup).toMatchObject({ kind: 'auto_backup', created_by: 'ops' });
  });

  it('reads batch_size within 100..10000 and falls back to 1000 otherwise', async () => {
    const { checkpoint_id } = await create('batches');
    const cases: Array<[unknown, number]> = [
      [50, 1000],
      [20000, 1000],
      ['abc', 1000],
      [500, 500],
      ['100', 100],
      [10000, 10000],
      [undefined, 1000],
    ];
    for (const [given, used] of cases) {
      const res = await restore(checkpoint_id, { create_auto_backup: false, ...(given === undefined ? {} : { batch_size: given }) });
      expect(res.statusCode, `${String(given)}: ${res.body}`).toBe(200);
      expect((await lastLog()).summary, String(given)).toContain(`每批 ${used} 行`);
    }
    const form = await restore(checkpoint_id, 'create_auto_backup=OFF&batch_size=250', 'application/x-www-form-urlencoded');
    expect(form.json().data.auto_backup).toBeNull();
    expect((await lastLog()).summary).toContain('每批 250 行');
    const flagged = await restore(checkpoint_id, { create_auto_backup: 'YES' });
    expect(flagged.json().data.auto_backup).not.toBeNull();
  });

  it('keeps the logged-in sessions of accounts the checkpoint holds, and only those', async () => {
    const { checkpoint_id } = await create('sessions');
    const dept = await createDepartment(t.dbh.db, { name: '后来的部门', code: 'LATER', grade: 90 });
    await createUser(t.dbh.db, { username: 'later', password: 'Later-Pass-123', grade: 90, department_id: dept });
    const later = await t.login('later', 'Later-Pass-123');
    const me = (cookie: string) => t.app.inject({ url: `${API}/auth/me`, headers: { cookie } });
    expect((await me(later)).statusCode).toBe(200);
    expect((await restore(checkpoint_id, { create_auto_backup: false })).statusCode).toBe(200);
    expect((await me(admin)).statusCode).toBe(200);
    expect((await me(later)).statusCode).toBe(401);
    expect(await t.dbh.db.selectFrom('users').select('id').where('username', '=', 'later').executeTakeFirst()).toBeUndefined();
  });

  it('deletes a checkpoint with its chunks, and answers 404 for unknown or malformed ids', async () => {
    const { checkpoint_id } = await create('to delete');
    const res = await call('DELETE', `/${checkpoint_id}`);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: 'Checkpoint deleted' });
    expect(await t.dbh.db.selectFrom('checkpoint_chunks').select('id').where('checkpoint_id', '=', Number(checkpoint_id)).execute()).toEqual([]);
    expect(await lastLog()).toMatchObject({ operation_type: 'delete', target_type: 'checkpoint', target_id: checkpoint_id });
    const checkpoints = await count('checkpoints');
    for (const id of [checkpoint_id, '999999', 'abc', '1e3', '-1', '0', '99999999999999999999']) {
      const again = await call('DELETE', `/${id}`);
      expect(again.statusCode, id).toBe(404);
      expect(again.json()).toEqual({ success: false, message: 'Checkpoint not found' });
      const r = await restore(id);
      expect(r.statusCode, id).toBe(404);
      expect(r.json()).toEqual({ success: false, message: 'Checkpoint not found' });
    }
    // No automatic backup is taken for a checkpoint that does not exist.
    expect(await count('checkpoints')).toBe(checkpoints);
  });

  it('refuses anonymous and non-admin callers and malformed bodies, changing nothing', async () => {
    const { checkpoint_id } = await create('guarded');
    const dept = await createDepartment(t.dbh.db, { name: '区县部门', code: 'QX', region_id: data.regions[0] });
    await createUser(t.dbh.db, { username: 'qx', password: 'Qx-Pass-12345', grade: 50, department_id: dept });
    const user = await t.login('qx', 'Qx-Pass-12345');
    const state = await dumpCoveredTables(t.dbh.db);
    const counts = [await count('checkpoints'), await count('checkpoint_chunks')];
    const routes = [
      ['GET', ''],
      ['POST', ''],
      ['POST', `/${checkpoint_id}/restore`],
      ['DELETE', `/${checkpoint_id}`],
    ] as const;
    for (const [cookie, status, message] of [
      ['', 401, '请先登录'],
      [user, 403, '权限不足'],
    ] as const) {
      for (const [method, path] of routes) {
        const res = await call(method, path, method === 'GET' ? undefined : {}, cookie);
        expect(res.statusCode, `${method} ${path}`).toBe(status);
        expect(res.json()).toEqual({ success: false, message });
      }
    }
    for (const bad of [{ description: 'x'.repeat(501) }, { description: 5 }, { other: 1 }]) {
      expect((await call('POST', '', bad)).statusCode, JSON.stringify(bad)).toBe(400);
    }
    expect((await restore(checkpoint_id, { batch_size: 500, extra: true })).statusCode).toBe(400);
    expect(await dumpCoveredTables(t.dbh.db)).toEqual(state);
    expect([await count('checkpoints'), await count('checkpoint_chunks')]).toEqual(counts);
  });
});
