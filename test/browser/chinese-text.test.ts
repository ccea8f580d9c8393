import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPageWorld, type PageWorld } from './page-world.js';
import { logIn, settled, textOf } from './ui.js';

/**
 * Everything a person reads in the pages is Chinese (docs/pages.md, "Chinese for users"): every
 * view of every page, in the states that show the server's own words (a checkpoint restored, an
 * edit, a failed login, a deleted permit opened), holds no ASCII word of three letters or more
 * but the codes, units and names on the list below.
 */

const ADMIN_PASSWORD = 'Words-Admin-12345';
/** Words that are names or codes, not language: they stay as they are. */
const ALLOWED = new Set([
  'admin',
  'xlsx',
  'json',
  'excel',
  'Excel',
  'KTV',
  'PDF',
  'URL',
  'API',
  'MCP',
  'HTTP',
  'JSON',
  'SQLite',
  'PostgreSQL',
  'ASCII',
  'Alt',
  'Enter',
  'Bearer',
  'wangba',
  'lawrisk',
  'UTC',
  'IP',
]);

let world: PageWorld;
let page: Page;

const url = (path: string) => world.url(path);

/** The ASCII words of three letters or more the page shows now, outside the allowed list and what data of the catalogue holds. */
async function englishWords(data: Set<string>): Promise<string[]> {
  await settled(page);
  // Codes are shown as code (monospace: ids, hashes, file names, a request's own JSON): not prose.
  const text = await page.evaluate<string>(`(() => {
    const copy = document.body.cloneNode(true);
    copy.querySelectorAll('.mono, .json-view, script, style').forEach((e) => e.remove());
    document.body.appendChild(copy);
    copy.style.position = 'absolute';
    const text = copy.innerText;
    copy.remove();
    return text;
  })()`);
  const words = text.match(/[A-Za-z][A-Za-z-]{2,}/g) ?? [];
  return [...new Set(words.filter((w) => !ALLOWED.has(w) && !data.has(w)))];
}

beforeAll(async () => {
  world = await openPageWorld({ DEMO_DATA: '1', ADMIN_PASSWORD, LOGIN_RATE_LIMIT: '0', SEARCH_RATE_LIMIT: '0' });
  page = world.page;
}, 120_000);

afterAll(async () => world?.close());

describe('Chinese for everything a person reads', { timeout: 120_000 }, () => {
  /** ASCII words the catalogue itself holds (codes such as 511A…, names with latin letters) are data, not text of ours. */
  const data = new Set<string>();
  const found: Record<string, string[]> = {};
  const check = async (where: string) => {
    const words = await englishWords(data);
    if (words.length > 0) found[where] = words;
  };

  it('walks every view', async () => {
    await page.goto(url(`/?q=${encodeURIComponent('开奶茶店要办什么证')}`));
    await page.locator('.results-title').waitFor();
    await page.locator('details.risk summary').first().click();
    await check('the public search page');
    await page.goto(url('/login?error=credentials'));
    await textOf(page.getByRole('alert'));
    await check('login, failed');
    await logIn(page, url('/login'), 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/db_admin/);
    const res = await page.request.post(url('/admin/permits/advanced-filter'), { data: { limit: 2000 } });
    for (const p of ((await res.json()) as { data: { permits: { code: string | null; name: string }[] } }).data.permits) {
      for (const w of `${p.code ?? ''} ${p.name}`.match(/[A-Za-z][A-Za-z-]{2,}/g) ?? []) data.add(w);
    }

    // A checkpoint restored (its automatic backup is listed) and a permit edited (its snapshot is listed).
    const cp = await page.request.post(url('/admin/checkpoints'), { data: { description: '词语检查' }, headers: { origin: world.server.base } });
    const id = ((await cp.json()) as { data: { checkpoint_id: string } }).data.checkpoint_id;
    const restored = await page.request.post(url(`/admin/checkpoints/${id}/restore`), {
      data: { create_auto_backup: true },
      headers: { origin: world.server.base },
    });
    expect(restored.status()).toBe(200);

    const views = [
      '/db_admin#/dashboard',
      '/db_admin#/permits',
      '/db_admin#/snapshots',
      '/db_admin#/import',
      '/db_admin#/files',
      '/db_admin#/checkpoints',
      '/db_admin#/search-analytics',
      '/db_admin#/search-lexicon',
      '/db_admin#/logs',
      '/admin/super#/users',
      '/admin/super#/departments',
      '/admin/super#/themes',
      '/admin/super#/regions',
      '/admin/super#/template',
      '/admin/v2-debug?q=%E5%BC%80%E5%A5%B6%E8%8C%B6%E5%BA%97',
    ];
    for (const view of views) {
      await page.goto(url(view));
      await page.locator('.el-main').waitFor();
      await page.waitForTimeout(600);
      await check(view);
    }
    // The checkpoints' details, expanded.
    await page.goto(url('/db_admin#/checkpoints'));
    await page.locator('.el-table__expand-icon').first().click();
    await check('checkpoint details');
    // The operation log's details, expanded.
    await page.goto(url('/db_admin#/logs'));
    await page.locator('.el-table__expand-icon').first().click();
    await check('operation log details');
    // A permit that does not exist any more, opened from an old link.
    await page.goto(url('/db_admin#/permit?region=1&permit=999999'));
    await page.waitForTimeout(800);
    await check('a deleted permit');
    expect(found).toEqual({});
  });
});
