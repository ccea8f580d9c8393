import type { AddressInfo } from 'node:net';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, API, buildTestApp, type TestApp } from '../helpers/test-app.js';
import { launchBrowser, type LaunchedBrowser } from './browser.js';
import { logIn, textOf } from './ui.js';

/**
 * Each built page loaded in a real browser under the service's Content-Security-Policy: the page
 * renders, the browser reports no violation and the HTML holds no inline script. A probe page
 * with an inline script proves the violations would be seen.
 */

const PROBE = `${API}/csp-probe`;

let t: TestApp;
let browser: LaunchedBrowser;
let page: Page;
let base = '';
const violations: string[] = [];
const pageErrors: string[] = [];

beforeAll(async () => {
  t = await buildTestApp('sqlite', { env: { LOGIN_RATE_LIMIT: '0' } });
  t.app.get(PROBE, { config: { guard: 'public' } }, async (_req, reply) =>
    reply.type('text/html; charset=utf-8').send('<!doctype html><title>probe</title><script>document.title = "ran"</script>'),
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  browser = await launchBrowser();
  page = browser.context.pages()[0] ?? (await browser.context.newPage());
  page.setDefaultTimeout(15_000);
  // Both ways a violation surfaces: the page's own event (reported through a binding, which the
  // CSP does not govern) and the console message the browser prints.
  await page.exposeFunction('reportCspViolation', (v: string) => void violations.push(v));
  await page.addInitScript({
    content: "document.addEventListener('securitypolicyviolation', (e) => window.reportCspViolation(e.violatedDirective + ' ' + e.blockedURI));",
  });
  page.on('console', (msg) => {
    if (/Content Security Policy/i.test(msg.text())) violations.push(msg.text());
  });
  page.on('pageerror', (err) => pageErrors.push(err.message));
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await t?.close();
});

/** Loads a page and returns its HTML as the server sent it. */
async function load(path: string): Promise<string> {
  const res = await page.goto(`${base}${API}${path}`);
  expect(res?.status(), path).toBe(200);
  return res!.text();
}

function expectNoInlineScript(html: string, path: string) {
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
  expect(scripts.length, path).toBeGreaterThan(0);
  for (const [, attrs, body] of scripts) {
    expect(attrs, path).toMatch(/\bsrc=/);
    expect(body.trim(), path).toBe('');
  }
}

describe('the pages under the Content-Security-Policy in a real browser', { timeout: 60_000 }, () => {
  it('sees a violation when a page carries an inline script (the detector works)', async () => {
    await page.goto(`${base}${PROBE}`);
    await expect.poll(() => violations.length).toBeGreaterThan(0);
    expect(await page.title()).toBe('probe'); // the inline script did not run
    violations.length = 0;
  });

  it('renders the login page and logs in without a violation', async () => {
    const html = await load('/login');
    expectNoInlineScript(html, '/login');
    await textOf(page.locator('input[name=username]'));
    await logIn(page, `${base}${API}/login`, 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/db_admin/);
    expect(violations).toEqual([]);
  });

  it.each([
    ['/', '.ask-title'],
    ['/search?q=%E9%A3%9F%E5%93%81%E7%BB%8F%E8%90%A5%E8%AE%B8%E5%8F%AF', '.no-match'],
    ['/db_admin', '.user-name'],
    ['/admin/super', '.el-main'],
    ['/admin/v2-debug', 'input[name=query]'],
  ])('renders %s without a violation', async (path, rendered) => {
    const html = await load(path);
    expectNoInlineScript(html, path);
    await textOf(page.locator(rendered));
    await page.waitForLoadState('networkidle');
    expect(violations).toEqual([]);
    expect(pageErrors).toEqual([]);
  });
});
