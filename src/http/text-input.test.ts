import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../test/helpers/databases.js';
import { API, buildTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { multipartBody } from '../../test/helpers/multipart.js';

/**
 * NUL and unpaired surrogates: PostgreSQL refused NUL with a 500 that named the database error;
 * both databases silently stored U+FFFD for an unpaired surrogate. Now every route refuses them.
 */
describe.each(testDialects())('text neither database can store (%s)', (dialect) => {
  let t: TestApp;
  let admin = '';
  beforeAll(async () => {
    t = await buildTestApp(dialect);
    admin = await t.login();
  });
  afterAll(async () => t?.close());

  const themes = async () => (await t.dbh.db.selectFrom('themes').select('name').execute()).map((r) => r.name);

  it('refuses NUL and unpaired surrogates in a query string, a JSON body and a form with 400', async () => {
    const query = await t.app.inject({ url: `${API}/admin/permits?region=${encodeURIComponent('广安\u0000区')}`, headers: { cookie: admin } });
    expect(query.statusCode).toBe(400);
    expect(query.json()).toEqual({ success: false, message: '参数 region 含有无效字符（空字符或不完整的 Unicode 字符），请修改后重新提交', data: {} });

    for (const name of ['主题\u0000', '主题\ud800', '\udc00主题']) {
      const res = await t.app.inject({ method: 'POST', url: `${API}/admin/themes/catalog`, payload: { name }, headers: { cookie: admin } });
      expect(res.statusCode, JSON.stringify(name)).toBe(400);
      expect(res.json().message).toBe('参数 name 含有无效字符（空字符或不完整的 Unicode 字符），请修改后重新提交');
    }
    const form = await t.app.inject({
      method: 'POST',
      url: `${API}/admin/checkpoints`,
      payload: 'description=a%00b',
      headers: { cookie: admin, 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.statusCode).toBe(400);
    const key = await t.app.inject({ method: 'POST', url: `${API}/v2`, payload: { query: '食品', ['k\u0000']: 1 } });
    expect(key.json()).toEqual({ success: false, message: '参数名含有无效字符（空字符或不完整的 Unicode 字符）', data: {} });
    expect(await themes()).toEqual([]);
  });

  it('answers a path parameter holding NUL as an unknown resource (404)', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: `${API}/admin/themes/catalog/1%00`, headers: { cookie: admin } });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ success: false, message: '请求的资源不存在' });
  });

  it('refuses them in the text fields of an upload form', async () => {
    const { payload, headers } = multipartBody(
      { binding_mode: 'department', department_id: '1\u0000' },
      { file: { filename: 'a.xlsx', content: Buffer.from('x') } },
    );
    const res = await t.app.inject({ method: 'POST', url: `${API}/admin/permit-import/upload`, payload, headers: { ...headers, cookie: admin } });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('参数 department_id 含有无效字符（空字符或不完整的 Unicode 字符），请修改后重新提交');
  });

  it('still takes every other character: tabs, line breaks, emoji, full-width text', async () => {
    const name = '主题\t一\n😀ＡＢＣ';
    const res = await t.app.inject({ method: 'POST', url: `${API}/admin/themes/catalog`, payload: { name }, headers: { cookie: admin } });
    expect(res.statusCode).toBe(200);
    expect(await themes()).toEqual([name.trim()]);
  });
});
