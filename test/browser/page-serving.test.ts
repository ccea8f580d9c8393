import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, buildTestApp, type TestApp } from '../helpers/test-app.js';

/** How the server hands out the built pages and their assets (src/pages/pages.routes.ts). */
describe('serving the built pages', () => {
  let t: TestApp;
  let pagesDir: string;

  beforeAll(async () => {
    pagesDir = mkdtempSync(join(tmpdir(), 'lawrisk-pages-'));
    mkdirSync(join(pagesDir, 'assets'));
    writeFileSync(join(pagesDir, 'login.html'), '<!doctype html><title>登录</title><div id="app"></div>');
    writeFileSync(join(pagesDir, 'search.html'), '<!doctype html><title>许可事项风险查询</title><div id="app"></div>');
    writeFileSync(join(pagesDir, 'assets', 'login-AbC123_x.js'), 'console.log(1)');
    writeFileSync(join(pagesDir, 'assets', 'shared-Q1w2E3r4.css'), 'body{margin:0}');
    writeFileSync(join(pagesDir, 'assets', 'notes.txt'), 'not an asset type');
    writeFileSync(join(pagesDir, 'secret.js'), 'outside the assets directory');
    t = await buildTestApp('sqlite', { build: { pagesDir } });
  });

  afterAll(async () => {
    await t?.close();
    rmSync(pagesDir, { recursive: true, force: true });
  });

  it('serves assets publicly below {api_root}/assets and {api_root}/admin/assets, cached for good', async () => {
    for (const prefix of ['/assets', '/admin/assets']) {
      const js = await t.app.inject(`${API}${prefix}/login-AbC123_x.js`);
      expect(js.statusCode).toBe(200);
      expect(js.headers['content-type']).toBe('text/javascript; charset=utf-8');
      expect(js.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(js.body).toBe('console.log(1)');
      const css = await t.app.inject(`${API}${prefix}/shared-Q1w2E3r4.css`);
      expect(css.statusCode).toBe(200);
      expect(css.headers['content-type']).toBe('text/css; charset=utf-8');
    }
    const head = await t.app.inject({ method: 'HEAD', url: `${API}/assets/login-AbC123_x.js` });
    expect(head.statusCode).toBe(200);
  });

  it('answers 404 for anything but a file of a known type directly in the assets directory', async () => {
    const refused = [
      '/assets/',
      '/admin/assets/',
      '/assets/missing-12345678.js',
      '/assets/notes.txt',
      '/assets/..%2Fsecret.js',
      '/assets/%2e%2e%2fsecret.js',
      '/admin/assets/..%5Csecret.js',
      '/assets/.hidden.js',
      '/assets/../secret.js',
    ];
    for (const path of refused) {
      const res = await t.app.inject(`${API}${path}`);
      expect(res.statusCode, path).toBe(404);
      expect(res.json(), path).toMatchObject({ success: false });
    }
  });

  it('serves the built login page when there is one, else the minimal form page', async () => {
    const built = await t.app.inject(`${API}/login?next=${encodeURIComponent(`${API}/db_admin`)}`);
    expect(built.statusCode).toBe(200);
    expect(built.headers['content-type']).toContain('text/html');
    expect(built.headers['cache-control']).toBe('no-store');
    expect(built.body).toContain('<div id="app"></div>');

    const empty = mkdtempSync(join(tmpdir(), 'lawrisk-no-pages-'));
    const bare = await t.reopen({ pagesDir: empty });
    const minimal = await bare.app.inject(`${API}/login?error=credentials`);
    expect(minimal.statusCode).toBe(200);
    expect(minimal.body).toContain(`action="${API}/auth/login"`);
    expect(minimal.body).toContain('用户名或密码错误');
    expect(minimal.body).toContain(`<a href="${API}/">不是工作人员？查询办事需要的许可和法律风险（无需登录）</a>`);
    for (const path of ['/', '/search']) {
      const res = await bare.app.inject(`${API}${path}`);
      expect([res.statusCode, res.json()], path).toEqual([404, { success: false, message: '搜索页面不存在' }]);
    }
    rmSync(empty, { recursive: true, force: true });
  });

  it("leads the site's root and {api_root} to the public search page, which needs no login, and serves the icon", async () => {
    for (const path of ['/', API]) {
      const res = await t.app.inject(path);
      expect([res.statusCode, res.headers.location], path).toEqual([302, `${API}/`]);
      // A district's link keeps its region; a path or host in the query string stays in the query string.
      const linked = await t.app.inject(`${path}?region=%E5%89%8D%E9%94%8B%E5%8C%BA&next=//evil.example/`);
      expect(linked.headers.location).toBe(`${API}/?region=%E5%89%8D%E9%94%8B%E5%8C%BA&next=//evil.example/`);
    }
    for (const path of ['/', '/search']) {
      const res = await t.app.inject(`${API}${path}`);
      expect([res.statusCode, res.headers['cache-control']], path).toEqual([200, 'no-store']);
      expect(res.body).toContain('<title>许可事项风险查询</title>');
    }
    const icon = await t.app.inject('/favicon.ico');
    expect([icon.statusCode, icon.headers['content-type'], icon.headers['cache-control']]).toEqual([200, 'image/svg+xml', 'public, max-age=86400']);
    expect(icon.body).toMatch(/^<svg[\s>]/);
  });

  it('answers the interface 404 envelopes when a page file is missing', async () => {
    const cookie = await t.login();
    const cases: [string, string][] = [
      ['/db_admin', 'DB admin page not found'],
      ['/admin/super', 'Super admin page not found'],
      ['/admin/v2-debug', '调试页面不存在'],
    ];
    for (const [path, message] of cases) {
      const res = await t.app.inject({ url: `${API}${path}`, headers: { cookie } });
      expect(res.statusCode, path).toBe(404);
      expect(res.json()).toEqual({ success: false, message });
    }
  });
});
