import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_PAGES_DIR } from '../../src/app.js';
import { createUser } from '../helpers/fixtures.js';
import { API, buildTestApp, type TestApp } from '../helpers/test-app.js';

/**
 * The response headers that keep the pages and the API safe in a browser (helmet, configured in
 * src/app.ts) and the session cookie's attributes (docs/security.md: HttpOnly, SameSite=Lax, Path=/,
 * Secure under TRUST_PROXY). Headers do not depend on the database: SQLite only.
 */

const PAGES = ['/login', '/db_admin', '/admin/super', '/admin/v2-debug'];
const ASSET = readdirSync(join(DEFAULT_PAGES_DIR, 'assets')).find((f) => f.endsWith('.js'))!;

/** The Content-Security-Policy header as a map of directive → sources. */
function csp(res: LightMyRequestResponse): Map<string, string[]> {
  const header = String(res.headers['content-security-policy'] ?? '');
  return new Map(
    header
      .split(';')
      .map((d) => d.trim())
      .filter(Boolean)
      .map((d) => {
        const [name, ...sources] = d.split(/\s+/);
        return [name, sources] as [string, string[]];
      }),
  );
}

/** The browser-facing protections every answer carries, pages, JSON, errors and files alike. */
function expectBaseHeaders(res: LightMyRequestResponse, what: string) {
  expect(res.headers['x-content-type-options'], what).toBe('nosniff');
  expect(res.headers['x-frame-options'], what).toBe('DENY');
  expect(res.headers['referrer-policy'], what).toBe('same-origin');
  expect(csp(res).get('frame-ancestors'), what).toEqual(["'none'"]);
  expect(res.headers['x-powered-by'], what).toBeUndefined();
  expect(res.headers['access-control-allow-origin'], what).toBeUndefined();
}

function cookieAttributes(setCookie: string | string[] | undefined): string[] {
  const first = Array.isArray(setCookie) ? setCookie[0] : setCookie;
  expect(first).toBeDefined();
  return first!
    .split(';')
    .slice(1)
    .map((a) => a.trim().split('=')[0].toLowerCase());
}

