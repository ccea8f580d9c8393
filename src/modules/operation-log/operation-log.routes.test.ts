import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { createUser } from '../../../test/helpers/fixtures.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';

const TYPES = ['create', 'update', 'delete'] as const;

describe.each(testDialects())('operation log listing on %s', (dialect) => {
  let t: TestApp;
  let admin = '';
  let clerk = '';
  let clerkId = 0;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    clerkId = await createUser(t.dbh.db, { username: 'clerk', password: 'Clerk-Pass-123', grade: 50, display_name: '办事员' });
    await createUser(t.dbh.db, { username: 'city', password: 'City-Pass-123', grade: 90 });
    // 120 entries one second apart: admin's and the clerk's, three types, newest last.
    const rows = Array.from({ length: 120 }, (_, i) => {
      const mine = i % 4 === 0;
      return {
        created_at: new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString(),
        operator_id: mine ? clerkId : 1,
        operator_username: mine ? 'clerk' : 'admin',
        operator_name: mine ? '办事员' : null,
        operation_type: TYPES[i % 3],
        target_type: 'permit',
        target_id: String(i),
        target_name: `许可 ${i}`,
        summary: `第 ${i} 条`,
        params: JSON.stringify({ i, nested: { ok: true } }),
        outcome: i % 5 === 0 ? 'failure' : 'success',
        error_message: i % 5 === 0 ? '失败原因' : null,
        duration_ms: i,
        client_ip: '10.0.0.1',
        request_id: `req-${i}`,
      };
    });
    await t.dbh.db.insertInto('operation_logs').values(rows).execute();
    // Logins below also write entries, newer than the ones above.
    admin = await t.login();
    clerk = await t.login('clerk', 'Clerk-Pass-123');
  });
  afterAll(async () => t?.close());

  const list = async (query = '', cookie = admin) => {
    const res = await t.app.inject({ url: `${API}/admin/operation-logs${query}`, headers: { cookie } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().data as { logs: Array<Record<string, any>>; total: number; limit: number; offset: number };
  };

  it('lists newest first with the default page and the total', async () => {
    const data = await list();
    expect(data).toMatchObject({ limit: 50, offset: 0, total: 122 });
    expect(data.logs).toHaveLength(50);
    expect(data.logs[0]).toMatchObject({ operation_type: 'login', operator: { username: 'clerk' } });
    const times = data.logs.map((l) => l.created_at);
    expect(times).toEqual([...times].sort().reverse());
    expect(data.logs[2].target.id).toBe('119');
  });

  it('shows each entry with its operator, target and parsed parameters', async () => {
    const entry = (await list('?operation_type=update&limit=1&offset=0')).logs[0];
    expect(entry).toEqual({
      id: expect.stringMatching(/^\d+$/),
      created_at: '2026-01-01T00:01:58.000Z',
      operator: { id: '1', username: 'admin', display_name: null },
      operation_type: 'update',
      target: { type: 'permit', id: '118', name: '许可 118' },
      summary: '第 118 条',
      params: { i: 118, nested: { ok: true } },
      outcome: 'success',
      error_message: null,
      duration_ms: 118,
      client_ip: '10.0.0.1',
      request_id: 'req-118',
    });
  });

  it('clamps limit to 1..500 and offset to 0 and above, with defaults for non-numbers', async () => {
    const cases: Array<[string, number, number]> = [
      ['?limit=0', 1, 0],
      ['?limit=-3', 1, 0],
      ['?limit=1000', 500, 0],
      ['?limit=abc', 50, 0],
      ['?limit=2.5', 50, 0],
      ['?offset=-5', 50, 0],
      ['?offset=abc', 50, 0],
      ['?limit=500&offset=120', 500, 120],
      ['?limit=7&offset=3', 7, 3],
    ];
    for (const [query, limit, offset] of cases) {
      const data = await list(query);
      expect([data.limit, data.offset], query).toEqual([limit, offset]);
      expect(data.logs.length, query).toBe(Math.min(limit, Math.max(0, 122 - offset)));
      expect(data.total, query).toBe(122);
    }
    const page = await list('?limit=10&offset=10');
    expect(page.logs.map((l) => l.target.id)).toEqual((await list('?limit=20')).logs.slice(10).map((l) => l.target.id));
  });

  it('filters by operator (username in any case, or display name) and by type or its alias', async () => {
    const byName = await list('?operator=CLERK&limit=500');
    expect(byName.total).toBe(31);
    expect(byName.logs.every((l) => l.operator.username === 'clerk')).toBe(true);
    expect((await list(`?operator=${encodeURIComponent('办事员')}`)).total).toBe(31);
    expect((await list('?operation_type=create')).total).toBe(40);
    expect((await list('?type=delete&limit=500')).logs.every((l) => l.operation_type === 'delete')).toBe(true);
    const both = await list('?type=create&operator=clerk');
    expect(both.total).toBe(10);
    expect((await list('?operator=nobody')).total).toBe(0);
    expect((await list('?operator=%20%20&type=')).total).toBe(122); // blank filters are no filters
  });

  it('shows a user below grade 90 only its own entries, in list and total', async () => {
    const own = await list('?limit=500', clerk);
    expect(own.total).toBe(31);
    expect(own.logs.every((l) => l.operator.id === String(clerkId))).toBe(true);
    expect((await list('?operator=admin', clerk)).total).toBe(0);
    const city = await t.login('city', 'City-Pass-123');
    expect((await list('', city)).total).toBe(123); // with the city user's own login
  });

  it('needs a login, and answers an unexpected failure with its fixed message', async () => {
    const anon = await t.app.inject(`${API}/admin/operation-logs`);
    expect(anon.statusCode).toBe(401);
    await sql`alter table operation_logs rename to operation_logs_away`.execute(t.dbh.db);
    try {
      const res = await t.app.inject({ url: `${API}/admin/operation-logs`, headers: { cookie: admin } });
      expect(res.statusCode).toBe(500);
      expect(res.json()).toEqual({ success: false, message: '操作日志加载失败' });
    } finally {
      await sql`alter table operation_logs_away rename to operation_logs`.execute(t.dbh.db);
    }
  });
});
