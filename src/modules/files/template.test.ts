import { createHash } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { createUser } from '../../../test/helpers/fixtures.js';
import { multipartBody } from '../../../test/helpers/multipart.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { GUANGAN_CITY, json, workbookBytes } from '../importer/import.test-helpers.js';
import { parseWorkbook } from '../importer/parser/parse-workbook.js';
import { IMAGES_DIR, WIZARD_IMAGES } from './wizard-images.js';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe.each(testDialects())('import template, sample and wizard images on %s', (dialect) => {
  let t: TestApp;
  let admin = '';
  let clerk = '';

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    await createUser(t.dbh.db, { username: 'clerk', password: 'Clerk-Pass-123', grade: 50 });
    admin = await t.login();
    clerk = await t.login('clerk', 'Clerk-Pass-123');
  });
  afterAll(async () => t?.close());

  const get = (path: string, cookie?: string) => t.app.inject({ url: `${API}${path}`, headers: cookie ? { cookie } : {} });
  const postTemplate = (fields: Record<string, string>, files: Parameters<typeof multipartBody>[1], cookie = admin) => {
    const { payload, headers } = multipartBody(fields, files);
    return t.app.inject({ method: 'POST', url: `${API}/admin/templates/permit`, payload, headers: { ...headers, cookie } });
  };
  const templateFile = () => join(t.config.dataDir, 'templates', 'permit-import-template.xlsx');

  it('writes the bundled template at start-up and describes it to administrators only', async () => {
    const res = await get('/admin/templates/permit', admin);
    expect(res.statusCode).toBe(200);
    const onDisk = readFileSync(templateFile());
    expect(json(res).data).toEqual({
      filename: 'permit-import-template.xlsx',
      size: onDisk.length,
      updated_at: expect.any(String),
      updated_by: 'system',
      sha256: sha(onDisk),
      source: 'bundled',
    });
    expect((await get('/admin/templates/permit', clerk)).statusCode).toBe(403);
    expect((await get('/admin/templates/permit')).statusCode).toBe(401);

    const download = await get('/admin/permit-import/template', clerk);
    expect(download.statusCode).toBe(200);
    expect(download.headers['content-disposition']).toContain(`filename*=UTF-8''${encodeURIComponent('许可事项导入模板.xlsx')}`);
    expect(download.rawPayload.equals(onDisk)).toBe(true);
    const parsed = await parseWorkbook(download.rawPayload);
    expect(parsed.sheets.some((s) => s.headerRow !== null)).toBe(true);
  });

  it('replaces the template with an uploaded workbook, refusing missing, empty and non-workbook files', async () => {
    const missing = await postTemplate({ note: 'x' }, {});
    expect(missing.statusCode).toBe(400);
    expect(json(missing)).toEqual({ success: false, message: '请上传模板文件' });
    const empty = await postTemplate({}, { file: { filename: 't.xlsx', content: Buffer.alloc(0) } });
    expect(json(empty)).toEqual({ success: false, message: '上传的模板为空' });
    const junk = await postTemplate({}, { file: { filename: 't.xlsx', content: Buffer.from('not a workbook at all') } });
    expect(junk.statusCode).toBe(400);
    expect(json(junk).message).toBe('文件不是有效的 Excel 工作簿，无法解析');
    const noHeader = await postTemplate({}, { file: { filename: 't.xlsx', content: workbookBytes('bad/empty-sheet.xlsx') } });
    expect(noHeader.statusCode).toBe(400);
    expect((await postTemplate({}, { file: { filename: 't.xlsx', content: workbookBytes(GUANGAN_CITY) } }, clerk)).statusCode).toBe(403);
    const bundled = readFileSync(templateFile());
    expect(sha(bundled)).toBe(json(await get('/admin/templates/permit', admin)).data.sha256);

    const ok = await postTemplate({}, { file: { filename: '新模板.xlsx', content: workbookBytes(GUANGAN_CITY) } });
    expect(ok.statusCode).toBe(200);
    expect(json(ok).data).toMatchObject({ source: 'uploaded', updated_by: '超级管理员', sha256: sha(workbookBytes(GUANGAN_CITY)) });
    expect((await get('/admin/permit-import/template', admin)).rawPayload.equals(workbookBytes(GUANGAN_CITY))).toBe(true);
    // A restart keeps an uploaded template.
    await t.reopen();
    expect(json(await get('/admin/templates/permit', admin)).data.source).toBe('uploaded');
    const log = await t.dbh.db.selectFrom('operation_logs').selectAll().where('operation_type', '=', 'template_update').orderBy('id').execute();
    expect(log.at(-1)).toMatchObject({ outcome: 'success', operator_username: 'admin' });
  });

  it('answers 404 when the template file is gone, and a restart brings the bundled one back', async () => {
    rmSync(templateFile());
    const res = await get('/admin/permit-import/template', admin);
    expect(res.statusCode).toBe(404);
    expect(json(res)).toEqual({ success: false, message: '模板文件不存在,请联系管理员' });
    const again = await t.reopen();
    const meta = await again.app.inject({ url: `${API}/admin/templates/permit`, headers: { cookie: admin } });
    expect(json(meta).data.source).toBe('bundled');
  });

  it('downloads the sample workbook', async () => {
    const res = await get('/admin/permit-import/sample', clerk);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="download.xlsx"; filename\*=UTF-8''/);
    expect(res.rawPayload.equals(workbookBytes(GUANGAN_CITY))).toBe(true);
  });

  it('serves the wizard images from the allow-list only', async () => {
    for (const name of Object.keys(WIZARD_IMAGES)) {
      const res = await get(`/admin/images/${name}`, clerk);
      expect(res.statusCode, name).toBe(200);
      expect(res.headers['content-type']).toBe('image/svg+xml');
      expect(res.rawPayload.equals(readFileSync(join(IMAGES_DIR, name)))).toBe(true);
    }
    const tricks = [
      'nope.svg',
      '..%2F..%2F..%2Fpackage.json',
      '%2e%2e%2fpackage.json',
      '..%5C..%5Cpackage.json',
      'import-step-upload.svg%00',
      'IMPORT-STEP-UPLOAD.SVG',
      '%2Fetc%2Fpasswd',
      'constructor',
      '__proto__',
    ];
    for (const name of tricks) {
      const res = await get(`/admin/images/${name}`, clerk);
      expect(res.statusCode, name).toBe(404);
      expect(json(res).success).toBe(false);
    }
    for (const path of ['/admin/images/../../package.json', '/admin/images/a/../../../package.json']) {
      const res = await get(path, clerk);
      expect(res.statusCode, path).toBe(404);
      expect(json(res).success).toBe(false);
    }
    expect((await get('/admin/images/import-step-upload.svg')).statusCode).toBe(401);
  });
});
