import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { createDepartment, createUser } from '../../../test/helpers/fixtures.js';
import { generatedPermits, generatedWorkbook } from '../../../test/helpers/instances.js';
import { multipartBody } from '../../../test/helpers/multipart.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { GUANGAN_CITY, importer, json, QIANFENG, seedCorpusRegions, workbookBytes } from '../importer/import.test-helpers.js';
import { XLSX_TYPE } from '../../http/attachment.js';

describe.each(testDialects())('archived workbooks on %s', (dialect) => {
  let t: TestApp;
  let admin = '';
  let qfClerk = '';
  let cityNoDept = '';
  let regions: Record<string, number>;
  let qfDept = 0;
  let cityFile = '';
  let qfFile = '';

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    regions = await seedCorpusRegions(t.dbh.db);
    qfDept = await createDepartment(t.dbh.db, { name: '前锋区行政审批局', code: 'QFSP', region_id: regions['前锋区'] });
    await createUser(t.dbh.db, { username: 'qf', password: 'Clerk-Pass-123', department_id: qfDept, grade: 50, display_name: '前锋区审批员' });
    await createUser(t.dbh.db, { username: 'city', password: 'City-Pass-123', grade: 90 });
    admin = await t.login();
    qfClerk = await t.login('qf', 'Clerk-Pass-123');
    cityNoDept = await t.login('city', 'City-Pass-123');
    const imp = importer(t);
    cityFile = (await imp.importFile(admin, GUANGAN_CITY)).file_id;
    qfFile = (await imp.importFile(qfClerk, QIANFENG)).file_id;
  });
  afterAll(async () => t?.close());

  const get = (path: string, cookie?: string) => t.app.inject({ url: `${API}${path}`, headers: cookie ? { cookie } : {} });
  const send = (method: 'POST' | 'DELETE', path: string, cookie: string) => t.app.inject({ method, url: `${API}${path}`, headers: { cookie } });
  const list = async (query: string, cookie = admin) => json(await get(`/admin/permit-files${query}`, cookie)).data;

  it('lists the archive newest first, with clamps, keyword and the data scope', async () => {
    const all = await list('');
    expect(all).toMatchObject({ total: 2, limit: 20, offset: 0 });
    expect(all.files).toEqual([
      expect.objectContaining({
        id: qfFile,
        filename: QIANFENG,
        uploaded_by: '前锋区审批员',
        permit_count: 295,
        region_id: String(regions['前锋区']),
        region_name: '前锋区',
      }),
      expect.objectContaining({
        id: cityFile,
        filename: GUANGAN_CITY,
        uploaded_by: '超级管理员',
        permit_count: 159,
        region_name: '广安市',
        content_type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
        size: workbookBytes(GUANGAN_CITY).length,
      }),
    ]);
    expect((await list('?limit=0')).limit).toBe(1);
    expect((await list('?limit=0')).files).toHaveLength(1);
    expect((await list('?limit=500')).limit).toBe(100);
    expect((await list('?limit=abc')).limit).toBe(20);
    expect((await list('?offset=-3')).offset).toBe(0);
    expect((await list('?offset=1')).files.map((f: any) => f.id)).toEqual([cityFile]);
    expect((await list('?keyword=%E5%89%8D%E9%94%8B')).files.map((f: any) => f.id)).toEqual([qfFile]);
    expect((await list('?q=%E8%B6%85%E7%BA%A7')).files.map((f: any) => f.id)).toEqual([cityFile]);
    expect((await list('?keyword=%25')).total).toBe(0);

    const mine = await list('', qfClerk);
    expect(mine).toMatchObject({ total: 1, files: [expect.objectContaining({ id: qfFile, permit_count: 295 })] });
    expect((await get('/admin/permit-files')).statusCode).toBe(401);
  });

  it('re-imports an archived file: admin unbound, others into their department, 403 without one, 404 unknown', async () => {
    const byAdmin = await send('POST', `/admin/permit-files/${cityFile}/reimport`, admin);
    expect(byAdmin.statusCode).toBe(200);
    expect(json(byAdmin).data).toMatchObject({ filename: GUANGAN_CITY, binding_mode: 'auto', department: null, totals: { unchanged: 159 } });

    const noDept = await send('POST', `/admin/permit-files/${cityFile}/reimport`, cityNoDept);
    expect(noDept.statusCode).toBe(403);
    expect(json(noDept)).toEqual({ success: false, message: '该账号未绑定服务部门,无法执行重新导入' });

    const byClerk = await send('POST', `/admin/permit-files/${qfFile}/reimport`, qfClerk);
    expect(json(byClerk).data).toMatchObject({ binding_mode: 'department', department: { id: String(qfDept) }, error_count: 0 });
    for (const [id, cookie] of [
      [cityFile, qfClerk],
      ['9999', admin],
      ['abc', admin],
    ]) {
      const res = await send('POST', `/admin/permit-files/${id}/reimport`, cookie);
      expect(res.statusCode).toBe(404);
      expect(json(res)).toEqual({ success: false, message: '文件不存在' });
    }
  });

  it('downloads the original workbook of a permit with a Content-Disposition that keeps the Chinese name', async () => {
    const res = await get('/admin/permit-file/download?region=%E5%B9%BF%E5%AE%89%E5%B8%82&permit=511A0014200001', admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toBe(`attachment; filename="download.xlsx"; filename*=UTF-8''${encodeURIComponent(GUANGAN_CITY)}`);
    expect(res.rawPayload.equals(workbookBytes(GUANGAN_CITY))).toBe(true);
    const byId = await get(`/admin/permit-file/download?region_id=${regions['广安市']}&permit_id=511A0014200001`, admin);
    expect(byId.statusCode).toBe(200);

    const missing = await get('/admin/permit-file/download?region=%E5%B9%BF%E5%AE%89%E5%B8%82', admin);
    expect(missing.statusCode).toBe(400);
    expect(json(missing).message).toBe('region and permit are required');
    expect((await get('/admin/permit-file/download?region=%E5%B9%BF%E5%AE%89%E5%B8%82&permit=nope', admin)).statusCode).toBe(404);
    // Outside the clerk's region the permit does not exist.
    expect((await get('/admin/permit-file/download?region=%E5%B9%BF%E5%AE%89%E5%B8%82&permit=511A0014200001', qfClerk)).statusCode).toBe(404);
    expect((await get('/admin/permit-file/download?region=1&permit=1')).statusCode).toBe(401);
  });

  it('downloads an archived workbook by its id within the data scope', async () => {
    const res = await get(`/admin/permit-files/${cityFile}/download`, admin);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent(GUANGAN_CITY)}`);
    expect(res.rawPayload.equals(workbookBytes(GUANGAN_CITY))).toBe(true);
    for (const [id, cookie] of [
      [cityFile, qfClerk],
      ['9999', admin],
      ['abc', admin],
    ]) {
      const other = await get(`/admin/permit-files/${id}/download`, cookie);
      expect(other.statusCode).toBe(404);
      expect(json(other)).toEqual({ success: false, message: '文件不存在' });
    }
    expect((await get(`/admin/permit-files/${cityFile}/download`)).statusCode).toBe(401);
  });

  it('deletes an archived file: the permits keep their data and lose the link', async () => {
    expect((await send('DELETE', `/admin/permit-files/${cityFile}`, qfClerk)).statusCode).toBe(404);
    const res = await send('DELETE', `/admin/permit-files/${cityFile}`, admin);
    expect(res.statusCode).toBe(200);
    expect(json(res)).toEqual({ success: true, message: '文件已删除' });
    const permits = await t.dbh.db.selectFrom('permits').select(['source_file_id']).where('region_id', '=', regions['广安市']).execute();
    expect(permits).toHaveLength(159);
    expect(permits.every((p) => p.source_file_id === null)).toBe(true);
    expect(
      await t.dbh.db
        .selectFrom('risks')
        .innerJoin('permits', 'permits.id', 'risks.permit_id')
        .select('risks.id')
        .where('permits.region_id', '=', regions['广安市'])
        .execute(),
    ).toHaveLength(583);
    const again = await send('DELETE', `/admin/permit-files/${cityFile}`, admin);
    expect(again.statusCode).toBe(404);
    expect(json(again)).toEqual({ success: false, message: '文件不存在' });
    const noFile = await get('/admin/permit-file/download?region=%E5%B9%BF%E5%AE%89%E5%B8%82&permit=511A0014200001', admin);
    expect(noFile.statusCode).toBe(404);
    expect(json(noFile).message).toBe('当前许可没有关联的原始文件');
    const log = await t.dbh.db.selectFrom('operation_logs').selectAll().where('operation_type', '=', 'file_delete').orderBy('id').execute();
    expect(log.map((l) => [l.outcome, l.target_id])).toEqual([
      ['failure', cityFile],
      ['success', cityFile],
      ['failure', cityFile],
    ]);
  });

  it('serves a workbook uploaded as text/html as a workbook, an attachment the browser may not sniff', async () => {
    const content = await generatedWorkbook(generatedPermits('type', 0, 2), '广安区', '类型主题');
    const { payload, headers } = multipartBody({}, { file: { filename: '冒充网页.xlsx', content, contentType: 'text/html' } });
    const up = await t.app.inject({ method: 'POST', url: `${API}/admin/permit-import/upload`, payload, headers: { ...headers, cookie: admin } });
    expect(up.statusCode, up.body).toBe(200);
    expect(json(up).data.content_type).toBe(XLSX_TYPE);
    const commit = await importer(t).commit(admin, { session_id: json(up).data.session_id });
    expect(commit.statusCode, commit.body).toBe(200);
    const fileId = json(commit).data.file_id;
    const stored = await t.dbh.db.selectFrom('permit_files').select(['content_type']).where('id', '=', Number(fileId)).executeTakeFirstOrThrow();
    expect(stored.content_type).toBe(XLSX_TYPE);
    expect((await list('?keyword=%E5%86%92%E5%85%85')).files).toEqual([expect.objectContaining({ id: fileId, content_type: XLSX_TYPE })]);

    const byPermit = `/admin/permit-file/download?region=%E5%B9%BF%E5%AE%89%E5%8C%BA&permit=GEN000`;
    for (const url of [`/admin/permit-files/${fileId}/download`, byPermit]) {
      const res = await get(url, admin);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toBe(XLSX_TYPE);
      expect(res.headers['content-disposition']).toBe(`attachment; filename="download.xlsx"; filename*=UTF-8''${encodeURIComponent('冒充网页.xlsx')}`);
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.rawPayload.equals(content)).toBe(true);
    }
  });

  it('never answers with the type recorded with a file: a workbook goes out as a workbook, other bytes as application/octet-stream', async () => {
    // Rows as an earlier version archived them, with the type the uploader claimed.
    const [workbookFile] = (await list('?keyword=%E5%86%92%E5%85%85')).files;
    await t.dbh.db.updateTable('permit_files').set({ content_type: 'text/html' }).where('id', '=', Number(workbookFile.id)).execute();
    const markup = Buffer.from('<html><body><script>alert(document.cookie)</script></body></html>');
    const inserted = await t.dbh.db
      .insertInto('permit_files')
      .values({
        filename: 'page.html',
        content_type: 'text/html; charset=utf-8',
        size: markup.length,
        sha256: 'x',
        content: markup,
        uploaded_by: '旧版本',
        uploader_id: null,
        region_id: null,
        created_at: '2026-01-01T00:00:00.000Z',
      })
      .returning('id')
      .executeTakeFirstOrThrow();

    const workbook = await get(`/admin/permit-files/${workbookFile.id}/download`, admin);
    expect([workbook.statusCode, workbook.headers['content-type']]).toEqual([200, XLSX_TYPE]);
    const other = await get(`/admin/permit-files/${inserted.id}/download`, admin);
    expect(other.statusCode).toBe(200);
    expect(other.headers['content-type']).toBe('application/octet-stream');
    expect(other.headers['content-disposition']).toBe(`attachment; filename="page.html"; filename*=UTF-8''page.html`);
    expect(other.headers['x-content-type-options']).toBe('nosniff');
    expect(other.rawPayload.equals(markup)).toBe(true);
  });
});
