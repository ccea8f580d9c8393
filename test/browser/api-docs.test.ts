import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API, buildTestApp, type TestApp } from '../helpers/test-app.js';
import { launchBrowser, type LaunchedBrowser } from './browser.js';
import { textOf } from './ui.js';

/** Swagger UI at {api_root}/docs in a real browser, under the service's Content Security Policy. */
describe('the API documentation page in a real browser', { timeout: 90_000 }, () => {
  let t: TestApp;
  let base: string;
  let browser: LaunchedBrowser;
  let page: Page;
  const pageErrors: string[] = [];
  const cspViolations: string[] = [];

  beforeAll(async () => {
    [t, browser] = await Promise.all([buildTestApp('sqlite'), launchBrowser()]);
    base = await t.app.listen({ port: 0, host: '127.0.0.1' });
    page = browser.context.pages()[0] ?? (await browser.context.newPage());
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (err) => pageErrors.push(err.message));
    page.on('console', (msg) => {
      if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) cspViolations.push(msg.text());
    });
  }, 120_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  it('renders every section of the document and opens an operation, with no script error or CSP violation', async () => {
    const doc = (await (await fetch(`${base}${API}/openapi.json`)).json()) as { paths: Record<string, Record<string, { tags: string[] }>> };
    const tags = new Set(Object.values(doc.paths).flatMap((m) => Object.values(m).flatMap((op) => op.tags)));

    await page.goto(`${base}${API}/docs`);
    expect(await textOf(page.locator('.swagger-ui .info .title'))).toContain('lawrisk');
    await expect.poll(() => page.locator('.opblock-tag-section').count()).toBe(tags.size);

    await page.locator('.opblock-tag[data-tag="search"]').click();
    const search = page
      .locator('.opblock-tag-section')
      .filter({ has: page.locator('[data-tag="search"]') })
      .locator('.opblock');
    await expect.poll(() => search.count()).toBeGreaterThan(0);
    await search.filter({ hasText: 'Search permits and their risks (query string)' }).locator('.opblock-summary').click();
    expect(await textOf(page.locator('.opblock.is-open .parameters-container'))).toContain('query');

    expect(pageErrors).toEqual([]);
    expect(cspViolations).toEqual([]);
  });
});
