import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Executor } from '../../db/database.js';
import { nowIso } from '../../db/dialect.js';
import { testDialects } from '../../../test/helpers/databases.js';
import { createDepartment, createRegion, createUser } from '../../../test/helpers/fixtures.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { caller, rawCaller } from '../users/users.test-helpers.js';
import { permitRow } from '../../../test/helpers/permit-row.js';

/** One permit with its approval departments (created on first use, optionally linked to a service department). */
async function addPermit(db: Executor, regionId: number, name: string, approvals: Array<[string, number | null]>): Promise<number> {
  const now = nowIso();
  const { id } = await db
    .insertInto('permits')
    .values(permitRow(regionId, null, name, { implementation_level: '县级', created_at: now, updated_at: now }))
    .returning('id')
    .executeTakeFirstOrThrow();
  for (const [position, [approval, linked]] of approvals.entries()) {
    const found = await db.selectFrom('approval_departments').select('id').where('name', '=', approval).executeTakeFirst();
    const a =
      found ??
      (await db.insertInto('approval_departments').values({ name: approval, service_department_id: linked }).returning('id').executeTakeFirstOrThrow());
    await db.insertInto('permit_approval_departments').values({ permit_id: id, approval_department_id: a.id, position }).execute();
  }
  return id;
}

describe.each(testDialects())('POST /admin/permits/filter on %s', (dialect) => {
  let t: TestApp;
  let call: ReturnType<typeof caller>;
  let admin = '';
  let deptCookie = '';
  let noRegionCookie = '';
  const r: Record<string, number> = {};
  const d: Record<string, number> = {};
  const p: Record<string, string> = {};

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    call = caller(t);
    const db = t.dbh.db;
    r.ga = await createRegion(db, '广安区', '511602');
    r.qf = await createRegion(db, '前锋区', '511603');
    d.city = await createDepartment(db, { name: '市住建局', code: 'SZJJ' });
    d.zjj = await createDepartment(db, { name: '区住建局', code: 'ZJJ', region_id: r.ga, parent_id: d.city });
    d.none = await createDepartment(db, { name: '无区域部门', code: 'NONE' });
    p.build = String(await addPermit(db, r.ga, '建筑工程施工许可', [['区住建局', null]]));
    p.gas = String(
      await addPermit(db, r.ga, '燃气经营许可', [
        ['区住建局燃气科', null],
        ['区应急局', null],
      ]),
    );
    p.qual = String(await addPermit(db, r.qf, '建筑业企业资质核准', [['广安市住房和城乡建设局', d.city]]));
    p.school = String(await addPermit(db, r.qf, '民办学校办学许可', [['区教育局', null]]));
    p.odd = String(await addPermit(db, r.ga, '100%_特殊名称', []));
    await createUser(db, { username: 'zjj', password: 'Dept-Pass-123', department_id: d.zjj, grade: 50 });
    await createUser(db, { username: 'none', password: 'None-Pass-123', department_id: d.none, grade: 50 });
    admin = await t.login();
    deptCookie = await t.login('zjj', 'Dept-Pass-123');
    noRegionCookie = await t.login('none', 'None-Pass-123');
  });
  afterAll(async () => t?.close());

  const filter = async (body: unknown, cookie = admin) => {
    const res = await call('POST', '/admin/permits/filter', body, cookie);
    expect(res.statusCode, res.body).toBe(200);
    const data = res.json().data;
    expect(data.pagination).toEqual({ total: data.permits.length, page: 1, page_size: data.permits.length });
    return (data.permits as Array<{ id: string }>).map((x) => x.id).sort();
  };
  const ids = (...keys: string[]) => keys.map((k) => p[k]).sort();

  it('returns every permit in the shared payload shape when nothing is filtered', async () => {
    const res = await call('POST', '/admin/permits/filter', {}, admin);
    expect(res.statusCode).toBe(200);
    const { permits, pagination } = res.json().data;
    expect(pagination).toEqual({ total: 5, page: 1, page_size: 5 });
    expect(permits.find((x: { id: string }) => x.id === p.gas)).toMatchObject({
      name: '燃气经营许可',
      region_id: String(r.ga),
      region_name: '广安区',
      approval_departments: ['区住建局燃气科', '区应急局'],
      themes: [],
      theme: null,
      implementation_level: '县级',
    });
    const empty = await t.app.inject({ method: 'POST', url: '/app/api/workflow/lawrisk/admin/permits/filter', headers: { cookie: admin } });
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json().data.pagination.total).toBe(5);
  });

  it('filters by service department: linked approval departments, or names equal to or starting with its name', async () => {
    expect(await filter({ district_dept_id: String(d.zjj) })).toEqual(ids('build', 'gas'));
    expect(await filter({ municipal_dept_id: d.city })).toEqual(ids('qual'));
    // The district department is the narrower choice and wins over the municipal one.
    expect(await filter({ municipal_dept_id: String(d.city), district_dept_id: String(d.zjj) })).toEqual(ids('build', 'gas'));
    expect(await filter({ municipal_dept_id: '99999' })).toEqual([]);
    expect(await filter({ district_dept_id: 'abc' })).toEqual([]);
  });

  it('filters by region (id, code or name) and by permit name, with wildcards taken literally', async () => {
    expect(await filter({ region: '前锋区' })).toEqual(ids('qual', 'school'));
    expect(await filter({ region: '511603' })).toEqual(ids('qual', 'school'));
    expect(await filter({ region: r.ga })).toEqual(ids('build', 'gas', 'odd'));
    expect(await filter({ region: '火星' })).toEqual([]);
    expect(await filter({ search_text: '许可' })).toEqual(ids('build', 'gas', 'school'));
    expect(await filter({ search_text: '建筑', region: '广安区' })).toEqual(ids('build'));
    expect(await filter({ search_text: '%' })).toEqual(ids('odd'));
    expect(await filter({ search_text: '_' })).toEqual(ids('odd'));
    expect(await filter({ search_text: '  ' })).toHaveLength(5);
    expect(await filter({ search_text: '建筑', district_dept_id: String(d.zjj) })).toEqual(ids('build'));
  });

  it('reads a form body as well', async () => {
    const res = await rawCaller(t)(
      'POST',
      '/admin/permits/filter',
      `region=${encodeURIComponent('前锋区')}&search_text=%E5%AD%A6`,
      'application/x-www-form-urlencoded',
      admin,
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.permits.map((x: { id: string }) => x.id)).toEqual([p.school]);
  });

  it("applies the caller's data scope: below grade 90 only its own region", async () => {
    expect(await filter({}, deptCookie)).toEqual(ids('build', 'gas', 'odd'));
    expect(await filter({ region: '前锋区' }, deptCookie)).toEqual([]);
    expect(await filter({ municipal_dept_id: String(d.city) }, deptCookie)).toEqual([]);
    expect(await filter({}, noRegionCookie)).toEqual([]);
  });

  it('answers 401 anonymous and a clear 400 for malformed input', async () => {
    const anon = await call('POST', '/admin/permits/filter', {});
    expect(anon.statusCode).toBe(401);
    expect(anon.json()).toEqual({ success: false, message: '请先登录' });
    const bad = async (body: unknown, fragment: string) => {
      const res = await call('POST', '/admin/permits/filter', body, admin);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().success).toBe(false);
      expect(res.json().message).toContain(fragment);
    };
    await bad({ search_text: 'x'.repeat(201) }, 'search_text');
    const huge = await call('POST', '/admin/permits/filter', { search_text: 'x'.repeat(1_000_000) }, admin);
    expect([huge.statusCode, huge.json()]).toEqual([413, { success: false, message: '请求体过大' }]);
    await bad({ region: ['a', 'b'] }, 'region');
    await bad({ theme: 'x' }, 'theme');
    const malformed = await rawCaller(t)('POST', '/admin/permits/filter', '{"region":', 'application/json', admin);
    expect(malformed.statusCode).toBe(400);
    expect(malformed.json()).toEqual({ success: false, message: '请求体不是有效的 JSON' });
  });
});

