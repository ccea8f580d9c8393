import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { sessionIdOf } from '../../src/modules/auth/auth.service.js';
import { testDialects } from '../helpers/databases.js';
import { createDepartment, createRegion, createUser } from '../helpers/fixtures.js';
import { multipartBody } from '../helpers/multipart.js';
import { ADMIN_PASSWORD, API, buildTestApp, cookieOf, type TestApp } from '../helpers/test-app.js';

/**
 * Sessions as an attacker meets them: a planted session id, a session left idle, a logged-out
 * cookie, a stolen cookie replayed from another site, password guessing. The controls are
 * described in docs/security.md.
 */

const HOUR = 60 * 60 * 1000;
const CLERK_PASSWORD = 'Clerk-Pass-123';
const EVIL = 'https://evil.example';
/** `app.inject` sends `Host: localhost:80`, so this is the service's own origin. */
const SELF = 'http://localhost';

describe.each(testDialects())('sessions on %s', (dialect) => {
  let t: TestApp;
  let clock = Date.parse('2030-01-01T00:00:00Z');

  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { LOGIN_RATE_LIMIT: '0' }, build: { now: () => clock } });
    const region = await createRegion(t.dbh.db, '甲区', 'A01');
    const dept = await createDepartment(t.dbh.db, { name: '甲区住建局', code: 'JQZJJ', region_id: region });
    await createUser(t.dbh.db, { username: 'clerk', password: CLERK_PASSWORD, department_id: dept, grade: 50 });
  });
  afterAll(async () => t?.close());

  const post = (url: string, payload: object, headers: Record<string, string> = {}) => t.app.inject({ method: 'POST', url: `${API}${url}`, payload, headers });
  const me = (cookie: string) => t.app.inject({ url: `${API}/auth/me`, headers: { cookie } });
  const sessionRows = () => t.dbh.db.selectFrom('sessions').select(['id', 'user_id']).execute();
  const tokenOf = (cookie: string) => cookie.slice(cookie.indexOf('=') + 1);

  describe('fixation', () => {
    it('never adopts a session id chosen before login: a planted value is replaced and stays worthless', async () => {
      const planted = 'lawrisk_sid=attacker-chosen-session-id-0000000000000000000000';
      const res = await post('/auth/login', { username: 'admin', password: ADMIN_PASSWORD }, { cookie: planted });
      expect(res.statusCode).toBe(200);
      const issued = cookieOf(res);
      expect(issued).not.toBe(planted);
      expect(tokenOf(issued)).toMatch(/^[A-Za-z0-9_-]{43}$/); // 32 random bytes
      expect((await me(planted)).statusCode).toBe(401);
      expect((await me(issued)).statusCode).toBe(200);
    });

    it("ends the attacker's own live session when a victim logs in carrying it", async () => {
      const attacker = await t.login('clerk', CLERK_PASSWORD);
      expect((await me(attacker)).statusCode).toBe(200);
      // The victim's browser carries the attacker's cookie (planted) and logs in, by JSON or by the form.
      const json = await post('/auth/login', { username: 'admin', password: ADMIN_PASSWORD }, { cookie: attacker });
      const victim = cookieOf(json);
      expect(victim).not.toBe(attacker);
      expect((await me(attacker)).statusCode).toBe(401);
      expect((await me(victim)).json().data.user.username).toBe('admin');

      const attacker2 = await t.login('clerk', CLERK_PASSWORD);
      const form = await t.app.inject({
        method: 'POST',
        url: `${API}/auth/login`,
        payload: `username=admin&password=${ADMIN_PASSWORD}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: attacker2 },
      });
      expect(form.statusCode).toBe(303);
      expect(cookieOf(form)).not.toBe(attacker2);
      expect((await me(attacker2)).statusCode).toBe(401);
    });

    it('stores only a hash of the session id, so the sessions table gives no usable cookie', async () => {
      const cookie = await t.login('clerk', CLERK_PASSWORD);
      const rows = await sessionRows();
      expect(rows.map((r) => r.id)).toContain(sessionIdOf(tokenOf(cookie)));
      expect(JSON.stringify(rows)).not.toContain(tokenOf(cookie));
    });
  });

  describe('idle expiry', () => {
    it('keeps a session in use and ends it after 12 hours without a request, on every kind of route', async () => {
      const cookie = await t.login('clerk', CLERK_PASSWORD);
      const id = sessionIdOf(tokenOf(cookie));
      clock += 12 * HOUR - 60_000;
      expect((await me(cookie)).statusCode).toBe(200); // used: the idle time starts again
      clock += 12 * HOUR - 60_000;
      expect((await t.app.inject({ url: `${API}/admin/regions`, headers: { cookie } })).statusCode).toBe(200);
      clock += 12 * HOUR + 1000;
      const json = await t.app.inject({ url: `${API}/admin/regions`, headers: { cookie } });
      expect(json.statusCode).toBe(401);
      expect(json.json()).toEqual({ success: false, message: '请先登录' });
      const page = await t.app.inject({ url: `${API}/db_admin`, headers: { cookie } });
      expect(page.statusCode).toBe(302);
      expect(page.headers.location).toBe(`${API}/login?next=${encodeURIComponent(`${API}/db_admin`)}`);
      expect((await sessionRows()).map((r) => r.id)).not.toContain(id);
    });
  });

  describe('logout', () => {
    it('revokes the cookie for every kind of route, on every instance sharing the database', async () => {
      const cookie = await t.login();
      const other = await t.reopen({ now: () => clock });
      expect((await other.app.inject({ url: `${API}/auth/me`, headers: { cookie } })).statusCode).toBe(200);

      const out = await post('/auth/logout', {}, { cookie, origin: SELF });
      expect(out.statusCode).toBe(200);
      expect(out.json()).toEqual({ success: true });
      expect(String(out.headers['set-cookie'])).toMatch(/^lawrisk_sid=;/);
      expect(String(out.headers['set-cookie'])).toContain('Expires=Thu, 01 Jan 1970 00:00:00 GMT');
      expect((await sessionRows()).map((r) => r.id)).not.toContain(sessionIdOf(tokenOf(cookie)));

      const get = (url: string) => t.app.inject({ url: `${API}${url}`, headers: { cookie } });
      for (const url of ['/auth/me', '/admin/regions', '/admin/users', '/admin/operation-logs', '/v2/unbound-permits?visibility=all']) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(401);
        expect(res.json().message, url).toBe('请先登录');
      }
      for (const url of ['/db_admin', '/admin/super', '/admin/v2-debug']) {
        const res = await get(url);
        expect(res.statusCode, url).toBe(302);
        expect(res.headers.location, url).toMatch(new RegExp(`^${API}/login\\?next=`));
      }
      const change = await post('/admin/checkpoints', { description: 'after logout' }, { cookie, origin: SELF });
      expect(change.statusCode).toBe(401);
      expect(await t.dbh.db.selectFrom('checkpoints').select('id').execute()).toEqual([]);
      expect((await other.app.inject({ url: `${API}/auth/me`, headers: { cookie } })).statusCode).toBe(401);
    });
  });

  describe('a stolen cookie used from another site', () => {
    /** 403 `跨站请求被拒绝` (with the `data: {}` some routes add to every failure). */
    const refused = (res: { statusCode: number; json(): any }) => {
      expect(res.statusCode).toBe(403);
      const { data, ...envelope } = res.json();
      expect(envelope).toEqual({ success: false, message: '跨站请求被拒绝' });
      if (data !== undefined) expect(data).toEqual({});
    };

    it('is refused for every state-changing request, and nothing changes', async () => {
      const cookie = await t.login();
      const clerk = await t.dbh.db.selectFrom('users').select(['id', 'password_hash']).where('username', '=', 'clerk').executeTakeFirstOrThrow();
      const region = await createRegion(t.dbh.db, '待删区域');
      const upload = multipartBody({}, { file: { filename: 'x.xlsx', content: Buffer.from('not really a workbook') } });
      const attempts = [
        { method: 'POST', url: '/admin/users', payload: { username: 'planted', password: 'Planted-Pass-1' } },
        { method: 'PATCH', url: `/admin/users/${clerk.id}`, payload: { password: 'Taken-Over-Pass-1' } },
        { method: 'DELETE', url: `/admin/regions/${region}` },
        { method: 'POST', url: '/admin/checkpoints', payload: {} },
        { method: 'POST', url: '/admin/permit-import/upload', payload: upload.payload, headers: upload.headers },
        { method: 'POST', url: '/auth/password', payload: { old_password: ADMIN_PASSWORD, new_password: 'Taken-Over-Pass-1' } },
        { method: 'POST', url: '/auth/logout', payload: {} },
        { method: 'POST', url: '/v2', payload: { query: '许可' } }, // public, but it carries the session
      ] as const;
      const origins: Record<string, string>[] = [
        { origin: EVIL },
        { referer: `${EVIL}/page.html` }, // browsers that send no Origin still send the Referer
        { origin: 'null' }, // sandboxed frames, privacy-redirected requests
        { origin: 'http://localhost:8080' }, // another port is another origin
        { origin: 'https://localhost' }, // and another scheme
        { origin: EVIL, referer: `${SELF}/app/` }, // a same-origin Referer does not excuse a foreign Origin
      ];
      for (const a of attempts) {
        for (const from of origins) {
          const headers = { ...('headers' in a ? a.headers : {}), ...from, cookie };
          refused(await t.app.inject({ method: a.method, url: `${API}${a.url}`, payload: 'payload' in a ? a.payload : undefined, headers }));
        }
      }
      expect(await t.dbh.db.selectFrom('users').select('id').where('username', '=', 'planted').execute()).toEqual([]);
      const after = await t.dbh.db.selectFrom('users').select('password_hash').where('id', '=', clerk.id).executeTakeFirstOrThrow();
      expect(after.password_hash).toBe(clerk.password_hash);
      expect(await t.dbh.db.selectFrom('regions').select('id').where('id', '=', region).execute()).toHaveLength(1);
      expect(await t.dbh.db.selectFrom('checkpoints').select('id').execute()).toEqual([]);
      expect(await t.dbh.db.selectFrom('import_sessions').select('id').execute()).toEqual([]);
      expect((await me(cookie)).statusCode).toBe(200);
      await t.dbh.db.deleteFrom('regions').where('id', '=', region).execute();
    });

    it('passes same-origin requests, reads from anywhere, and requests without Origin or Referer (not a browser)', async () => {
      const cookie = await t.login();
      const create = (name: string, from: Record<string, string>) => post('/admin/regions', { name }, { cookie, ...from });
      expect((await create('同源区域一', { origin: SELF })).statusCode).toBe(200);
      expect((await create('同源区域二', { origin: 'http://localhost:80' })).statusCode).toBe(200);
      expect((await create('同源区域三', { referer: `${SELF}${API}/db_admin` })).statusCode).toBe(200);
      // Scripts and command-line clients send neither; a browser always sends one of them on a cross-site POST.
      expect((await create('无来源区域', {})).statusCode).toBe(200);
      // Reads are not state-changing: the cookie (SameSite=Lax) works on a top-level navigation from elsewhere.
      const read = await t.app.inject({ url: `${API}/admin/regions`, headers: { cookie, origin: EVIL, referer: `${EVIL}/` } });
      expect(read.statusCode).toBe(200);
      // No CORS: another site's script cannot read an answer, nor pass a preflight.
      expect(read.headers['access-control-allow-origin']).toBeUndefined();
      const preflight = await t.app.inject({
        method: 'OPTIONS',
        url: `${API}/admin/regions`,
        headers: { origin: EVIL, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      });
      expect(preflight.headers['access-control-allow-origin']).toBeUndefined();
      expect(preflight.headers['access-control-allow-methods']).toBeUndefined();
      await t.dbh.db.deleteFrom('regions').where('name', 'in', ['同源区域一', '同源区域二', '同源区域三', '无来源区域']).execute();
    });

    it('refuses a login posted from another site (login CSRF), and leaves the public search open to it', async () => {
      const before = (await sessionRows()).length;
      const login = await post('/auth/login', { username: 'admin', password: ADMIN_PASSWORD }, { origin: EVIL });
      refused(login);
      expect(login.headers['set-cookie']).toBeUndefined();
      expect((await sessionRows()).length).toBe(before);
      // Anonymous search from another site carries no session: nothing to protect.
      expect((await post('/v2', { query: '许可' }, { origin: EVIL })).statusCode).toBe(200);
    });
  });

  describe('login lockout', () => {
    const attempt = (username: string, password: string) => post('/auth/login', { username, password });
    const LOCKED = '登录失败次数过多，该账号已被锁定，请 15 分钟后再试';

    it('refuses a username for 15 minutes after 5 failures, even with the right password, then lets it in', async () => {
      for (let i = 1; i <= 5; i++) {
        const res = await attempt(i % 2 ? 'clerk' : ' CLERK ', `Wrong-Pass-${i}`); // the same username however typed
        expect(res.statusCode).toBe(401);
        clock += 60_000;
      }
      const locked = await attempt('clerk', CLERK_PASSWORD);
      expect(locked.statusCode).toBe(429);
      expect(locked.json()).toEqual({ success: false, message: '登录失败次数过多，该账号已被锁定，请 14 分钟后再试' });
      // Other accounts are not affected; the lock is in the database, so every instance applies it.
      expect((await attempt('admin', ADMIN_PASSWORD)).statusCode).toBe(200);
      const other = await t.reopen({ now: () => clock });
      const elsewhere = await other.app.inject({ method: 'POST', url: `${API}/auth/login`, payload: { username: 'clerk', password: CLERK_PASSWORD } });
      expect(elsewhere.statusCode).toBe(429);
      const form = await t.app.inject({
        method: 'POST',
        url: `${API}/auth/login`,
        payload: `username=clerk&password=${CLERK_PASSWORD}`,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
      expect(form.statusCode).toBe(303);
      expect(form.headers.location).toBe(`${API}/login?error=locked`);

      clock += 14 * 60_000 - 1000; // 14:59 after the fifth failure
      expect((await attempt('clerk', CLERK_PASSWORD)).statusCode).toBe(429);
      clock += 2000;
      const back = await attempt('clerk', CLERK_PASSWORD);
      expect(back.statusCode).toBe(200);
      // A success clears the count: one more failure does not lock again.
      expect((await attempt('clerk', 'Wrong-Again-1')).statusCode).toBe(401);
      expect((await attempt('clerk', CLERK_PASSWORD)).statusCode).toBe(200);
    });

    it('counts only failures within 15 minutes, and locks unknown usernames alike (no account enumeration)', async () => {
      for (let i = 0; i < 4; i++) expect((await attempt('clerk', `Wrong-${i}`)).statusCode).toBe(401);
      clock += 16 * 60_000;
      expect((await attempt('clerk', 'Wrong-late')).statusCode).toBe(401);
      expect((await attempt('clerk', CLERK_PASSWORD)).statusCode).toBe(200);

      for (let i = 0; i < 5; i++) expect((await attempt('ghost', `Wrong-${i}`)).json()).toEqual({ success: false, message: '用户名或密码错误' });
      const ghost = await attempt('ghost', 'Anything-1');
      expect(ghost.statusCode).toBe(429);
      expect(ghost.json().message).toBe(LOCKED);
      clock += 15 * 60_000 + 1000;
    });

    it('verifies at most 5 guesses of one burst, however many are sent at once to two instances', async () => {
      await createUser(t.dbh.db, { username: 'burst', password: CLERK_PASSWORD, grade: 50 });
      const other = await t.reopen({ now: () => clock });
      const to = (i: number) => (i % 2 ? other.app : t.app);
      const guess = (i: number, password: string) => to(i).inject({ method: 'POST', url: `${API}/auth/login`, payload: { username: 'burst', password } });
      /** The failures recorded at the clock's time (those of an earlier burst are older). */
      const failures = async () =>
        Number(
          (
            await t.dbh.db
              .selectFrom('login_failures')
              .select((eb) => eb.fn.countAll<number>().as('n'))
              .where('username', '=', 'burst')
              .where('created_at', '=', new Date(clock).toISOString())
              .executeTakeFirstOrThrow()
          ).n,
        );

      const wrong = await Promise.all(Array.from({ length: 15 }, (_, i) => guess(i, `Wrong-Burst-${i}`)));
      const statuses = wrong.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([...Array(5).fill(401), ...Array(10).fill(429)]);
      expect(await failures()).toBe(5);
      expect((await guess(0, CLERK_PASSWORD)).statusCode).toBe(429);

      // Once free again: eleven wrong guesses at once, then the right password while they are verified.
      clock += 16 * 60_000;
      const burst = Array.from({ length: 11 }, (_, i) => guess(i, `Wrong-Again-${i}`));
      await expect.poll(failures, { interval: 5 }).toBe(5);
      const right = await guess(1, CLERK_PASSWORD);
      expect([right.statusCode, right.json().message]).toEqual([429, '登录失败次数过多，该账号已被锁定，请 15 分钟后再试']);
      expect((await Promise.all(burst)).map((r) => r.statusCode).sort()).toEqual([...Array(5).fill(401), ...Array(6).fill(429)]);
      expect(await failures()).toBe(5);
      clock += 16 * 60_000;
    });

    it('verifies at most 5 wrong old passwords in a password change, and the login is not locked by them', async () => {
      await createUser(t.dbh.db, { username: 'changer', password: CLERK_PASSWORD, grade: 50 });
      const cookie = cookieOf(await post('/auth/login', { username: 'changer', password: CLERK_PASSWORD }));
      const change = (old: string) => post('/auth/password', { old_password: old, new_password: 'Brand-New-Pass-1' }, { cookie, origin: SELF });
      const answers = await Promise.all(Array.from({ length: 8 }, (_, i) => change(`Wrong-Old-${i}`)));
      expect(answers.map((r) => r.statusCode).sort()).toEqual([...Array(5).fill(400), ...Array(3).fill(429)]);
      expect(answers.find((r) => r.statusCode === 400)!.json().message).toBe('原密码不正确');
      const locked = await change(CLERK_PASSWORD);
      expect([locked.statusCode, locked.json().message]).toEqual([429, '原密码错误次数过多，请 15 分钟后再试']);
      const stored = await t.dbh.db.selectFrom('users').select('password_hash').where('username', '=', 'changer').executeTakeFirstOrThrow();
      expect((await post('/auth/login', { username: 'changer', password: CLERK_PASSWORD })).statusCode).toBe(200);
      clock += 16 * 60_000;
      expect((await change(CLERK_PASSWORD)).statusCode).toBe(200);
      const changed = await t.dbh.db.selectFrom('users').select('password_hash').where('username', '=', 'changer').executeTakeFirstOrThrow();
      expect(changed.password_hash).not.toBe(stored.password_hash);
    });
  });
});

describe('the origin check behind a proxy (TRUST_PROXY on)', () => {
  it('checks the origin the proxy reports', async () => {
    const proxied = await buildTestApp('sqlite', { env: { TRUST_PROXY: '1' } });
    try {
      const cookie = await proxied.login();
      const behind = { 'x-forwarded-proto': 'https', 'x-forwarded-host': 'lawrisk.gov.example', cookie };
      const send = (origin: string) => proxied.app.inject({ method: 'POST', url: `${API}/admin/checkpoints`, payload: {}, headers: { ...behind, origin } });
      expect((await send('https://lawrisk.gov.example')).statusCode).toBe(200);
      for (const origin of ['http://lawrisk.gov.example', EVIL]) {
        const res = await send(origin);
        expect(res.statusCode, origin).toBe(403);
        expect(res.json()).toEqual({ success: false, message: '跨站请求被拒绝' });
      }
    } finally {
      await proxied.close();
    }
  });
});

describe('rate limits', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await buildTestApp('sqlite', { env: { LOGIN_RATE_LIMIT: '3', SEARCH_RATE_LIMIT: '4' } });
  });
  afterAll(async () => t?.close());
  afterEach(() => vi.useRealTimers());

  const TOO_MANY = { success: false, message: '请求过于频繁，请稍后再试' };
  const login = (ip: string, extra: Record<string, string> = {}) =>
    t.app.inject({
      method: 'POST',
      url: `${API}/auth/login`,
      payload: { username: `user-${ip}`, password: 'Wrong-Pass-1' },
      remoteAddress: ip,
      headers: extra,
    });
  const search = (ip: string, method: 'GET' | 'POST') =>
    method === 'GET'
      ? t.app.inject({ url: `${API}/v2?query=${encodeURIComponent('许可')}`, remoteAddress: ip })
      : t.app.inject({ method: 'POST', url: `${API}/v2`, payload: { query: '许可' }, remoteAddress: ip });

  it('answers 429 in the envelope past LOGIN_RATE_LIMIT login attempts a minute from one address, whatever the username', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    for (let i = 0; i < 3; i++) expect((await login('198.51.100.7')).statusCode).toBe(401);
    const limited = await login('198.51.100.7');
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual(TOO_MANY);
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(0);
    // X-Forwarded-For is not believed without TRUST_PROXY: it cannot buy a fresh allowance.
    expect((await login('198.51.100.7', { 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(429);
    // Another address has its own allowance; a minute later the first has one again.
    expect((await login('198.51.100.8')).statusCode).toBe(401);
    vi.setSystemTime(Date.now() + 61_000);
    expect((await login('198.51.100.7')).statusCode).toBe(401);
  });

  it('answers 429 past SEARCH_RATE_LIMIT /v2 requests a minute, GET and POST counted together, other routes untouched', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() });
    const ip = '198.51.100.20';
    for (const method of ['GET', 'POST', 'GET', 'POST'] as const) expect((await search(ip, method)).statusCode).toBe(200);
    for (const method of ['GET', 'POST'] as const) {
      const limited = await search(ip, method);
      expect(limited.statusCode, method).toBe(429);
      expect(limited.json()).toEqual({ ...TOO_MANY, data: {} });
    }
    // The public catalogue reads share the search's counter (docs/security.md); other routes do not.
    expect((await t.app.inject({ url: `${API}/v2/regions`, remoteAddress: ip })).statusCode).toBe(429);
    expect((await t.app.inject({ url: '/healthz', remoteAddress: ip })).statusCode).toBe(200);
    expect((await search('198.51.100.21', 'GET')).statusCode).toBe(200);
    vi.setSystemTime(Date.now() + 61_000);
    expect((await search(ip, 'POST')).statusCode).toBe(200);
  });

  it('has no limit when the setting is 0', async () => {
    const open = await buildTestApp('sqlite', { env: { LOGIN_RATE_LIMIT: '0', SEARCH_RATE_LIMIT: '0' } });
    try {
      for (let i = 0; i < 30; i++) {
        expect((await open.app.inject({ url: `${API}/v2?query=${encodeURIComponent('许可')}` })).statusCode).toBe(200);
      }
      for (let i = 0; i < 8; i++) {
        const res = await open.app.inject({ method: 'POST', url: `${API}/auth/login`, payload: { username: `nobody-${i}`, password: 'Wrong-Pass-1' } });
        expect(res.statusCode).toBe(401);
      }
    } finally {
      await open.close();
    }
  });
});
