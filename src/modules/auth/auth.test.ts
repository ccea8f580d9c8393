import { mkdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { createDepartment, createRegion, createUser } from '../../../test/helpers/fixtures.js';
import { API, buildTestApp, cookieOf, type TestApp } from '../../../test/helpers/test-app.js';

describe.each(testDialects())('accounts and sessions on %s', (dialect) => {
  let t: TestApp;
  let clock = Date.now();
  let deptAdminCookie = '';

  beforeAll(async () => {
    // No built pages here: the page-missing answers and the minimal login page are under test.
    t = await buildTestApp(dialect, { build: { now: () => clock, pagesDir: join(tmpdir(), 'lawrisk-no-pages') } });
    // Probe routes for the guard mechanism itself (the real admin routes come with their modules).
    t.app.get(`${API}/admin/__probe-admin`, { config: { guard: 'admin' } }, async () => ({ success: true }));
    t.app.get(`${API}/admin/__probe-login`, async () => ({ success: true }));
    const region = await createRegion(t.dbh.db, '广安区', '511602');
    const dept = await createDepartment(t.dbh.db, { name: '区住建局', code: 'ZJJ', region_id: region });
    await createUser(t.dbh.db, { username: 'zjj', password: 'Dept-Pass-123', department_id: dept, grade: 50 });
    await createUser(t.dbh.db, { username: 'city', password: 'City-Pass-123', grade: 90, role: 'department_admin' });
    await createUser(t.dbh.db, { username: 'gone', password: 'Gone-Pass-123', active: false });
    deptAdminCookie = await t.login('zjj', 'Dept-Pass-123');
  });
  afterAll(async () => t?.close());

  const post = (url: string, payload: unknown, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `${API}${url}`, payload: payload as object, headers });
  const logs = () => t.dbh.db.selectFrom('operation_logs').selectAll().orderBy('id', 'asc').execute();

  it('serves the health and test routes', async () => {
    expect((await t.app.inject('/healthz')).json()).toMatchObject({ status: 'ok' });
    expect((await t.app.inject(`${API}/test-simple`)).json()).toEqual({ status: 'ok' });
    expect((await t.app.inject(`${API}/admin/test`)).json()).toEqual({ success: true, message: 'Test route works!' });
  });

  it('answers an unknown route with a JSON 404', async () => {
    const res = await t.app.inject(`${API}/no-such-route`);
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({ success: false });
    expect(res.json().message).toContain('接口不存在');
  });

  it('logs in with JSON and sets a safe session cookie', async () => {
    const res = await post('/auth/login', { username: ' Admin ', password: 'Admin-Test-Pass-1' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.data.redirect).toBe(`${API}/db_admin`);
    expect(body.data.user).toMatchObject({ username: 'admin', role: 'admin', grade: 100, department: null });
    expect(body.data.user).not.toHaveProperty('password_hash');
    const set = String(res.headers['set-cookie']);
    expect(set).toMatch(/HttpOnly/);
    expect(set).toMatch(/SameSite=Lax/);
    expect(set).toMatch(/Path=\//);
    expect(set).not.toMatch(/Secure/);
    const me = await t.app.inject({ url: `${API}/auth/me`, headers: { cookie: cookieOf(res) } });
    expect(me.json()).toMatchObject({ success: true, data: { user: { username: 'admin' } } });
    const entry = (await logs()).at(-1)!;
    expect(entry).toMatchObject({ operation_type: 'login', outcome: 'success', operator_username: 'admin' });
    expect(entry.params).not.toContain('Admin-Test-Pass-1');
  });

  it('refuses bad credentials, inactive accounts and malformed input without a 500', async () => {
    const bad = await post('/auth/login', { username: 'admin', password: 'wrong' });
    expect(bad.statusCode).toBe(401);
    expect(bad.json()).toEqual({ success: false, message: '用户名或密码错误' });
    expect((await logs()).at(-1)).toMatchObject({ operation_type: 'login', outcome: 'failure', operator_username: 'admin' });
    const unknown = await post('/auth/login', { username: 'nobody', password: 'whatever1' });
    expect(unknown.statusCode).toBe(401);

    const inactive = await post('/auth/login', { username: 'gone', password: 'Gone-Pass-123' });
    expect(inactive.statusCode).toBe(403);
    expect(inactive.json()).toEqual({ success: false, message: '账号已停用' });

    const missing = await post('/auth/login', { username: 'admin' });
    expect(missing.statusCode).toBe(400);
    expect(missing.json().message).toBe('用户名和密码均不能为空');
    const wrongType = await post('/auth/login', { username: 'admin', password: 12345 });
    expect(wrongType.statusCode).toBe(400);
    expect(wrongType.json().success).toBe(false);
    const huge = await post('/auth/login', { username: 'x'.repeat(10_000), password: 'abc' });
    expect([400, 401]).toContain(huge.statusCode);
    const unknownField = await post('/auth/login', { username: 'admin', password: 'x', role: 'admin' });
    expect(unknownField.statusCode).toBe(400);
    expect(unknownField.json().message).toContain('role');
    const malformed = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/login`,
      payload: '{"username": ',
      headers: { 'content-type': 'application/json' },
    });
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ success: false, message: '请求体不是有效的 JSON' });
    const oversized = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/login`,
      payload: JSON.stringify({ username: 'a'.repeat(2_000_000) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(oversized.statusCode).toBe(413);
    expect(oversized.json()).toEqual({ success: false, message: '请求体过大' });
    // Nothing of this created a session or a user.
    const users = await t.dbh.db.selectFrom('users').select('username').execute();
    expect(users.map((u) => u.username).sort()).toEqual(['admin', 'city', 'gone', 'zjj']);
    await post('/auth/login', { username: 'admin', password: 'Admin-Test-Pass-1' }); // clears the failures
  });

  it('logs in with a form, honouring only same-origin next paths and keeping credentials out of URLs', async () => {
    const form = (body: string) =>
      t.app.inject({ method: 'POST', url: `${API}/auth/login`, payload: body, headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    const ok = await form(`username=admin&password=Admin-Test-Pass-1&next=${encodeURIComponent(`${API}/admin/v2-debug?q=1`)}`);
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toBe(`${API}/admin/v2-debug?q=1`);
    expect(String(ok.headers['set-cookie'])).toMatch(/lawrisk_sid=/);
    for (const evil of ['https://evil.example/x', '//evil.example/x', '/elsewhere', `${API}/../../../x`]) {
      const r = await form(`username=admin&password=Admin-Test-Pass-1&next=${encodeURIComponent(evil)}`);
      expect(r.headers.location).toBe(`${API}/db_admin`);
    }
    const fail = await form('username=admin&password=Secret-Wrong-1');
    expect(fail.statusCode).toBe(303);
    expect(fail.headers.location).toBe(`${API}/login?error=credentials`);
    expect(String(fail.headers.location)).not.toContain('Secret-Wrong-1');
    await post('/auth/login', { username: 'admin', password: 'Admin-Test-Pass-1' });
  });

  it('serves the login page with the form and an escaped error', async () => {
    const res = await t.app.inject(`${API}/login?error=credentials&next=${encodeURIComponent(`${API}/db_admin`)}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('用户名或密码错误');
    expect(res.body).toContain(`action="${API}/auth/login"`);
    expect(res.body).not.toMatch(/<script(?![^>]*src=)/);
    expect(String(res.headers['content-security-policy'])).toContain("script-src 'self'");
    expect(res.headers['x-frame-options']).toBe('DENY');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it('locks a username for 15 minutes after 5 failures within 15 minutes', async () => {
    for (let i = 0; i < 5; i++) {
      expect((await post('/auth/login', { username: 'city', password: `wrong-${i}` })).statusCode).toBe(401);
    }
    const locked = await post('/auth/login', { username: 'city', password: 'City-Pass-123' });
    expect(locked.statusCode).toBe(429);
    expect(locked.json().success).toBe(false);
    expect(locked.json().message).toContain('锁定');
    // Other usernames are unaffected.
    expect((await post('/auth/login', { username: 'admin', password: 'Admin-Test-Pass-1' })).statusCode).toBe(200);
    clock += 15 * 60 * 1000 + 1000;
    expect((await post('/auth/login', { username: 'city', password: 'City-Pass-123' })).statusCode).toBe(200);
  });

  it('rotates the session id at login and revokes it at logout', async () => {
    const first = await t.login();
    const res = await post('/auth/login', { username: 'admin', password: 'Admin-Test-Pass-1' }, { cookie: first });
    const second = cookieOf(res);
    expect(second).not.toBe(first);
    expect((await t.app.inject({ url: `${API}/auth/me`, headers: { cookie: first } })).statusCode).toBe(401);
    expect((await t.app.inject({ url: `${API}/auth/me`, headers: { cookie: second } })).statusCode).toBe(200);
    const out = await post('/auth/logout', {}, { cookie: second });
    expect(out.json()).toEqual({ success: true });
    const me = await t.app.inject({ url: `${API}/auth/me`, headers: { cookie: second } });
    expect(me.statusCode).toBe(401);
    expect(me.json()).toEqual({ success: false, message: '请先登录' });
  });

  it('expires a session after 12 hours idle', async () => {
    const cookie = await t.login();
    clock += 11 * 60 * 60 * 1000;
    expect((await t.app.inject({ url: `${API}/auth/me`, headers: { cookie } })).statusCode).toBe(200);
    clock += 11 * 60 * 60 * 1000; // idle time counts from the last use
    expect((await t.app.inject({ url: `${API}/auth/me`, headers: { cookie } })).statusCode).toBe(200);
    clock += 12 * 60 * 60 * 1000 + 1000;
    expect((await t.app.inject({ url: `${API}/auth/me`, headers: { cookie } })).statusCode).toBe(401);
    deptAdminCookie = await t.login('zjj', 'Dept-Pass-123');
  });

  it('keeps a session across a restart of the app on the same database', async () => {
    const cookie = await t.login();
    const again = await t.reopen({ now: () => clock, pagesDir: join(tmpdir(), 'lawrisk-no-pages') });
    const me = await again.app.inject({ url: `${API}/auth/me`, headers: { cookie } });
    expect(me.statusCode).toBe(200);
    expect(me.json().data.user.username).toBe('admin');
  });

  it('applies the JSON guards: 401 anonymous, 403 without the right', async () => {
    const admin = await t.login();
    const anon = await t.app.inject(`${API}/admin/__probe-admin`);
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toEqual({ success: false, message: '请先登录' });
    const dept = await t.app.inject({ url: `${API}/admin/__probe-admin`, headers: { cookie: deptAdminCookie } });
    expect(dept.statusCode).toBe(403);
    expect(dept.json()).toEqual({ success: false, message: '权限不足' });
    const city = await t.login('city', 'City-Pass-123');
    expect((await t.app.inject({ url: `${API}/admin/__probe-admin`, headers: { cookie: city } })).statusCode).toBe(200);
    expect((await t.app.inject({ url: `${API}/admin/__probe-admin`, headers: { cookie: admin } })).statusCode).toBe(200);
    // Every /admin/* route needs a login by default.
    expect((await t.app.inject(`${API}/admin/__probe-login`)).statusCode).toBe(401);
    expect((await t.app.inject({ url: `${API}/admin/__probe-login`, headers: { cookie: deptAdminCookie } })).statusCode).toBe(200);
  });

  it('applies the page guards: login redirect with next, 403 page, 404 envelope when the page is missing', async () => {
    const anon = await t.app.inject(`${API}/db_admin`);
    expect(anon.statusCode).toBe(302);
    expect(anon.headers.location).toBe(`${API}/login?next=${encodeURIComponent(`${API}/db_admin`)}`);
    const anonSuper = await t.app.inject(`${API}/admin/super`);
    expect(anonSuper.statusCode).toBe(302);
    const deptSuper = await t.app.inject({ url: `${API}/admin/super`, headers: { cookie: deptAdminCookie } });
    expect(deptSuper.statusCode).toBe(403);
    expect(deptSuper.headers['content-type']).toContain('text/html');
    expect(deptSuper.body).toContain('权限不足');
    const city = await t.login('city', 'City-Pass-123');
    expect((await t.app.inject({ url: `${API}/admin/v2-debug`, headers: { cookie: city } })).statusCode).toBe(403);

    const admin = await t.login();
    const missing = { db_admin: 'DB admin page not found', 'admin/super': 'Super admin page not found', 'admin/v2-debug': '调试页面不存在' };
    for (const [path, message] of Object.entries(missing)) {
      const res = await t.app.inject({ url: `${API}/${path}`, headers: { cookie: admin } });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, message });
    }
    const pagesDir = join(t.database.dataDir, 'pages');
    mkdirSync(pagesDir, { recursive: true });
    writeFileSync(join(pagesDir, 'db_admin.html'), '<!doctype html><title>db</title>');
    const withPages = await t.reopen({ pagesDir, now: () => clock });
    const page = await withPages.app.inject({ url: `${API}/db_admin`, headers: { cookie: deptAdminCookie } });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('<title>db</title>');
  });

  it('refuses a cross-origin state-changing request that carries a valid session', async () => {
    const cookie = await t.login();
    const cross = await post('/auth/logout', {}, { cookie, origin: 'https://evil.example' });
    expect(cross.statusCode).toBe(403);
    expect(cross.json()).toEqual({ success: false, message: '跨站请求被拒绝' });
    const viaReferer = await post('/auth/logout', {}, { cookie, referer: 'https://evil.example/page' });
    expect(viaReferer.statusCode).toBe(403);
    expect((await t.app.inject({ url: `${API}/auth/me`, headers: { cookie } })).statusCode).toBe(200);
    const same = await post('/auth/logout', {}, { cookie, origin: 'http://localhost:80', host: 'localhost:80' });
    expect(same.statusCode).toBe(200);
    expect((await t.app.inject({ url: `${API}/auth/me`, headers: { cookie } })).statusCode).toBe(401);
  });
});