/**
 * The department filter (a service department) and the advanced filter (approval department
 * names) share one condition (permit-filter.query.ts): an approval department named like the
 * value or starting with it, case-insensitively on both databases. Before, the department
 * filter used a bare LIKE, which ignores ASCII case on SQLite but not on PostgreSQL.
 */
describe.each(testDialects())('both permit filters match approval departments alike on %s', (dialect) => {
  let t: TestApp;
  let call: ReturnType<typeof caller>;
  let admin = '';
  let dept = 0;
  const p: Record<string, string> = {};

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    call = caller(t);
    const db = t.dbh.db;
    const region = await createRegion(db, '广安区', '511602');
    dept = await createDepartment(db, { name: 'CA认证中心', code: 'CA', region_id: region });
    p.equal = String(await addPermit(db, region, '电子认证服务许可', [['ca认证中心', null]]));
    p.prefix = String(await addPermit(db, region, '电子签名认证', [['CA认证中心审核科', null]]));
    p.mixed = String(await addPermit(db, region, '密码产品检测', [['Ca认证中心（分中心）', null]]));
    p.inside = String(await addPermit(db, region, '网络安全等级测评', [['省CA认证中心', null]]));
    p.other = String(await addPermit(db, region, '数据出境评估', [['网信办', null]]));
    admin = await t.login();
  });
  afterAll(async () => t?.close());

  it('matches the same permits by department name, whatever the letter case', async () => {
    const byServiceDepartment = await call('POST', '/admin/permits/filter', { district_dept_id: String(dept) }, admin);
    const byName = await call('GET', `/admin/permits/advanced-filter?departments=${encodeURIComponent('CA认证中心')}`, undefined, admin);
    const byLowerName = await call('POST', '/admin/permits/advanced-filter', { departments: ['ca认证中心'] }, admin);
    const ids = (res: { json: () => { data: { permits: Array<{ id: string }> } } }) =>
      res
        .json()
        .data.permits.map((x) => x.id)
        .sort();
    const expected = [p.equal, p.prefix, p.mixed].sort();
    expect(ids(byServiceDepartment)).toEqual(expected);
    expect(ids(byName)).toEqual(expected);
    expect(ids(byLowerName)).toEqual(expected);
  });
});