describe('security headers', () => {
  let t: TestApp;
  let admin = '';

  beforeAll(async () => {
    t = await buildTestApp('sqlite');
    admin = await t.login();
  });
  afterAll(async () => t?.close());

  const get = (url: string, cookie: string | null = admin) => t.app.inject({ url: `${API}${url}`, headers: cookie ? { cookie } : {} });

  it('serves every page with a script-tight CSP, no inline script and no inline event handler', async () => {
    for (const page of PAGES) {
      const res = await get(page);
      expect(res.statusCode, page).toBe(200);
      expect(res.headers['content-type'], page).toBe('text/html; charset=utf-8');
      expectBaseHeaders(res, page);
      const policy = csp(res);
      expect(policy.get('default-src'), page).toEqual(["'self'"]);
      expect(policy.get('script-src'), page).toEqual(["'self'"]); // no 'unsafe-inline', no 'unsafe-eval'
      expect(policy.get('script-src-attr'), page).toEqual(["'none'"]);
      expect(policy.get('object-src'), page).toEqual(["'none'"]);
      expect(policy.get('base-uri'), page).toEqual(["'self'"]);
      expect(policy.get('form-action'), page).toEqual(["'self'"]);
      expect(policy.get('connect-src'), page).toEqual(["'self'"]);

      const scripts = [...res.body.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
      expect(scripts.length, page).toBeGreaterThan(0);
      for (const [, attrs, inline] of scripts) {
        expect(attrs, page).toMatch(/\bsrc="\.\/assets\/[^"]+\.js"/);
        expect(inline.trim(), page).toBe('');
      }
      expect(res.body, page).not.toMatch(/\son[a-z]+\s*=/i);
      expect(res.body, page).not.toMatch(/javascript:/i);
      expect(res.headers['cache-control'], page).toBe('no-store');
    }
  });

  it('keeps the minimal login page (no built pages) free of script as well', async () => {
    const bare = await t.reopen({ pagesDir: join(t.database.dataDir, 'no-pages') });
    const res = await bare.app.inject(`${API}/login?error=credentials&next=${encodeURIComponent(`${API}/db_admin`)}`);
    expect(res.statusCode).toBe(200);
    expectBaseHeaders(res, 'minimal login page');
    expect(res.body).not.toMatch(/<script/i);
    expect(res.body).not.toMatch(/\son[a-z]+\s*=/i);
  });

  it('sends the same protections with JSON answers, errors, the 403 page, assets and downloads', async () => {
    await createUser(t.dbh.db, { username: 'clerk', password: 'Clerk-Pass-123', grade: 50 });
    const clerk = await t.login('clerk', 'Clerk-Pass-123');
    const forbiddenPage = await get('/admin/super', clerk);
    expect(forbiddenPage.statusCode).toBe(403);
    expect(csp(forbiddenPage).get('script-src')).toEqual(["'self'"]);
    expect(forbiddenPage.body).not.toMatch(/<script/i);
    const answers: Array<[string, LightMyRequestResponse]> = [
      ['JSON', await get('/admin/regions')],
      ['403 page', forbiddenPage],
      ['401', await get('/admin/regions', null)],
      ['404', await get('/no-such-route')],
      ['search', await get(`/v2?query=${encodeURIComponent('许可')}`, null)],
      ['login redirect', await get('/db_admin', null)],
      ['asset', await get(`/assets/${ASSET}`, null)],
      ['download', await get('/admin/permit-import/template')],
      ['health', await t.app.inject('/healthz')],
    ];
    for (const [what, res] of answers) expectBaseHeaders(res, what);
    const answer = (what: string) => answers.find(([name]) => name === what)![1];
    expect(answer('JSON').headers['content-type']).toBe('application/json; charset=utf-8');
    expect(answer('asset').headers['content-type']).toBe('text/javascript; charset=utf-8');
    // A workbook is always a download, never rendered by the browser.
    expect(answer('download').headers['content-disposition']).toMatch(/^attachment;/);
    // The wizard images are SVG: sandboxed so a script in one would not run even when opened directly.
    const svg = await get('/admin/images/import-step-upload.svg');
    expect(svg.headers['content-security-policy']).toBe("default-src 'none'; style-src 'unsafe-inline'; sandbox");
    expect(svg.headers['x-content-type-options']).toBe('nosniff');
  });

  it('sends no HSTS without TRUST_PROXY (plain HTTP deployment)', async () => {
    expect((await get('/login', null)).headers['strict-transport-security']).toBeUndefined();
  });

  it('sets the session cookie HttpOnly, SameSite=Lax, Path=/ and, without TRUST_PROXY, not Secure', async () => {
    const login = await t.app.inject({ method: 'POST', url: `${API}/auth/login`, payload: { username: 'admin', password: 'Admin-Test-Pass-1' } });
    const set = String(login.headers['set-cookie']);
    expect(set).toMatch(/^lawrisk_sid=[A-Za-z0-9_-]{43};/);
    expect(set).toContain('HttpOnly');
    expect(set).toContain('SameSite=Lax');
    expect(set).toContain('Path=/');
    expect(set).toContain(`Max-Age=${12 * 60 * 60}`);
    expect(cookieAttributes(login.headers['set-cookie'])).not.toContain('secure');
    expect(cookieAttributes(login.headers['set-cookie'])).not.toContain('domain');

    const cookie = set.split(';')[0];
    const out = await t.app.inject({ method: 'POST', url: `${API}/auth/logout`, headers: { cookie } });
    const cleared = String(out.headers['set-cookie']);
    expect(cleared).toMatch(/^lawrisk_sid=;/);
    for (const attr of ['HttpOnly', 'SameSite=Lax', 'Path=/']) expect(cleared).toContain(attr);
    expect(cookieAttributes(out.headers['set-cookie'])).not.toContain('secure');
  });

  it('marks the session cookie Secure and sends HSTS exactly when TRUST_PROXY is on', async () => {
    const proxied = await buildTestApp('sqlite', { env: { TRUST_PROXY: 'on' } });
    try {
      const login = await proxied.app.inject({
        method: 'POST',
        url: `${API}/auth/login`,
        payload: { username: 'admin', password: 'Admin-Test-Pass-1' },
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(login.statusCode).toBe(200);
      const attrs = cookieAttributes(login.headers['set-cookie']);
      expect(attrs).toEqual(expect.arrayContaining(['secure', 'httponly', 'samesite', 'path']));
      const out = await proxied.app.inject({
        method: 'POST',
        url: `${API}/auth/logout`,
        headers: { cookie: String(login.headers['set-cookie']).split(';')[0], 'x-forwarded-proto': 'https' },
      });
      expect(cookieAttributes(out.headers['set-cookie'])).toContain('secure');
      const page = await proxied.app.inject({ url: `${API}/login`, headers: { 'x-forwarded-proto': 'https' } });
      expect(page.headers['strict-transport-security']).toMatch(/^max-age=\d+/);
    } finally {
      await proxied.close();
    }
  });
});
