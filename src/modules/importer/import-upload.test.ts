import { randomBytes } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { createDepartment, createUser } from '../../../test/helpers/fixtures.js';
import { multipartBody } from '../../../test/helpers/multipart.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { dumpDatabase, GUANGAN_CITY, importer, json, seedCorpusRegions, workbookBytes } from './import.test-helpers.js';

/** A workbook without a 区域 column: its rows get their region from the department binding. */
async function workbookWithoutRegion(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('风险清单');
  ws.addRow(['许可事项', '事项编码', '风险点', '法律依据', '风险等级']);
  ws.addRow(['烟花爆竹零售许可', 'YHBZ-001', '无证销售烟花爆竹\n未取得零售许可证即在门店销售', '《烟花爆竹安全管理条例》第三十六条', '高']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

describe.each(testDialects())('workbook upload and preview on %s', (dialect) => {
  let t: TestApp;
  let clock = Date.now();
  let admin = '';
  let clerk = '';
  let imp: ReturnType<typeof importer>;
  let regions: Record<string, number>;
  let districtDept = 0;
  let cityDept = 0;

  beforeAll(async () => {
    // Uploads more often in a minute than a clerk would: IMPORT_RATE_LIMIT has its own test (import-load-limits.test.ts).
    t = await buildTestApp(dialect, { env: { IMPORT_RATE_LIMIT: '0' }, build: { now: () => clock } });
    regions = await seedCorpusRegions(t.dbh.db);
    districtDept = await createDepartment(t.dbh.db, { name: '区行政审批局', code: 'XZSP', region_id: regions['广安区'] });
    cityDept = await createDepartment(t.dbh.db, { name: '市行政审批局', code: 'SXZSP', region_id: regions['广安市'] });
    await createUser(t.dbh.db, { username: 'xzsp', password: 'Clerk-Pass-123', department_id: districtDept, grade: 50 });
    admin = await t.login();
    clerk = await t.login('xzsp', 'Clerk-Pass-123');
    imp = importer(t);
  });
  afterAll(async () => t?.close());

  const post = (payload: Buffer | object, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url: `${API}/admin/permit-import/upload`, payload, headers });

  it('refuses a request without a file, an empty file, a bad binding and an anonymous caller', async () => {
    const noFile = multipartBody({ binding_mode: 'auto' });
    const missing = await post(noFile.payload, { ...noFile.headers, cookie: admin });
    expect(missing.statusCode).toBe(400);
    expect(json(missing)).toEqual({ success: false, message: '请选择要上传的Excel文件' });
    const notMultipart = await post({ file: 'x' }, { cookie: admin });
    expect(json(notMultipart)).toEqual({ success: false, message: '请选择要上传的Excel文件' });
    const empty = await imp.upload(admin, Buffer.alloc(0), 'empty.xlsx');
    expect(empty.statusCode).toBe(400);
    expect(json(empty).message).toBe('上传的文件为空');

    const content = workbookBytes(GUANGAN_CITY);
    const badMode = await imp.upload(admin, content, 'x.xlsx', { binding_mode: 'region' });
    expect(badMode.statusCode).toBe(400);
    expect(json(badMode).message).toBe('binding_mode 只能是 auto 或 department');
    const noDept = await imp.upload(admin, content, 'x.xlsx', { binding_mode: 'department' });
    expect(json(noDept).message).toBe('binding_mode 为 department 时必须提供 department_id');
    const unknownDept = await imp.upload(admin, content, 'x.xlsx', { binding_mode: 'department', department_id: '9999' });
    expect(unknownDept.statusCode).toBe(400);
    expect(json(unknownDept).message).toBe('部门不存在：9999');
    const otherDept = await imp.upload(clerk, content, 'x.xlsx', { department_id: String(cityDept) });
    expect(otherDept.statusCode).toBe(403);

    const twoFiles = multipartBody({}, { file: { filename: 'a.xlsx', content }, other: { filename: 'b.xlsx', content } });
    const tooMany = await post(twoFiles.payload, { ...twoFiles.headers, cookie: admin });
    expect(tooMany.statusCode).toBe(413);
    expect(json(tooMany)).toEqual({ success: false, message: '上传的字段或文件过多' });

    const anon = multipartBody({}, { file: { filename: 'a.xlsx', content } });
    expect((await post(anon.payload, anon.headers)).statusCode).toBe(401);
    expect(await t.dbh.db.selectFrom('import_sessions').select('id').execute()).toEqual([]);
  });

  it('refuses an upload over IMPORT_MAX_BYTES with a 400 naming the limit', async () => {
    const small = await buildTestApp(dialect, { env: { IMPORT_MAX_BYTES: String(1024 * 1024) } });
    try {
      const cookie = await small.login();
      const res = await importer(small).upload(cookie, randomBytes(1024 * 1024 + 10), 'big.xlsx');
      expect(res.statusCode).toBe(400);
      expect(json(res)).toEqual({ success: false, message: '文件超过大小限制（最大 1 MB），请拆分后分批上传' });
    } finally {
      await small.close();
    }
  });

  it('stores a session and previews it by path, by session_id and by sessionId', async () => {
    const up = await imp.upload(admin, workbookBytes(GUANGAN_CITY), GUANGAN_CITY);
    const data = json(up).data;
    expect(data).toMatchObject({
      filename: GUANGAN_CITY,
      size: workbookBytes(GUANGAN_CITY).length,
      uploaded_by: '超级管理员',
      committed_at: null,
      content_type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    });
    expect(Date.parse(data.expires_at) - Date.parse(data.created_at)).toBe(24 * 60 * 60 * 1000);
    expect(data.theme_options.regions).toEqual({ 广安市: [] });
    const byPath = await imp.preview(admin, data.session_id);
    const byQuery = await t.app.inject({ url: `${API}/admin/permit-import/preview?session_id=${data.session_id}`, headers: { cookie: admin } });
    const byAlias = await t.app.inject({ url: `${API}/admin/permit-import/preview?sessionId=${data.session_id}`, headers: { cookie: admin } });
    for (const res of [byPath, byQuery, byAlias]) expect(json(res).data).toEqual(data);

    const blank = await t.app.inject({ url: `${API}/admin/permit-import/preview?session_id=%20`, headers: { cookie: admin } });
    expect(blank.statusCode).toBe(400);
    expect(json(blank).message).toBe('session_id 不能为空');
    const unknown = await imp.preview(admin, 'no-such-session');
    expect(unknown.statusCode).toBe(400);
    expect(json(unknown).message).toBe('导入会话不存在或已过期，请重新上传文件');
    // Below grade 90 another user's session does not exist.
    expect((await imp.preview(clerk, data.session_id)).statusCode).toBe(400);

    clock += 24 * 60 * 60 * 1000 + 1000;
    admin = await t.login();
    clerk = await t.login('xzsp', 'Clerk-Pass-123');
    expect(json(await imp.preview(admin, data.session_id)).message).toBe('导入会话不存在或已过期，请重新上传文件');
    await imp.upload(admin, workbookBytes(GUANGAN_CITY), GUANGAN_CITY); // housekeeping drops the expired one
    const left = await t.dbh.db.selectFrom('import_sessions').select('id').execute();
    expect(left.map((s) => s.id)).not.toContain(data.session_id);
  });

  it('keeps a department account to its own region: other regions are errors and the commit is refused', async () => {
    const up = await imp.upload(clerk, workbookBytes(GUANGAN_CITY), GUANGAN_CITY);
    const data = json(up).data;
    expect(data.binding_mode).toBe('department');
    expect(data.department).toEqual({ id: String(districtDept), name: '区行政审批局', region_id: String(regions['广安区']), region_name: '广安区' });
    expect(data.sheets[0].findings).toContainEqual(
      expect.objectContaining({
        severity: 'error',
        code: 'region_out_of_scope',
        row: 2,
        column: 'A',
        header: '区域',
        message: '无权导入区域：广安市（只能导入本账号所属区域）',
      }),
    );
    expect(data.totals.permits).toBe(0);
    const before = await dumpDatabase(t.dbh.db);
    const res = await imp.commit(clerk, { session_id: data.session_id });
    expect(res.statusCode).toBe(400);
    expect(await dumpDatabase(t.dbh.db)).toEqual(before);
  });

  it('takes the region of rows without one from the department binding', async () => {
    const content = await workbookWithoutRegion();
    const unbound = json(await imp.upload(admin, content, 'no-region.xlsx')).data;
    expect(unbound.sheets[0].findings).toEqual([
      expect.objectContaining({ severity: 'error', code: 'missing_region', row: 1, column: null, message: '缺少区域：请在“区域”列填写或绑定部门' }),
    ]);
    const bound = json(await imp.upload(admin, content, 'no-region.xlsx', { binding_mode: 'department', department_id: String(districtDept) })).data;
    expect(bound.error_count).toBe(0);
    const res = await imp.commit(admin, { session_id: bound.session_id });
    expect(res.statusCode).toBe(200);
    const permit = await t.dbh.db.selectFrom('permits').select(['region_id', 'code']).where('code', '=', 'YHBZ-001').executeTakeFirstOrThrow();
    expect(permit.region_id).toBe(regions['广安区']);
    // The department's own account imports the same way without choosing anything.
    const mine = json(await imp.upload(clerk, content, 'no-region.xlsx')).data;
    expect(mine.totals).toMatchObject({ permits: 1, unchanged: 1 });
  });
});
