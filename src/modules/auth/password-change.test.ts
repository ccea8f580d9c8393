import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { createUser } from '../../../test/helpers/fixtures.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { accountState, caller, logsContainNone, operationLogs, rawCaller } from '../users/users.test-helpers.js';

describe.each(testDialects())('own password and must-change on %s', (dialect) => {
  let t: TestApp;
  let call: ReturnType<typeof caller>;
  let userId = 0;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    call = caller(t);
    userId = await createUser(t.dbh.db, { username: 'city', password: 'City-Pass-123', grade: 90 });
  });
  afterAll(async () => t?.close());

  it('refuses anonymous callers and bad input without changing anything', async () => {
    const anon = await call('POST', '/auth/password', { old_password: 'City-Pass-123', new_password: 'Another-Pass-1' });
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toEqual({ success: false, message: '请先登录' });

    const cookie = await t.login('city', 'City-Pass-123');
    const cases: Array<[unknown, string]> = [
      [{}, '原密码和新密码均不能为空'],
      [{ old_password: 'City-Pass-123', new_password: '  ' }, '原密码和新密码均不能为空'],
      [{ old_password: 'wrong-password', new_password: 'Another-Pass-1' }, '原密码不正确'],
      [{ old_password: 'City-Pass-123', new_password: 'short7!' }, '新密码至少需要 8 个字符'],
      [{ old_password: 'City-Pass-123', new_password: 'City-Pass-123' }, '新密码不能与原密码相同'],
      [{ old_password: 'City-Pass-123', new_password: 'x'.repeat(257) }, 'new_password'],
      [{ old_password: 'City-Pass-123', new_password: 'Password123' }, '密码过于常见，容易被猜中，请换一个更难猜的密码'],
      [{ old_password: 'City-Pass-123', new_password: 12345678 }, 'new_password'],
      [{ old_password: 'City-Pass-123', new_password: 'Another-Pass-1', username: 'admin' }, 'username'],
    ];
    for (const [body, message] of cases) {
      const before = await accountState(t.dbh.db);
      const res = await call('POST', '/auth/password', body, cookie);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().success).toBe(false);
      expect(res.json().message).toContain(message);
      expect(await accountState(t.dbh.db)).toEqual(before);
    }
    const huge = await call('POST', '/auth/password', { old_password: 'City-Pass-123', new_password: 'x'.repeat(1_000_000) }, cookie);
    expect([huge.statusCode, huge.json()]).toEqual([413, { success: false, message: '请求体过大' }]);
    const malformed = await rawCaller(t)('POST', '/auth/password', '{"old_password":', 'application/json', cookie);
    expect(malformed.json()).toEqual({ success: false, message: '请求体不是有效的 JSON' });
  });

  it('changes the password, keeps this session and ends the others', async () => {
    const current = await t.login('city', 'City-Pass-123');
    const other = await t.login('city', 'City-Pass-123');
    const res = await call('POST', '/auth/password', { old_password: 'City-Pass-123', new_password: 'City-New-Pass-9' }, current);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ success: true, message: '密码已修改' });
    expect((await call('GET', '/auth/me', undefined, current)).statusCode).toBe(200);
    expect((await call('GET', '/auth/me', undefined, other)).statusCode).toBe(401);
    expect((await call('POST', '/auth/login', { username: 'city', password: 'City-Pass-123' })).statusCode).toBe(401);
    expect((await call('POST', '/auth/login', { username: 'city', password: 'City-New-Pass-9' })).statusCode).toBe(200);
    const entry = (await operationLogs(t.dbh.db)).filter((e) => e.summary.includes('修改了本人密码')).at(-1)!;
    expect(entry).toMatchObject({ operation_type: 'update', target_type: 'user', target_id: String(userId), operator_username: 'city', outcome: 'success' });
    expect(await logsContainNone(t.dbh.db, ['City-Pass-123', 'City-New-Pass-9', 'Another-Pass-1', 'wrong-password'])).toBe(true);
  });

  it('while must_change_password is set, allows only me, password change and logout among login routes', async () => {
    const admin = await t.login();
    const flagged = await call('PATCH', `/admin/users/${userId}`, { must_change_password: true }, admin);
    expect(flagged.json().data.user.must_change_password).toBe(true);
    const cookie = await t.login('city', 'City-New-Pass-9');
    const me = await call('GET', '/auth/me', undefined, cookie);
    expect(me.statusCode).toBe(200);
    expect(me.json().data.user.must_change_password).toBe(true);
    for (const [method, path, body] of [
      ['GET', '/admin/users', undefined],
      ['POST', '/admin/themes/catalog', { name: '不该创建' }],
      ['POST', '/admin/permits/filter', {}],
    ] as const) {
      const before = await accountState(t.dbh.db);
      const res = await call(method, path, body, cookie);
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ success: false, message: '请先修改初始密码', code: 'MUST_CHANGE_PASSWORD' });
      expect(await accountState(t.dbh.db)).toEqual(before);
    }
    // Public routes and pages are not login JSON routes: they answer as usual.
    expect((await call('GET', '/admin/test', undefined, cookie)).json()).toEqual({ success: true, message: 'Test route works!' });
    const page = await call('GET', '/db_admin', undefined, cookie);
    expect([200, 404]).toContain(page.statusCode); // served, or absent when the pages are not built
    expect(page.body).not.toContain('MUST_CHANGE_PASSWORD');

    const changed = await call('POST', '/auth/password', { old_password: 'City-New-Pass-9', new_password: 'City-Third-Pass-7' }, cookie);
    expect(changed.statusCode).toBe(200);
    expect((await call('GET', '/admin/users', undefined, cookie)).statusCode).toBe(200);
    const logout = await call('POST', '/auth/logout', {}, cookie);
    expect(logout.json()).toEqual({ success: true });
  });

  it('lets a flagged user log out', async () => {
    const admin = await t.login();
    await call('PATCH', `/admin/users/${userId}`, { must_change_password: '1' }, admin);
    const cookie = await t.login('city', 'City-Third-Pass-7');
    expect((await call('POST', '/auth/logout', {}, cookie)).json()).toEqual({ success: true });
    expect((await call('GET', '/auth/me', undefined, cookie)).statusCode).toBe(401);
  });
});
