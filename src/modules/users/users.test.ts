import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { createDepartment, createRegion, createUser } from '../../../test/helpers/fixtures.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { accountState, caller, logsContainNone, operationLogs, rawCaller } from './users.test-helpers.js';

describe.each(testDialects())('users (4.3) on %s', (dialect) => {
  let t: TestApp;
  let call: ReturnType<typeof caller>;
  let admin = '';
  let deptCookie = '';
  let regionId = 0;
  let zjjId = 0;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    call = caller(t);
    regionId = await createRegion(t.dbh.db, '广安区', '511602');
    zjjId = await createDepartment(t.dbh.db, { name: '区住建局', code: 'ZJJ', region_id: regionId });
    await createUser(t.dbh.db, { username: 'zjj', password: 'Dept-Pass-123', department_id: zjjId, grade: 50 });
    await createUser(t.dbh.db, { username: 'gone', password: 'Gone-Pass-123', active: false });
    admin = await t.login();
    deptCookie = await t.login('zjj', 'Dept-Pass-123');
  });
  afterAll(async () => t?.close());

  const userId = async (username: string) => (await t.dbh.db.selectFrom('users').select('id').where('username', '=', username).executeTakeFirstOrThrow()).id;

  /** Sends a request that must be refused with `status` and leave every account table as it was. */
  async function refused(status: number, method: 'POST' | 'PATCH' | 'DELETE', path: string, payload?: unknown, cookie = admin) {
    const before = await accountState(t.dbh.db);
    const res = await call(method, path, payload, cookie);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().success).toBe(false);
    expect(await accountState(t.dbh.db)).toEqual(before);
    return res.json().message as string;
  }

  it('lists users in the API shape, inactive ones included by default', async () => {
    const res = await call('GET', '/admin/users', undefined, admin);
    expect(res.statusCode).toBe(200);
    const users = res.json().data.users;
    expect(users.map((u: { username: string }) => u.username)).toEqual(['admin', 'zjj', 'gone']);
    const zjj = users[1];
    expect(zjj).toEqual({
      id: String(await userId('zjj')),
      username: 'zjj',
      display_name: null,
      role: 'department_admin',
      grade: 50,
      service_department_id: String(zjjId),
      department_role: null,
      is_active: true,
      must_change_password: false,
      department: { id: String(zjjId), name: '区住建局', code: 'ZJJ', region_id: String(regionId) },
      created_at: expect.any(String),
      updated_at: expect.any(String),
      last_login_at: expect.any(String),
    });
    expect(users[2]).toMatchObject({ is_active: false, department: null, service_department_id: null });
    expect(res.body).not.toContain('password_hash');
    expect(res.body).not.toContain('argon2');
    for (const flag of ['0', 'false', 'no']) {
      const active = await call('GET', `/admin/users?include_inactive=${flag}`, undefined, admin);
      expect(active.json().data.users.map((u: { username: string }) => u.username)).toEqual(['admin', 'zjj']);
    }
    const all = await call('GET', '/admin/users?include_inactive=yes', undefined, admin);
    expect(all.json().data.users).toHaveLength(3);
  });

  it('creates a user bound to a named department, with role and grade defaults', async () => {
    const res = await call('POST', '/admin/users', { username: '  Alice.W ', password: ' pass word ', service_department_id: String(zjjId) }, admin);
    expect(res.statusCode, res.body).toBe(200);
    const { user, department } = res.json().data;
    expect(department).toBeNull();
    expect(user).toMatchObject({
      username: 'alice.w',
      role: 'department_admin',
      grade: 50,
      display_name: null,
      service_department_id: String(zjjId),
      department: { id: String(zjjId), code: 'ZJJ' },
      is_active: true,
      must_change_password: false,
    });
    expect(res.body).not.toContain('pass word');
    // The password is kept exactly as typed, as login compares it.
    expect((await call('POST', '/auth/login', { username: 'alice.w', password: ' pass word ' })).statusCode).toBe(200);
    const entry = (await operationLogs(t.dbh.db)).filter((e) => e.operation_type === 'create').at(-1)!;
    expect(entry).toMatchObject({ target_type: 'user', target_id: user.id, target_name: 'alice.w', outcome: 'success', operator_username: 'admin' });
    expect(entry.summary).toBe('创建用户 alice.w');
  });

  it('creates or reuses a department when none is named, graded by its depth', async () => {
    const root = await call(
      'POST',
      '/admin/users',
      {
        username: 'gaj',
        password: 'Gaj-Pass-12345',
        display_name: '广安市公安局',
        role: 'admin',
        grade: '80',
        department_phone: '0826-1234567',
        region_id: '511602',
        department_role: 'admin',
      },
      admin,
    );
    expect(root.statusCode, root.body).toBe(200);
    const dept = root.json().data.department;
    expect(dept).toMatchObject({ name: '广安市公安局', code: 'GAJ', phone: '0826-1234567', parent_id: null, region_id: String(regionId), grade: 90 });
    expect(root.json().data.user).toMatchObject({ role: 'admin', grade: 80, department_role: 'admin', service_department_id: dept.id });
    expect((await operationLogs(t.dbh.db)).at(-1)!.summary).toBe('创建用户 gaj，所属部门 广安市公安局（编码 GAJ）');

    // Below a parent: region inherited, grade 80, then 70, then 60 for every deeper level.
    let parent = dept.id as string;
    const grades: number[] = [];
    for (const name of ['l2', 'l3', 'l4', 'l5']) {
      const res = await call('POST', '/admin/users', { username: name, password: 'Level-Pass-1', parent_department_id: parent }, admin);
      expect(res.statusCode, res.body).toBe(200);
      const d = res.json().data.department;
      expect(d).toMatchObject({ name, code: name.toUpperCase(), parent_id: parent, region_id: String(regionId) });
      grades.push(d.grade);
      parent = d.id;
    }
    expect(grades).toEqual([80, 70, 60, 60]);

    // A department whose code is the upper-cased username already exists: reused, not created.
    const count = (await accountState(t.dbh.db)).departments.length;
    await createDepartment(t.dbh.db, { name: '教育局', code: 'JYJ' });
    const reuse = await call('POST', '/admin/users', { username: 'jyj', password: 'Jyj-Pass-1', parent_department_id: parent }, admin);
    expect(reuse.statusCode).toBe(200);
    expect(reuse.json().data.department).toMatchObject({ name: '教育局', code: 'JYJ', parent_id: null, grade: 0 });
    expect((await accountState(t.dbh.db)).departments).toHaveLength(count + 1);
  });

  it('refuses bad input with a clear 400 and changes nothing', async () => {
    expect(await refused(400, 'POST', '/admin/users', { username: 'x1', password: '   ' })).toBe('用户名和密码均不能为空');
    expect(await refused(400, 'POST', '/admin/users', { username: null, password: 'abc' })).toBe('用户名和密码均不能为空');
    expect(await refused(400, 'POST', '/admin/users', {})).toBe('用户名和密码均不能为空');
    expect(await refused(400, 'POST', '/admin/users', { username: ' ZJJ ', password: 'abc' })).toBe('用户名 zjj 已存在');
    const role = await refused(400, 'POST', '/admin/users', { username: 'r1', password: 'abc', role: 'superuser' });
    expect(role).toContain('admin、department_admin');
    for (const grade of [101, -1, 1.5, 'abc', '80.5', true]) {
      const message = await refused(400, 'POST', '/admin/users', { username: 'g1', password: 'abc', grade });
      expect(message).toMatch(/grade|权限等级/);
    }
    for (const username of ['a', 'has space', 'semi;colon', 'x'.repeat(65)]) {
      expect(await refused(400, 'POST', '/admin/users', { username, password: 'abc' })).toMatch(/用户名|username/);
    }
    expect(await refused(400, 'POST', '/admin/users', { username: 'u1', password: 'abc', service_department_id: '999999' })).toContain('服务部门不存在');
    expect(await refused(400, 'POST', '/admin/users', { username: 'u1', password: 'abc', service_department_id: 'abc' })).toContain('服务部门不存在');
    const parentless = await refused(400, 'POST', '/admin/users', { username: 'u1', password: 'abc', parent_department_id: '999999' });
    expect(parentless).toBe('创建单位失败：上级部门不存在');
    expect(await refused(400, 'POST', '/admin/users', { username: 'u1', password: 'abc', region_id: 'nowhere' })).toMatch(/^创建单位失败：区域不存在/);
    // display_name names the new department: a name already taken refuses the department, hence the user.
    expect(await refused(400, 'POST', '/admin/users', { username: 'u1', password: 'abc', display_name: '区住建局' })).toMatch(/^创建单位失败：.*已存在/);
    expect(await refused(400, 'POST', '/admin/users', { username: 'u1', password: 'abc', email: 'x@y' })).toContain('email');
    expect(await refused(400, 'POST', '/admin/users', { username: ['u1'], password: 'abc' })).toContain('username');
    expect(await refused(400, 'POST', '/admin/users', { username: 'u1', password: 12345 })).toContain('password');
    expect(await refused(400, 'POST', '/admin/users', { username: 'u1', password: 'x'.repeat(257) })).toContain('password');
    expect(await refused(413, 'POST', '/admin/users', { username: 'u1', password: 'x'.repeat(1_000_000) })).toBe('请求体过大');
    expect(await refused(400, 'POST', '/admin/users', { username: 'u1', password: 'abc', display_name: '名'.repeat(101) })).toContain('display_name');
    expect(await refused(413, 'POST', '/admin/users', { username: 'u1', password: 'abc', display_name: '名'.repeat(300_000) })).toBe('请求体过大');
    const before = await accountState(t.dbh.db);
    const malformed = await rawCaller(t)('POST', '/admin/users', '{"username": "u1",', 'application/json', admin);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ success: false, message: '请求体不是有效的 JSON' });
    expect(await accountState(t.dbh.db)).toEqual(before);
  });

  it('accepts a form body with numbers as text', async () => {
    const res = await rawCaller(t)(
      'POST',
      '/admin/users',
      `username=form1&password=Form-Pass-1&grade=70&service_department_id=${zjjId}`,
      'application/x-www-form-urlencoded',
      admin,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.user).toMatchObject({ username: 'form1', grade: 70 });
  });

  it("updates any given field; a new password ends that user's sessions", async () => {
    const id = await userId('zjj');
    const res = await call('PATCH', `/admin/users/${id}`, { display_name: '住建管理员', grade: 60, department_role: 'admin' }, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.user).toMatchObject({ display_name: '住建管理员', grade: 60, department_role: 'admin', service_department_id: String(zjjId) });

    const password = await call('PATCH', `/admin/users/${id}`, { password: 'New-Dept-Pass-9' }, admin);
    expect(password.statusCode).toBe(200);
    expect((await call('GET', '/auth/me', undefined, deptCookie)).statusCode).toBe(401);
    expect((await call('POST', '/auth/login', { username: 'zjj', password: 'Dept-Pass-123' })).statusCode).toBe(401);
    deptCookie = await t.login('zjj', 'New-Dept-Pass-9');
    const entry = (await operationLogs(t.dbh.db)).filter((e) => e.operation_type === 'update').at(-1)!;
    expect(entry.summary).toBe('修改用户 zjj：重置密码');
    expect(await logsContainNone(t.dbh.db, ['New-Dept-Pass-9', 'Dept-Pass-123'])).toBe(true);

    const cleared = await call('PATCH', `/admin/users/${id}`, { service_department_id: '' }, admin);
    expect(cleared.json().data.user).toMatchObject({ service_department_id: null, department: null });
    const bound = await call('PATCH', `/admin/users/${id}`, { service_department_id: zjjId }, admin);
    expect(bound.json().data.user.department).toMatchObject({ id: String(zjjId), name: '区住建局' });
    deptCookie = await t.login('zjj', 'New-Dept-Pass-9');
  });

  it('deactivates and reactivates an account', async () => {
    const id = await userId('zjj');
    const off = await call('PATCH', `/admin/users/${id}`, { is_active: false }, admin);
    expect(off.json().data.user.is_active).toBe(false);
    expect((await call('GET', '/auth/me', undefined, deptCookie)).statusCode).toBe(401);
    const login = await call('POST', '/auth/login', { username: 'zjj', password: 'New-Dept-Pass-9' });
    expect(login.json()).toEqual({ success: false, message: '账号已停用' });
    expect((await call('PATCH', `/admin/users/${id}`, { is_active: 'true' }, admin)).json().data.user.is_active).toBe(true);
    deptCookie = await t.login('zjj', 'New-Dept-Pass-9');
    expect((await operationLogs(t.dbh.db)).at(-2)!.summary).toBe('修改用户 zjj：启用账号');
  });

  it('refuses bad updates with a clear 4xx and changes nothing', async () => {
    const id = await userId('zjj');
    expect(await refused(400, 'PATCH', `/admin/users/${id}`, {})).toBe('没有需要更新的字段');
    expect(await refused(400, 'PATCH', `/admin/users/${id}`, { password: '', role: ' ' })).toBe('没有需要更新的字段');
    expect(await refused(404, 'PATCH', '/admin/users/999999', { grade: 10 })).toBe('用户不存在');
    expect(await refused(404, 'PATCH', '/admin/users/abc', { grade: 10 })).toBe('用户不存在');
    expect(await refused(404, 'PATCH', '/admin/users/99999999999999999999', { grade: 10 })).toBe('用户不存在');
    expect(await refused(400, 'PATCH', `/admin/users/${id}`, { role: 'root' })).toContain('admin、department_admin');
    expect(await refused(400, 'PATCH', `/admin/users/${id}`, { grade: 'high' })).toContain('权限等级');
    expect(await refused(400, 'PATCH', `/admin/users/${id}`, { is_active: 'maybe' })).toContain('is_active');
    expect(await refused(400, 'PATCH', `/admin/users/${id}`, { service_department_id: '424242' })).toContain('服务部门不存在');
    expect(await refused(400, 'PATCH', `/admin/users/${id}`, { username: 'renamed' })).toContain('username');
    expect(await refused(400, 'PATCH', `/admin/users/${id}`, { display_name: { $set: 1 } })).toContain('display_name');
    expect(await refused(400, 'PATCH', `/admin/users/${id}`, { password: 'p'.repeat(257) })).toContain('password');
    expect(await refused(413, 'PATCH', `/admin/users/${id}`, { password: 'p'.repeat(1_000_000) })).toBe('请求体过大');
    expect(await refused(404, 'DELETE', '/admin/users/424242')).toBe('用户不存在');
    expect(await refused(404, 'DELETE', '/admin/users/x1')).toBe('用户不存在');
  });

  it('never deletes, demotes or deactivates the last active administrator, nor lets one delete itself', async () => {
    const adminId = await userId('admin');
    await createUser(t.dbh.db, { username: 'city', password: 'City-Pass-123', grade: 90 });
    const city = await t.login('city', 'City-Pass-123');
    // Active admins so far: admin and gaj (created with role admin above). Deactivate gaj first
    // (a super administrator's account is changed only by a super administrator: docs/accounts.md).
    const gaj = await userId('gaj');
    expect((await call('PATCH', `/admin/users/${gaj}`, { is_active: false }, admin)).statusCode).toBe(200);

    // A grade-90 account may not touch a super administrator at all (the privilege ceiling, docs/accounts.md).
    expect(await refused(403, 'DELETE', `/admin/users/${adminId}`, undefined, city)).toBe('权限不足');
    expect(await refused(403, 'PATCH', `/admin/users/${adminId}`, { role: 'department_admin' }, city)).toBe('权限不足');
    expect(await refused(403, 'PATCH', `/admin/users/${adminId}`, { is_active: false }, city)).toBe('权限不足');
    // The last administrator itself gets the interface's 400.
    expect(await refused(400, 'PATCH', `/admin/users/${adminId}`, { role: 'department_admin' })).toBe('不能降级最后一个启用的超级管理员账号');
    expect(await refused(400, 'DELETE', `/admin/users/${adminId}`)).toBe('不能删除当前登录的账号');
    expect(await refused(400, 'PATCH', `/admin/users/${adminId}`, { is_active: '0' })).toBe('不能停用当前登录的账号');
    // An inactive administrator does not count; with a second active one, either may go.
    expect((await call('PATCH', `/admin/users/${gaj}`, { is_active: true }, admin)).statusCode).toBe(200);
    const demoted = await call('PATCH', `/admin/users/${gaj}`, { role: 'department_admin' }, admin);
    expect(demoted.json().data.user.role).toBe('department_admin');
    // A grade-90 administrator still changes the accounts at or below its grade.
    expect((await call('PATCH', `/admin/users/${gaj}`, { display_name: '公安局' }, city)).statusCode).toBe(200);
    expect((await call('GET', '/admin/users', undefined, admin)).statusCode).toBe(200);
  });

  it('deletes a user and its sessions', async () => {
    const id = await userId('alice.w');
    const cookie = await t.login('alice.w', ' pass word ');
    const res = await call('DELETE', `/admin/users/${id}`, undefined, admin);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, message: '用户已删除' });
    expect(await t.dbh.db.selectFrom('users').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    expect((await call('GET', '/auth/me', undefined, cookie)).statusCode).toBe(401);
    expect((await operationLogs(t.dbh.db)).at(-1)).toMatchObject({
      operation_type: 'delete',
      target_type: 'user',
      target_id: String(id),
      target_name: 'alice.w',
      summary: '删除用户 alice.w',
      outcome: 'success',
    });
  });

  it('answers 401 anonymous and 403 below the admin level on every users route', async () => {
    const id = await userId('zjj');
    const routes: Array<['GET' | 'POST' | 'PATCH' | 'DELETE', string, unknown]> = [
      ['GET', '/admin/users', undefined],
      ['POST', '/admin/users', { username: 'sneaky', password: 'abc' }],
      ['PATCH', `/admin/users/${id}`, { grade: 100 }],
      ['DELETE', `/admin/users/${id}`, undefined],
    ];
    for (const [method, path, body] of routes) {
      const before = await accountState(t.dbh.db);
      const anon = await call(method, path, body);
      expect(anon.statusCode).toBe(401);
      expect(anon.json()).toEqual({ success: false, message: '请先登录' });
      const dept = await call(method, path, body, deptCookie);
      expect(dept.statusCode).toBe(403);
      expect(dept.json()).toEqual({ success: false, message: '权限不足' });
      expect(await accountState(t.dbh.db)).toEqual(before);
    }
  });

  it('logs every change, successful or refused, without any password', async () => {
    const entries = await operationLogs(t.dbh.db);
    const mine = entries.filter((e) => e.target_type === 'user' && e.operation_type !== 'login');
    expect(mine.some((e) => e.outcome === 'failure' && e.error_message === '用户名和密码均不能为空')).toBe(true);
    const succeeded = mine.filter((e) => e.outcome === 'success');
    expect(new Set(succeeded.map((e) => e.operator_username))).toEqual(new Set(['admin', 'city']));
    expect(new Set(succeeded.map((e) => e.operation_type))).toEqual(new Set(['create', 'update', 'delete']));
    expect(await logsContainNone(t.dbh.db, ['Gaj-Pass-12345', 'Level-Pass-1', 'Form-Pass-1', ' pass word ', 'New-Dept-Pass-9'])).toBe(true);
  });
});
