import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { createDepartment, createRegion, createUser } from '../../../test/helpers/fixtures.js';
import { buildTestApp, cookieOf, type TestApp } from '../../../test/helpers/test-app.js';
import { accountState, caller, logsContainNone, operationLogs } from '../users/users.test-helpers.js';

describe.each(testDialects())('service departments (4.4) on %s', (dialect) => {
  let t: TestApp;
  let call: ReturnType<typeof caller>;
  let admin = '';
  let deptCookie = '';
  let regionId = 0;
  let otherRegion = 0;
  const ids: Record<string, string> = {};

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    call = caller(t);
    regionId = await createRegion(t.dbh.db, '广安区', '511602');
    otherRegion = await createRegion(t.dbh.db, '前锋区', '511603');
    const own = await createDepartment(t.dbh.db, { name: '区司法局', code: 'SFJ', region_id: regionId });
    await createUser(t.dbh.db, { username: 'sfj', password: 'Dept-Pass-123', department_id: own, grade: 50 });
    admin = await t.login();
    deptCookie = await t.login('sfj', 'Dept-Pass-123');
  });
  afterAll(async () => t?.close());

  async function refused(status: number, method: 'POST' | 'PATCH' | 'DELETE', path: string, payload?: unknown) {
    const before = await accountState(t.dbh.db);
    const res = await call(method, path, payload, admin);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().success).toBe(false);
    expect(await accountState(t.dbh.db)).toEqual(before);
    return res.json();
  }

  it('creates a department and its administrator account with the default password', async () => {
    const res = await call(
      'POST',
      '/admin/service-departments',
      { name: '广安市住建局', code: ' gazjj ', phone: '0826-2222222', region_id: String(regionId), description: '市级', grade: 90 },
      admin,
    );
    expect(res.statusCode, res.body).toBe(200);
    const { department, user, default_password } = res.json().data;
    ids.city = department.id;
    expect(department).toMatchObject({
      name: '广安市住建局',
      code: 'GAZJJ',
      phone: '0826-2222222',
      parent_id: null,
      region_id: String(regionId),
      description: '市级',
      grade: 90,
      unit_level: 'unit',
    });
    expect(user).toMatchObject({
      username: 'gazjj',
      display_name: '广安市住建局管理员',
      role: 'department_admin',
      grade: 90,
      department_role: 'admin',
      service_department_id: department.id,
      must_change_password: true,
      is_active: true,
    });
    expect(default_password).toBe('GAZJJ123456');
    const entry = (await operationLogs(t.dbh.db)).at(-1)!;
    expect(entry).toMatchObject({ operation_type: 'create', target_type: 'service_department', target_id: department.id, outcome: 'success' });
    expect(entry.summary).toBe('创建服务部门 广安市住建局（编码 GAZJJ），并创建部门账号 gazjj');
    expect(await logsContainNone(t.dbh.db, ['GAZJJ123456'])).toBe(true);
  });

  it('makes the department account change its default password before anything else', async () => {
    const login = await call('POST', '/auth/login', { username: 'gazjj', password: 'GAZJJ123456' });
    expect(login.statusCode).toBe(200);
    expect(login.json().data.user.must_change_password).toBe(true);
    const cookie = cookieOf(login);
    expect((await call('GET', '/auth/me', undefined, cookie)).json().data.user.must_change_password).toBe(true);
    for (const [method, path, body] of [
      ['GET', '/admin/users', undefined],
      ['GET', '/admin/service-departments/tree', undefined],
      ['POST', '/admin/permits/filter', {}],
    ] as const) {
      const refused = await call(method, path, body, cookie);
      expect(refused.statusCode).toBe(403);
      expect(refused.json()).toEqual({ success: false, message: '请先修改初始密码', code: 'MUST_CHANGE_PASSWORD' });
    }
    const changed = await call('POST', '/auth/password', { old_password: 'GAZJJ123456', new_password: 'Gazjj-Own-Pass-1' }, cookie);
    expect(changed.statusCode, changed.body).toBe(200);
    expect((await call('GET', '/auth/me', undefined, cookie)).json().data.user.must_change_password).toBe(false);
    expect((await call('GET', '/admin/users', undefined, cookie)).statusCode).toBe(200);
    expect((await call('POST', '/auth/login', { username: 'gazjj', password: 'GAZJJ123456' })).statusCode).toBe(401);
  });

  it('generates an 8-character hexadecimal code when none is given; grade defaults to 0', async () => {
    const res = await call('POST', '/admin/service-departments', { name: '区交通局', parent_id: ids.city }, admin);
    expect(res.statusCode, res.body).toBe(200);
    const { department, user, default_password } = res.json().data;
    ids.child = department.id;
    expect(department.code).toMatch(/^[0-9A-F]{8}$/);
    expect(department).toMatchObject({ parent_id: ids.city, region_id: String(regionId), grade: 0 });
    expect(user).toMatchObject({ username: department.code.toLowerCase(), grade: 0, display_name: '区交通局管理员' });
    expect(default_password).toBe(`${department.code}123456`);
    expect((await call('POST', '/auth/login', { username: user.username, password: default_password })).statusCode).toBe(200);

    for (const [grade, expected] of [
      ['abc', 0],
      ['70', 70],
      [null, 0],
      [2.5, 0],
    ] as const) {
      const name = `等级测试${String(grade)}`;
      const r = await call('POST', '/admin/service-departments', { name, grade }, admin);
      expect(r.statusCode, r.body).toBe(200);
      expect(r.json().data.department.grade).toBe(expected);
      expect(r.json().data.user.grade).toBe(expected);
    }
  });

  it('refuses a blank name, a taken code or name and bad values, creating nothing', async () => {
    expect((await refused(400, 'POST', '/admin/service-departments', { name: '  ', code: 'X1' })).message).toBe('服务部门名称不能为空');
    expect((await refused(400, 'POST', '/admin/service-departments', { code: 'X1' })).message).toBe('服务部门名称不能为空');
    expect((await refused(400, 'POST', '/admin/service-departments', { name: '新部门', code: 'gazjj' })).message).toBe('部门编码 GAZJJ 已存在');
    expect((await refused(400, 'POST', '/admin/service-departments', { name: '广安市住建局', code: 'NEW1' })).message).toBe('服务部门名称 广安市住建局 已存在');
    expect((await refused(400, 'POST', '/admin/service-departments', { name: '新部门', parent_id: '9999' })).message).toBe('上级部门不存在');
    expect((await refused(400, 'POST', '/admin/service-departments', { name: '新部门', region_id: '火星' })).message).toContain('区域不存在');
    expect((await refused(400, 'POST', '/admin/service-departments', { name: '新部门', grade: 101 })).message).toBe('权限等级必须在 0 到 100 之间');
    expect((await refused(400, 'POST', '/admin/service-departments', { name: '新部门', manager: 'x' })).message).toContain('manager');
    expect((await refused(400, 'POST', '/admin/service-departments', { name: '名'.repeat(101) })).message).toContain('name');
    expect((await refused(413, 'POST', '/admin/service-departments', { name: '名'.repeat(300_000) })).message).toBe('请求体过大');
    expect((await refused(400, 'POST', '/admin/service-departments', { name: ['a'] })).message).toContain('name');
  });

  it("keeps the department when its account is refused, with the interface's message", async () => {
    const before = await accountState(t.dbh.db);
    const res = await call('POST', '/admin/service-departments', { name: '管理部', code: 'Admin' }, admin);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('部门创建成功,但账号创建失败：用户名 admin 已存在');
    expect(res.json().data.department).toMatchObject({ name: '管理部', code: 'ADMIN' });
    const after = await accountState(t.dbh.db);
    expect(after.users).toEqual(before.users);
    expect(after.departments.map((d) => d.code)).toContain('ADMIN');
    const spaced = await call('POST', '/admin/service-departments', { name: '空格部', code: 'a b' }, admin);
    expect(spaced.json().message).toMatch(/^部门创建成功,但账号创建失败：用户名须为/);
    expect((await operationLogs(t.dbh.db)).at(-1)).toMatchObject({ operation_type: 'create', outcome: 'failure', summary: '创建服务部门 空格部（编码 A B）' });
  });

  it('lists the departments flat, as a tree with depth, and the children of one', async () => {
    const flat = (await call('GET', '/admin/service-departments', undefined, admin)).json().data.departments;
    expect(flat.find((d: { id: string }) => d.id === ids.child)).toMatchObject({ depth: 2, parent_id: ids.city });
    await call('POST', '/admin/service-departments', { name: '区城管局', code: 'CGJ', parent_id: ids.city, region_id: '511603' }, admin);
    await call('POST', '/admin/service-departments', { name: '街道办', code: 'JDB', parent_id: ids.child }, admin);
    const tree = (await call('GET', '/admin/service-departments/tree', undefined, admin)).json().data.tree;
    const city = tree.find((n: { id: string }) => n.id === ids.city);
    expect(city.depth).toBe(1);
    expect(city.children.map((c: { name: string; depth: number }) => [c.name, c.depth])).toEqual([
      ['区交通局', 2],
      ['区城管局', 2],
    ]);
    expect(city.children[0].children).toMatchObject([{ name: '街道办', depth: 3, children: [] }]);
    const names = tree.map((n: { name: string }) => n.name);
    expect(names).toEqual([...names].sort());

    const units = await call('GET', `/admin/departments/children?parent_id=${ids.city}`, undefined, admin);
    expect(units.json().data.units).toEqual([
      { id: ids.child, name: '区交通局', code: expect.any(String), unit_level: 'unit', region_id: String(regionId) },
      { id: expect.any(String), name: '区城管局', code: 'CGJ', unit_level: 'unit', region_id: String(otherRegion) },
    ]);
    const lonely = await createDepartment(t.dbh.db, { name: '无区域', code: 'WQY', parent_id: Number(ids.city) });
    const withNull = (await call('GET', `/admin/departments/children?parent_id=${ids.city}`, undefined, admin)).json().data.units;
    expect(withNull.find((u: { id: string }) => u.id === String(lonely)).region_id).toBeNull();
    for (const q of ['', '?parent_id=', '?parent_id=%20']) {
      const blank = await call('GET', `/admin/departments/children${q}`, undefined, admin);
      expect(blank.statusCode).toBe(400);
      expect(blank.json()).toEqual({ success: false, message: 'parent_id 不能为空' });
    }
    expect((await call('GET', '/admin/departments/children?parent_id=abc', undefined, admin)).json().data.units).toEqual([]);
  });

  it('updates a department with the message of what changed', async () => {
    const path = `/admin/service-departments/${ids.child}`;
    const moved = await call('PATCH', path, { parent_id: '', grade: 80 }, admin);
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().data).toMatchObject({ message: '层级关系已更新', department: { parent_id: null, grade: 80 } });
    const graded = await call('PATCH', path, { grade: '75' }, admin);
    expect(graded.json().data).toMatchObject({ message: '权限等级已更新为75', department: { grade: 75 } });
    const info = await call('PATCH', path, { description: '交通运输', phone: ' ', grade: 75, region_id: '前锋区' }, admin);
    expect(info.json().data).toMatchObject({ message: '部门信息已更新', department: { description: '交通运输', phone: null, region_id: String(otherRegion) } });
    const back = await call('PATCH', path, { parent_id: ids.city, description: '' }, admin);
    expect(back.json().data).toMatchObject({ message: '层级关系已更新', department: { parent_id: ids.city, description: null } });
    expect((await operationLogs(t.dbh.db)).at(-1)!.summary).toBe('修改服务部门 区交通局：层级关系已更新');
  });

  it('refuses bad updates, including a cycle, and changes nothing', async () => {
    const path = `/admin/service-departments/${ids.city}`;
    expect((await refused(400, 'PATCH', path, { parent_id: ids.city })).message).toBe('部门不能设置为自己的下级');
    expect((await refused(400, 'PATCH', path, { parent_id: ids.child })).message).toBe('部门不能设置为自己下级部门的下级（会形成循环）');
    const grandchild = (await call('GET', `/admin/departments/children?parent_id=${ids.child}`, undefined, admin)).json().data.units[0].id;
    expect((await refused(400, 'PATCH', path, { parent_id: grandchild })).message).toBe('部门不能设置为自己下级部门的下级（会形成循环）');
    expect((await refused(400, 'PATCH', path, { grade: 'abc' })).message).toBe('权限等级必须是数字');
    expect((await refused(400, 'PATCH', path, { grade: 120 })).message).toBe('权限等级必须在 0 到 100 之间');
    expect((await refused(400, 'PATCH', path, {})).message).toBe('没有需要更新的字段');
    expect((await refused(400, 'PATCH', path, { name: '' })).message).toBe('服务部门名称不能为空');
    expect((await refused(400, 'PATCH', path, { name: '区交通局' })).message).toBe('服务部门名称 区交通局 已存在');
    expect((await refused(400, 'PATCH', path, { parent_id: '8888' })).message).toBe('上级部门不存在');
    expect((await refused(400, 'PATCH', path, { code: 'NEW' })).message).toContain('code');
    expect((await refused(404, 'PATCH', '/admin/service-departments/8888', { grade: 1 })).message).toBe('服务部门不存在');
    expect((await refused(404, 'PATCH', '/admin/service-departments/abc', { grade: 1 })).message).toBe('服务部门不存在');
  });

  it('deletes: refused with children or bound accounts, forced deletion unbinds first', async () => {
    expect((await refused(400, 'DELETE', '/admin/service-departments/8888')).message).toBe('服务部门不存在');
    expect((await refused(400, 'DELETE', '/admin/service-departments/abc')).message).toBe('服务部门不存在');
    expect((await refused(400, 'DELETE', `/admin/service-departments/${ids.city}?force=true`)).message).toContain('下级部门');
    const cgj = (await t.dbh.db.selectFrom('service_departments').select('id').where('code', '=', 'CGJ').executeTakeFirstOrThrow()).id;
    await t.dbh.db.insertInto('approval_departments').values({ name: '区城管局', service_department_id: cgj }).execute();
    const bound = await refused(400, 'DELETE', `/admin/service-departments/${cgj}`);
    expect(bound).toEqual({ success: false, message: expect.stringContaining('1 个账号'), code: 'HAS_BOUND_USERS' });
    expect((await refused(400, 'DELETE', `/admin/service-departments/${cgj}?force=no`)).code).toBe('HAS_BOUND_USERS');

    const res = await call('DELETE', `/admin/service-departments/${cgj}?force=1`, undefined, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ success: true, message: '部门删除成功', data: { deleted: true, unbound_users: 1, department: { code: 'CGJ' } } });
    const cgjUser = await t.dbh.db.selectFrom('users').selectAll().where('username', '=', 'cgj').executeTakeFirstOrThrow();
    expect(cgjUser.service_department_id).toBeNull();
    const link = await t.dbh.db.selectFrom('approval_departments').selectAll().where('name', '=', '区城管局').executeTakeFirstOrThrow();
    expect(link.service_department_id).toBeNull();
    expect((await operationLogs(t.dbh.db)).at(-1)!.summary).toBe('强制删除服务部门 区城管局，解除 1 个账号的绑定');

    const empty = await createDepartment(t.dbh.db, { name: '空部门', code: 'EMPTY' });
    const plain = await call('DELETE', `/admin/service-departments/${empty}`, undefined, admin);
    expect(plain.json()).toMatchObject({ success: true, message: '部门删除成功', data: { deleted: true, unbound_users: 0 } });
  });

  it('answers 401 anonymous and 403 below the admin level on every department route', async () => {
    const routes: Array<['GET' | 'POST' | 'PATCH' | 'DELETE', string, unknown]> = [
      ['GET', '/admin/service-departments', undefined],
      ['GET', '/admin/service-departments/tree', undefined],
      ['GET', `/admin/departments/children?parent_id=${ids.city}`, undefined],
      ['POST', '/admin/service-departments', { name: '越权部门' }],
      ['PATCH', `/admin/service-departments/${ids.city}`, { grade: 100 }],
      ['DELETE', `/admin/service-departments/${ids.city}?force=true`, undefined],
    ];
    for (const [method, path, body] of routes) {
      const before = await accountState(t.dbh.db);
      expect((await call(method, path, body)).json()).toEqual({ success: false, message: '请先登录' });
      const dept = await call(method, path, body, deptCookie);
      expect(dept.statusCode).toBe(403);
      expect(dept.json()).toEqual({ success: false, message: '权限不足' });
      expect(await accountState(t.dbh.db)).toEqual(before);
    }
  });

  it('never writes a default password into the operation log', async () => {
    const codes = (await t.dbh.db.selectFrom('service_departments').select('code').execute()).map((d) => `${d.code}123456`);
    expect(await logsContainNone(t.dbh.db, codes)).toBe(true);
    const kinds = (await operationLogs(t.dbh.db)).filter((e) => e.target_type === 'service_department' && e.outcome === 'success');
    expect(new Set(kinds.map((e) => e.operation_type))).toEqual(new Set(['create', 'update', 'delete']));
  });
});
