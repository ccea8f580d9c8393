import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DataChange } from '../../context.js';
import { nowIso } from '../../db/dialect.js';
import { testDialects } from '../../../test/helpers/databases.js';
import { createDepartment, createRegion, createUser } from '../../../test/helpers/fixtures.js';
import { buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { accountState, caller, operationLogs } from '../users/users.test-helpers.js';
import { permitRow } from '../../../test/helpers/permit-row.js';

describe.each(testDialects())('theme catalog (4.5) on %s', (dialect) => {
  let t: TestApp;
  let call: ReturnType<typeof caller>;
  let admin = '';
  let deptCookie = '';
  let regionId = 0;
  const changes: DataChange[] = [];

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    t.ctx.onDataChanged.push((c) => {
      changes.push(c);
    });
    call = caller(t);
    regionId = await createRegion(t.dbh.db, '广安区', '511602');
    const dept = await createDepartment(t.dbh.db, { name: '区住建局', code: 'ZJJ', region_id: regionId });
    await createUser(t.dbh.db, { username: 'zjj', password: 'Dept-Pass-123', department_id: dept, grade: 89 });
    admin = await t.login();
    deptCookie = await t.login('zjj', 'Dept-Pass-123');
  });
  afterAll(async () => t?.close());

  async function refused(status: number, method: 'POST' | 'PATCH' | 'DELETE', path: string, payload?: unknown) {
    const before = await accountState(t.dbh.db);
    const seen = changes.length;
    const res = await call(method, path, payload, admin);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().success).toBe(false);
    expect(await accountState(t.dbh.db)).toEqual(before);
    expect(changes).toHaveLength(seen);
    return res.json().message as string;
  }

  it('creates and lists themes, telling search at once', async () => {
    const res = await call('POST', '/admin/themes/catalog', { name: ' 开办餐馆 ' }, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().data.theme).toEqual({ id: expect.any(String), name: '开办餐馆', created_at: expect.any(String) });
    expect(changes.at(-1)).toEqual({ kind: 'all' });
    await call('POST', '/admin/themes/catalog', { name: '建筑施工' }, admin);
    const list = await call('GET', '/admin/themes/catalog', undefined, admin);
    expect(list.json().data.themes).toEqual([
      { id: expect.any(String), name: '开办餐馆', created_at: expect.any(String), permit_count: 0, region_count: 0 },
      { id: expect.any(String), name: '建筑施工', created_at: expect.any(String), permit_count: 0, region_count: 0 },
    ]);
    expect((await operationLogs(t.dbh.db)).at(-1)).toMatchObject({
      operation_type: 'create',
      target_type: 'theme',
      target_name: '建筑施工',
      summary: '创建主题 建筑施工',
      outcome: 'success',
    });
  });

  it('renames a theme by name or new_name', async () => {
    const id = (await call('GET', '/admin/themes/catalog', undefined, admin)).json().data.themes[0].id;
    const byName = await call('PATCH', `/admin/themes/catalog/${id}`, { name: '开办饭店' }, admin);
    expect(byName.json()).toMatchObject({ success: true, data: { theme: { id, name: '开办饭店' } } });
    const byNewName = await call('PATCH', `/admin/themes/catalog/${id}`, { new_name: '开办餐馆' }, admin);
    expect(byNewName.json().data.theme.name).toBe('开办餐馆');
    const same = await call('PATCH', `/admin/themes/catalog/${id}`, { name: '开办餐馆' }, admin);
    expect(same.statusCode).toBe(200);
    expect((await operationLogs(t.dbh.db)).at(-2)!.summary).toBe('主题 开办饭店 重命名为 开办餐馆');
    expect(changes.at(-1)).toEqual({ kind: 'all' });
  });

  it('refuses blank, duplicate, unknown and malformed input, changing nothing', async () => {
    const [first, second] = (await call('GET', '/admin/themes/catalog', undefined, admin)).json().data.themes;
    expect(await refused(400, 'POST', '/admin/themes/catalog', { name: '  ' })).toBe('主题名称不能为空');
    expect(await refused(400, 'POST', '/admin/themes/catalog', {})).toBe('主题名称不能为空');
    expect(await refused(400, 'POST', '/admin/themes/catalog', { name: '建筑施工' })).toBe('主题 建筑施工 已存在');
    expect(await refused(400, 'POST', '/admin/themes/catalog', { name: '主'.repeat(101) })).toContain('name');
    expect(await refused(413, 'POST', '/admin/themes/catalog', { name: '主'.repeat(300_000) })).toBe('请求体过大');
    expect(await refused(400, 'POST', '/admin/themes/catalog', { name: 7 })).toContain('name');
    expect(await refused(400, 'POST', '/admin/themes/catalog', { name: 'x', color: 'red' })).toContain('color');
    expect(await refused(400, 'PATCH', `/admin/themes/catalog/${first.id}`, { new_name: '' })).toBe('主题名称不能为空');
    expect(await refused(400, 'PATCH', `/admin/themes/catalog/${first.id}`, { name: second.name })).toBe(`主题 ${second.name} 已存在`);
    expect(await refused(404, 'PATCH', '/admin/themes/catalog/9999', { name: '新主题' })).toBe('主题不存在');
    expect(await refused(404, 'PATCH', '/admin/themes/catalog/abc', { name: '新主题' })).toBe('主题不存在');
    expect(await refused(404, 'DELETE', '/admin/themes/catalog/9999')).toBe('主题不存在');
    expect(await refused(404, 'DELETE', '/admin/themes/catalog/-1')).toBe('主题不存在');
  });

  it('deletes a theme with its region associations and permit links', async () => {
    const theme = (await call('GET', '/admin/themes/catalog', undefined, admin)).json().data.themes[1];
    const themeId = Number(theme.id);
    const now = nowIso();
    await t.dbh.db.insertInto('region_themes').values({ region_id: regionId, theme_id: themeId }).execute();
    const permit = await t.dbh.db
      .insertInto('permits')
      .values(permitRow(regionId, 'P1', '建筑工程施工许可', { created_at: now, updated_at: now }))
      .returning('id')
      .executeTakeFirstOrThrow();
    await t.dbh.db.insertInto('permit_themes').values({ permit_id: permit.id, theme_id: themeId }).execute();
    const listed = (await call('GET', '/admin/themes/catalog', undefined, admin)).json().data.themes[1];
    expect(listed).toMatchObject({ permit_count: 1, region_count: 1 });

    const res = await call('DELETE', `/admin/themes/catalog/${theme.id}`, undefined, admin);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      success: true,
      data: { deleted: true, theme: { id: theme.id, name: '建筑施工' }, removed_region_links: 1, removed_permit_links: 1 },
    });
    expect(await t.dbh.db.selectFrom('region_themes').selectAll().where('theme_id', '=', themeId).execute()).toEqual([]);
    expect(await t.dbh.db.selectFrom('permits').select('id').where('id', '=', permit.id).execute()).toHaveLength(1);
    expect(changes.at(-1)).toEqual({ kind: 'all' });
    expect((await operationLogs(t.dbh.db)).at(-1)).toMatchObject({ operation_type: 'delete', target_id: theme.id, outcome: 'success' });
    expect(await refused(404, 'DELETE', `/admin/themes/catalog/${theme.id}`)).toBe('主题不存在');
  });

  it('answers 401 anonymous and 403 below the admin level on every catalog route', async () => {
    const id = (await call('GET', '/admin/themes/catalog', undefined, admin)).json().data.themes[0].id;
    const routes: Array<['GET' | 'POST' | 'PATCH' | 'DELETE', string, unknown]> = [
      ['GET', '/admin/themes/catalog', undefined],
      ['POST', '/admin/themes/catalog', { name: '越权主题' }],
      ['PATCH', `/admin/themes/catalog/${id}`, { name: '越权改名' }],
      ['DELETE', `/admin/themes/catalog/${id}`, undefined],
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
});
