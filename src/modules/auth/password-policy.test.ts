import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { createUser } from '../../../test/helpers/fixtures.js';
import { ADMIN_PASSWORD, API, buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { accountState, caller } from '../users/users.test-helpers.js';
import { INITIAL_PASSWORD_FILE } from './bootstrap-admin.js';
import { COMMON_PASSWORD_MESSAGE } from './password-policy.js';

/** The password policy (docs/accounts.md, "Passwords") wherever a password is set over HTTP, and the initial password file. */
describe.each(testDialects())('the password policy on %s', (dialect) => {
  let t: TestApp;
  let call: ReturnType<typeof caller>;
  let admin = '';
  let clerkId = 0;
  let superId = 0;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { LOGIN_RATE_LIMIT: '0' } });
    call = caller(t);
    clerkId = await createUser(t.dbh.db, { username: 'clerk', password: 'Clerk-Pass-1234', grade: 50 });
    superId = await createUser(t.dbh.db, { username: 'chief', password: 'Chief-Pass-12345', role: 'admin', grade: 100 });
    admin = await t.login();
  });
  afterAll(async () => t?.close());

  async function refused(method: 'POST' | 'PATCH', path: string, body: object, message: string, cookie = admin): Promise<void> {
    const before = await accountState(t.dbh.db);
    const res = await call(method, path, body, cookie);
    expect([res.statusCode, res.json()]).toEqual([400, { success: false, message }]);
    expect(await accountState(t.dbh.db)).toEqual(before);
  }

  it("asks 8 characters of an account, 12 of a super administrator's, and never a common one", async () => {
    await refused('POST', '/admin/users', { username: 'newbie', password: 'Seven-7' }, '密码至少需要 8 个字符');
    await refused('POST', '/admin/users', { username: 'boss', password: 'Eleven-Char', role: 'admin', grade: 100 }, '超级管理员账号的密码至少需要 12 个字符');
    for (const common of ['password123', 'Password123', 'WOAINI1314', 'qwertyuiop', 'admin@123456']) {
      await refused('POST', '/admin/users', { username: 'newbie', password: common }, COMMON_PASSWORD_MESSAGE);
    }
    expect((await call('POST', '/admin/users', { username: 'newbie', password: 'Eight-8!' }, admin)).statusCode).toBe(200);
    expect((await call('POST', '/admin/users', { username: 'boss', password: 'Twelve-Chars', role: 'admin', grade: 100 }, admin)).statusCode).toBe(200);
  });

  it('holds a password set for another account to the same rule, by the role it has or is given', async () => {
    await refused('PATCH', `/admin/users/${superId}`, { password: 'Eleven-Char' }, '超级管理员账号的密码至少需要 12 个字符');
    await refused('PATCH', `/admin/users/${clerkId}`, { password: 'Eleven-Char', role: 'admin' }, '超级管理员账号的密码至少需要 12 个字符');
    await refused('PATCH', `/admin/users/${clerkId}`, { password: 'iloveyou1314' }, COMMON_PASSWORD_MESSAGE);
    expect((await call('PATCH', `/admin/users/${clerkId}`, { password: 'Eleven-Char' }, admin)).statusCode).toBe(200);
  });

  it("holds one's own new password to it", async () => {
    const chief = await t.login('chief', 'Chief-Pass-12345');
    const change = (newPassword: string) => ({ old_password: 'Chief-Pass-12345', new_password: newPassword });
    const own = (body: object) => t.app.inject({ method: 'POST', url: `${API}/auth/password`, payload: body, headers: { cookie: chief } });
    for (const [password, message] of [
      ['Eleven-Char', '超级管理员账号的新密码至少需要 12 个字符'],
      ['1qaz2wsx3edc', COMMON_PASSWORD_MESSAGE],
    ]) {
      const res = await own(change(password));
      expect([res.statusCode, res.json()]).toEqual([400, { success: false, message }]);
    }
    expect((await own(change('A-Longer-Passphrase'))).statusCode).toBe(200);
  });

  it('deletes the initial administrator password file once that password no longer opens the account', async () => {
    const file = join(t.database.dataDir, INITIAL_PASSWORD_FILE);
    writeFileSync(file, `admin\n${ADMIN_PASSWORD}\n`, { mode: 0o600 });
    await t.reopen(); // start-up: the password still works, the file stays
    expect(existsSync(file)).toBe(true);
    const res = await call('PATCH', `/admin/users/${superId}`, { display_name: '处长' }, admin);
    expect(res.statusCode).toBe(200);
    expect(existsSync(file)).toBe(true); // no password changed
    const changed = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/password`,
      payload: { old_password: ADMIN_PASSWORD, new_password: 'Admin-Changed-Pass-1' },
      headers: { cookie: admin },
    });
    expect(changed.statusCode).toBe(200);
    expect(existsSync(file)).toBe(false);
    // A file left by a change made elsewhere (another instance, the command line) goes at the next start.
    writeFileSync(file, `admin\n${ADMIN_PASSWORD}\n`, { mode: 0o600 });
    await t.reopen();
    expect(existsSync(file)).toBe(false);
  });
});
