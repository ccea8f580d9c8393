import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { createDepartment, createRegion, createUser } from '../../../test/helpers/fixtures.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { accountState, caller } from '../users/users.test-helpers.js';

/**
 * The privilege ceiling (docs/accounts.md): actor (super administrator, a grade-90 account, a
 * grade-50 account) × action (create, change and delete a user; create, change and force-delete
 * a department) × target. Every refusal is 403 权限不足 with every account table as it was; every
 * allowed change is really made.
 */

type Actor = 'admin' | 'city' | 'district';
type Method = 'POST' | 'PATCH' | 'DELETE';

interface Row {
  actor: Actor;
  what: string;
  method: Method;
  /** The path, once the world's ids are known. */
  path: () => string;
  body?: Record<string, unknown>;
  status: number;
  /** What the database holds after an allowed change. */
  after?: () => Promise<void>;
}

const PASSWORD = 'Ceiling-Pass-1234';

describe.each(testDialects())('the privilege ceiling on %s', (dialect) => {
  let t: TestApp;
  let call: ReturnType<typeof caller>;
  const cookies = {} as Record<Actor, string>;
  const ids: Record<string, number> = {};
  let n = 0;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { LOGIN_RATE_LIMIT: '0' } });
    call = caller(t);
    const db = t.dbh.db;
    const region = await createRegion(db, '广安区', '511602');
    ids.cityDept = await createDepartment(db, { name: '市政务中心', code: 'SZWZX', region_id: region, grade: 90 });
    ids.d80 = await createDepartment(db, { name: '区住建局', code: 'QZJJ', region_id: region, grade: 80 });
    ids.adminDept = await createDepartment(db, { name: '信息中心', code: 'XXZX', region_id: region, grade: 100 });
    ids.city = await createUser(db, { username: 'city', password: PASSWORD, grade: 90, department_id: ids.cityDept });
    ids.district = await createUser(db, { username: 'district', password: PASSWORD, grade: 50, department_id: ids.d80 });
    ids.admin2 = await createUser(db, { username: 'admin2', password: PASSWORD, role: 'admin', grade: 100, department_id: ids.adminDept });
    ids.senior = await createUser(db, { username: 'senior', password: PASSWORD, grade: 95 });
    ids.officer = await createUser(db, { username: 'officer', password: PASSWORD, grade: 80 });
    ids.junior = await createUser(db, { username: 'junior', password: PASSWORD, grade: 60 });
    ids.admin = Number((await db.selectFrom('users').select('id').where('username', '=', 'admin').executeTakeFirstOrThrow()).id);
    cookies.admin = await t.login();
    cookies.city = await t.login('city', PASSWORD);
    cookies.district = await t.login('district', PASSWORD);
  });
  afterAll(async () => t?.close());

  const user = (id: number) => t.dbh.db.selectFrom('users').select(['role', 'grade', 'display_name']).where('id', '=', id).executeTakeFirst();
  const dept = (id: number) => t.dbh.db.selectFrom('service_departments').select(['grade', 'name']).where('id', '=', id).executeTakeFirst();
  /** A user creation: refused, or made with the role and grade given. */
  const creates = (actor: Actor, what: string, extra: Record<string, unknown>, status: number, made?: { role: string; grade: number }): Row => {
    const body = { username: `new-${++n}`, password: PASSWORD, ...extra };
    const stored = () => t.dbh.db.selectFrom('users').select(['role', 'grade']).where('username', '=', body.username).executeTakeFirst();
    return { actor, what, method: 'POST', path: () => '/admin/users', body, status, after: async () => expect(await stored()).toEqual(made) };
  };

  const rows: Row[] = [
    // Creating users: never a role or grade above the actor's own.
    creates('admin', 'creates a super administrator', { role: 'admin', grade: 100 }, 200, { role: 'admin', grade: 100 }),
    creates('city', 'creates a super administrator', { role: 'admin', grade: 100 }, 403),
    creates('city', 'creates role admin at its own grade', { role: 'admin', grade: 90 }, 403),
    creates('city', 'creates grade 100', { grade: 100 }, 403),
    creates('city', 'creates grade 91', { grade: 91 }, 403),
    creates('city', 'creates grade 90', { grade: 90 }, 200, { role: 'department_admin', grade: 90 }),
    creates('city', 'creates the default grade', {}, 200, { role: 'department_admin', grade: 50 }),
    creates('district', 'creates grade 10', { grade: 10 }, 403),

    // Changing users: a super administrator's account only by a super administrator, none above the actor's grade.
    {
      actor: 'city',
      what: "sets the super administrator's password",
      method: 'PATCH',
      path: () => `/admin/users/${ids.admin}`,
      body: { password: 'Taken-Over-1234' },
      status: 403,
    },
    {
      actor: 'city',
      what: 'renames another super administrator',
      method: 'PATCH',
      path: () => `/admin/users/${ids.admin2}`,
      body: { display_name: '改名' },
      status: 403,
    },
    {
      actor: 'city',
      what: 'deactivates another super administrator',
      method: 'PATCH',
      path: () => `/admin/users/${ids.admin2}`,
      body: { is_active: false },
      status: 403,
    },
    {
      actor: 'city',
      what: 'renames a grade-95 account',
      method: 'PATCH',
      path: () => `/admin/users/${ids.senior}`,
      body: { display_name: '改名' },
      status: 403,
    },
    { actor: 'city', what: 'raises a grade-80 account to 95', method: 'PATCH', path: () => `/admin/users/${ids.officer}`, body: { grade: 95 }, status: 403 },
    {
      actor: 'city',
      what: 'makes a grade-80 account a super administrator',
      method: 'PATCH',
      path: () => `/admin/users/${ids.officer}`,
      body: { role: 'admin' },
      status: 403,
    },
    {
      actor: 'city',
      what: 'raises a grade-80 account to 90 and renames it',
      method: 'PATCH',
      path: () => `/admin/users/${ids.officer}`,
      body: { grade: 90, display_name: '科长' },
      status: 200,
      after: async () => expect(await user(ids.officer)).toEqual({ role: 'department_admin', grade: 90, display_name: '科长' }),
    },
    { actor: 'city', what: 'raises its own grade', method: 'PATCH', path: () => `/admin/users/${ids.city}`, body: { grade: 100 }, status: 403 },
    {
      actor: 'city',
      what: 'makes itself a super administrator',
      method: 'PATCH',
      path: () => `/admin/users/${ids.city}`,
      body: { role: 'admin' },
      status: 403,
    },
    { actor: 'city', what: 'lowers its own grade', method: 'PATCH', path: () => `/admin/users/${ids.city}`, body: { grade: 80 }, status: 403 },
    {
      actor: 'city',
      what: 'renames itself, giving its own grade again',
      method: 'PATCH',
      path: () => `/admin/users/${ids.city}`,
      body: { grade: 90, display_name: '市级' },
      status: 200,
      after: async () => expect(await user(ids.city)).toEqual({ role: 'department_admin', grade: 90, display_name: '市级' }),
    },
    { actor: 'admin', what: 'lowers its own grade', method: 'PATCH', path: () => `/admin/users/${ids.admin}`, body: { grade: 90 }, status: 403 },
    {
      actor: 'admin',
      what: 'gives up its own role',
      method: 'PATCH',
      path: () => `/admin/users/${ids.admin}`,
      body: { role: 'department_admin' },
      status: 403,
    },
    {
      actor: 'admin',
      what: 'makes a grade-60 account a super administrator',
      method: 'PATCH',
      path: () => `/admin/users/${ids.junior}`,
      body: { role: 'admin', grade: 100 },
      status: 200,
      after: async () => expect(await user(ids.junior)).toMatchObject({ role: 'admin', grade: 100 }),
    },
    {
      actor: 'district',
      what: 'renames a grade-50 account',
      method: 'PATCH',
      path: () => `/admin/users/${ids.district}`,
      body: { display_name: '改名' },
      status: 403,
    },

    // Deleting users.
    { actor: 'city', what: 'deletes a super administrator', method: 'DELETE', path: () => `/admin/users/${ids.admin2}`, status: 403 },
    { actor: 'city', what: 'deletes a grade-95 account', method: 'DELETE', path: () => `/admin/users/${ids.senior}`, status: 403 },
    { actor: 'district', what: 'deletes a grade-90 account', method: 'DELETE', path: () => `/admin/users/${ids.officer}`, status: 403 },
    {
      actor: 'city',
      what: 'deletes a grade-90 account',
      method: 'DELETE',
      path: () => `/admin/users/${ids.officer}`,
      status: 200,
      after: async () => expect(await user(ids.officer)).toBeUndefined(),
    },
    {
      actor: 'admin',
      what: 'deletes a grade-95 account',
      method: 'DELETE',
      path: () => `/admin/users/${ids.senior}`,
      status: 200,
      after: async () => expect(await user(ids.senior)).toBeUndefined(),
    },

    // Departments: their account takes the department's grade.
    {
      actor: 'city',
      what: 'creates a grade-95 department',
      method: 'POST',
      path: () => '/admin/service-departments',
      body: { name: '高级部门', code: 'GJBM', grade: 95 },
      status: 403,
    },
    {
      actor: 'district',
      what: 'creates a grade-0 department',
      method: 'POST',
      path: () => '/admin/service-departments',
      body: { name: '区级部门', code: 'QJBM' },
      status: 403,
    },
    {
      actor: 'city',
      what: 'creates a grade-90 department',
      method: 'POST',
      path: () => '/admin/service-departments',
      body: { name: '市级部门', code: 'SJBM', grade: 90 },
      status: 200,
      after: async () => {
        const account = await t.dbh.db.selectFrom('users').select(['role', 'grade']).where('username', '=', 'sjbm').executeTakeFirst();
        expect(account).toEqual({ role: 'department_admin', grade: 90 });
      },
    },
    {
      actor: 'admin',
      what: 'creates a grade-100 department',
      method: 'POST',
      path: () => '/admin/service-departments',
      body: { name: '顶级部门', code: 'DJBM', grade: 100 },
      status: 200,
      after: async () =>
        expect((await t.dbh.db.selectFrom('service_departments').select('grade').where('code', '=', 'DJBM').executeTakeFirst())?.grade).toBe(100),
    },
    {
      actor: 'city',
      what: 'raises a department to grade 95',
      method: 'PATCH',
      path: () => `/admin/service-departments/${ids.d80}`,
      body: { grade: 95 },
      status: 403,
    },
    {
      actor: 'district',
      what: 'renames a department',
      method: 'PATCH',
      path: () => `/admin/service-departments/${ids.d80}`,
      body: { name: '改名局' },
      status: 403,
    },
    {
      actor: 'city',
      what: 'raises a department to grade 85 and renames it',
      method: 'PATCH',
      path: () => `/admin/service-departments/${ids.d80}`,
      body: { grade: 85, name: '区建设局' },
      status: 200,
      after: async () => expect(await dept(ids.d80)).toEqual({ grade: 85, name: '区建设局' }),
    },
    {
      actor: 'city',
      what: 'force-deletes the department of a super administrator (unbinding it)',
      method: 'DELETE',
      path: () => `/admin/service-departments/${ids.adminDept}?force=true`,
      status: 403,
    },
    {
      actor: 'admin',
      what: 'force-deletes the department of a super administrator',
      method: 'DELETE',
      path: () => `/admin/service-departments/${ids.adminDept}?force=true`,
      status: 200,
      after: async () => expect(await dept(ids.adminDept)).toBeUndefined(),
    },
  ];

  it.each(rows.map((r) => [`${r.actor} ${r.what}`, r] as const))('%s', async (_name, row) => {
    const before = await accountState(t.dbh.db);
    const res = await call(row.method, row.path(), row.body, cookies[row.actor]);
    expect(res.statusCode, res.body).toBe(row.status);
    if (row.status === 403) {
      expect(res.json()).toEqual({ success: false, message: '权限不足' });
      expect(await accountState(t.dbh.db)).toEqual(before);
    } else {
      expect(res.json().success).toBe(true);
      await row.after?.();
    }
  });

  it("keeps refusing to delete, demote or deactivate the last active super administrator: 403 to others, the interface's 400 to itself", async () => {
    // Every other super administrator goes first: junior, admin2 and the one created above.
    const others = await t.dbh.db.selectFrom('users').select('id').where('role', '=', 'admin').where('username', '!=', 'admin').execute();
    expect(others).toHaveLength(3);
    for (const other of others) expect((await call('DELETE', `/admin/users/${other.id}`, undefined, cookies.admin)).statusCode).toBe(200);
    const before = await accountState(t.dbh.db);
    const refusals = [
      await call('DELETE', `/admin/users/${ids.admin}`, undefined, cookies.city),
      await call('PATCH', `/admin/users/${ids.admin}`, { role: 'department_admin' }, cookies.city),
      await call('PATCH', `/admin/users/${ids.admin}`, { is_active: false }, cookies.city),
      await call('PATCH', `/admin/users/${ids.admin}`, { role: 'department_admin' }, cookies.admin),
      await call('DELETE', `/admin/users/${ids.admin}`, undefined, cookies.admin),
    ];
    expect(refusals.map((r) => [r.statusCode, r.json().message])).toEqual([
      [403, '权限不足'],
      [403, '权限不足'],
      [403, '权限不足'],
      [400, '不能降级最后一个启用的超级管理员账号'],
      [400, '不能删除当前登录的账号'],
    ]);
    expect(await accountState(t.dbh.db)).toEqual(before);
  });
});
