import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { AxeBuilder } from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { pageSizes } from '../../scripts/build-pages.mjs';
import { PROJECT_ROOT } from '../helpers/server-process.js';
import { openPageWorld, type PageWorld } from './page-world.js';

/**
 * The applicants' search page in a real browser against the real server with the demo data: on a
 * phone and on a desktop, asking, suggestions, regions, no answer, risk details, the notice (print
 * and shared link), errors, accessibility (axe) and no sideways scrolling at any width.
 */

const API = '/app/api/workflow/lawrisk';
const SHOTS = join(PROJECT_ROOT, 'test-output', 'public-search');
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1440, height: 900 };
const QUESTION = '开奶茶店要办什么证';
const NOTHING = '宇宙飞船发射';

let world: PageWorld;
let page: Page;
let shot = 0;
/** The address of the notice made from the results (the shared link). */
let noticeUrl = '';

const url = (path: string) => world.url(path);

async function screenshot(name: string, fullPage = false): Promise<void> {
  await page.waitForTimeout(200);
  shot += 1;
  await page.screenshot({ path: join(SHOTS, `${String(shot).padStart(2, '0')}-${name}.png`), fullPage });
}

/** Serious and critical accessibility violations of the page as it is now. */
async function axeProblems(): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** How far the page scrolls sideways (0 when it fits the screen). */
const sidewaysScroll = () => page.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth');

async function ask(question: string): Promise<void> {
  await page.getByRole('combobox', { name: '您想办理什么事项' }).fill(question);
  await page.getByRole('button', { name: '查询', exact: true }).click();
  await page.locator('.results-title, .no-match, .problem').first().waitFor();
}

const cards = () => page.locator('article.permit-card');

beforeAll(async () => {
  rmSync(SHOTS, { recursive: true, force: true });
  mkdirSync(SHOTS, { recursive: true });
  world = await openPageWorld({ DEMO_DATA: '1', SEARCH_RATE_LIMIT: '0' });
  page = world.page;
}, 120_000);

afterAll(async () => world?.close());

describe('the public search page in a real browser', { timeout: 90_000 }, () => {
  it('loads at most 100 kB of its own JS + CSS (gzip)', () => {
    const search = pageSizes().find((p) => p.page === 'search.html')!;
    console.log(`public search page: ${(search.gzip / 1024).toFixed(1)} kB gzip of JS + CSS`);
    expect(search.gzip).toBeLessThanOrEqual(100 * 1024);
  });

  it("is where the site's root leads, with a link from the login page and an icon", async () => {
    await page.setViewportSize(PHONE);
    await page.goto(`${world.server.base}/`);
    expect(new URL(page.url()).pathname).toBe(`${API}/`);
    await expect.poll(() => page.title()).toBe('许可事项风险查询');
    const icon = await page.locator('link[rel=icon]').getAttribute('href');
    expect((await fetch(new URL(icon!, page.url()))).headers.get('content-type')).toBe('image/svg+xml');
    expect((await fetch(`${world.server.base}/favicon.ico`)).status).toBe(200);

    await page.goto(url('/login'));
    await page.getByRole('link', { name: /查询办事需要的许可/ }).click();
    await page.getByRole('heading', { level: 1 }).waitFor();
    expect(new URL(page.url()).pathname).toBe(`${API}/`);
  });

  it('on a phone: example questions, then suggestions while typing (at most one request per 150 ms)', async () => {
    await page.goto(url('/search'));
    await page.getByRole('heading', { name: '大家都在问' }).waitFor();
    expect(await page.locator('.chips .chip').count()).toBeGreaterThan(2);
    expect(await sidewaysScroll()).toBe(0);
    expect(await axeProblems()).toEqual([]);
    await screenshot('phone-empty');

    const box = page.getByRole('combobox', { name: '您想办理什么事项' });
    // Quick keystrokes: fewer requests than keystrokes, at least 150 ms apart, the last text answered.
    await box.pressSequentially('奶茶店关', { delay: 40 });
    const list = page.getByRole('listbox', { name: '搜索建议' });
    await list.waitFor();
    // The answer for the whole text replaces those for its first characters.
    await expect.poll(async () => (await list.getByRole('option').allInnerTexts()).every((o) => o.includes('奶茶店'))).toBe(true);
    const options = await list.getByRole('option').allInnerTexts();
    expect(options.length).toBeGreaterThan(0);
    await expect.poll(() => box.getAttribute('aria-expanded')).toBe('true');
    await screenshot('phone-suggestions');
    const starts = await page.evaluate<number[]>(
      "performance.getEntriesByType('resource').filter((e) => e.name.includes('/v2/suggest?q=')).map((e) => e.startTime)",
    );
    expect(starts.length).toBeGreaterThan(0);
    expect(starts.length).toBeLessThan(4);
    for (let i = 1; i < starts.length; i++) expect(starts[i] - starts[i - 1]).toBeGreaterThanOrEqual(149);

    // Choosing with the keyboard asks the suggestion.
    await box.press('ArrowDown');
    await box.press('Enter');
    await page.locator('.results-title, .no-match').first().waitFor();
    expect(new URL(page.url()).searchParams.get('q')).toBe(options[0].replace(/^\S+\s*/, '').trim());
  });

  it('on a phone: the answer with departments, a phone to tap, risks most serious first and their details', async () => {
    await ask(QUESTION);
    expect(await page.locator('.results-title').innerText()).toMatch(/找到 \d+ 个相关许可事项/);
    expect(new URL(page.url()).searchParams.get('q')).toBe(QUESTION);
    const first = cards().first();
    expect(await first.locator('.permit-name').innerText()).toContain('食品');
    expect(await first.locator('dd').nth(2).innerText()).not.toBe('—');
    const tel = await first.locator('a.tel').first().getAttribute('href');
    expect(tel).toMatch(/^tel:\d{7,12}$/);

    const order = { 高: 0, 中: 1, 低: 2 } as Record<string, number>;
    for (const card of await cards().all()) {
      const levels = (await card.locator('summary .level').allInnerTexts()).map((t) => order[t.replace('风险', '')] ?? 3);
      expect(levels).toEqual([...levels].sort((a, b) => a - b));
    }

    const risk = first.locator('details.risk').first();
    await risk.locator('summary').click();
    const body = await risk.locator('.risk-body').innerText();
    for (const label of ['法律依据', '法律后果', '防范建议']) expect(body).toContain(label);
    expect(await sidewaysScroll()).toBe(0);
    expect(await axeProblems()).toEqual([]);
    await screenshot('phone-results');
    await screenshot('phone-results-full', true);

    // The words of the question are marked where the permit's text holds them.
    await ask('建筑施工许可 风险');
    expect(await cards().first().locator('.permit-name mark.hit').allInnerTexts()).toEqual(['建筑施工许可']);
  });

  it('keeps the region chosen, in the address and in the browser, and takes one from a link', async () => {
    const select = page.getByLabel('办事区域');
    await select.selectOption({ label: '前锋区' });
    await page.locator('.results-title, .no-match').first().waitFor();
    await expect.poll(() => new URL(page.url()).searchParams.get('region')).toBe('511603');
    await expect.poll(() => page.locator('.results-title').innerText()).toContain('前锋区');
    const regions = (await cards().locator('.facts > div:first-child dd').allInnerTexts()).map((t) => t.trim());
    expect(regions.length).toBeGreaterThan(0);
    expect(new Set(regions)).toEqual(new Set(['前锋区']));

    // Remembered in this browser: a bare visit opens on it.
    await page.goto(url('/'));
    await page.getByRole('heading', { name: '大家都在问' }).waitFor();
    await expect.poll(() => select.inputValue()).toBe('3');

    // A district's website links to its own region by name.
    await page.goto(url(`/search?region=${encodeURIComponent('广安区')}&q=${encodeURIComponent(QUESTION)}`));
    await page.locator('.results-title').waitFor();
    expect(await select.inputValue()).toBe('2');
    expect(await page.locator('.results-title').innerText()).toContain('广安区');
  });

  it('says clearly when nothing is found, shows no unrelated permit, and offers a way on', async () => {
    await ask(NOTHING);
    expect(await page.getByRole('heading', { name: `没有找到与“${NOTHING}”相关的许可事项` }).count()).toBe(1);
    expect(await cards().count()).toBe(0);
    expect(await page.locator('.no-match .chip').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: '在全部区域中查找' }).waitFor();
    expect(await sidewaysScroll()).toBe(0);
    expect(await axeProblems()).toEqual([]);
    await screenshot('phone-no-match');
    await page.getByRole('button', { name: '在全部区域中查找' }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('region')).toBe(null);
  });

  it('makes a one-time notice of chosen permits: printed alone on paper, and the same by its shared link', async () => {
    await page.setViewportSize(DESKTOP);
    await ask(QUESTION);
    const names = await cards().locator('.permit-name').allInnerTexts();
    expect(names.length).toBeGreaterThan(1);
    await cards().nth(0).getByLabel('加入告知单').check();
    await cards().nth(1).getByLabel('加入告知单').check();
    expect(await page.locator('.notice-bar').innerText()).toContain('已选 2 个事项');
    expect(await axeProblems()).toEqual([]);
    await screenshot('desktop-results');
    await page.getByRole('button', { name: '生成告知单' }).click();

    const notice = page.locator('section.notice');
    await notice.getByRole('heading', { name: '许可事项法律风险一次性告知单' }).waitFor();
    expect(await notice.locator('.notice-permit h2').allInnerTexts()).toEqual([`1. ${names[0]}`, `2. ${names[1]}`]);
    const meta = await notice.locator('.notice-meta').innerText();
    expect(meta).toMatch(/告知日期：\d{4}年\d{1,2}月\d{1,2}日/);
    expect(meta).toContain('所属区域：');
    expect(await notice.locator('.notice-risks').first().locator('th').allInnerTexts()).toEqual(['等级', '风险', '法律依据', '防范建议']);
    expect(await axeProblems()).toEqual([]);
    const ids = new URL(page.url()).searchParams.get('notice')!.split(',');
    expect(ids).toHaveLength(2);
    noticeUrl = page.url();
    await screenshot('desktop-notice');

    await page.emulateMedia({ media: 'print' });
    expect(await page.locator('.site-head').isVisible()).toBe(false);
    expect(await notice.locator('.notice-actions').isVisible()).toBe(false);
    expect(await notice.locator('.notice-risks thead').first().isVisible()).toBe(true);
    await screenshot('desktop-notice-print', true);
    await page.emulateMedia({ media: 'screen' });

    // The shared link, opened by someone else on a phone.
    const shared = await world.browser.context.newPage();
    await shared.setViewportSize(PHONE);
    await shared.goto(noticeUrl);
    await shared.locator('.notice-permit').first().waitFor();
    expect(await shared.locator('.notice-permit h2').allInnerTexts()).toEqual([`1. ${names[0]}`, `2. ${names[1]}`]);
    expect(await shared.evaluate<number>('document.documentElement.scrollWidth - window.innerWidth')).toBe(0);
    await shared.screenshot({ path: join(SHOTS, `${String(++shot).padStart(2, '0')}-phone-shared-notice.png`), fullPage: true });
    await shared.close();

    // Back to the answer the notice was made from.
    await page.getByRole('button', { name: '返回查询' }).click();
    await page.locator('.results-title').waitFor();
  });

  it("on a desktop: asking in a region, a risk's details, and no match", async () => {
    await page.setViewportSize(DESKTOP);
    await page.goto(url(`/?region=511603`));
    await page.getByRole('heading', { name: '大家都在问' }).waitFor();
    await ask('建筑施工许可');
    expect(await page.locator('.results-title').innerText()).toContain('前锋区');
    const first = cards().first();
    expect(await first.locator('.permit-name mark.hit').allInnerTexts()).toEqual(['建筑施工许可']);
    await first.locator('details.risk summary').first().click();
    expect(await first.locator('details.risk[open] .risk-body').innerText()).toContain('法律依据');
    // Side by side on a wide screen: the region, the box and the button share one row.
    const [region, box] = await Promise.all([
      page.getByLabel('办事区域').boundingBox(),
      page.getByRole('combobox', { name: '您想办理什么事项' }).boundingBox(),
    ]);
    expect(Math.abs(region!.y - box!.y)).toBeLessThan(10);
    expect(await axeProblems()).toEqual([]);
    await screenshot('desktop-region-risk');
    await ask(NOTHING);
    expect(await cards().count()).toBe(0);
    expect(await page.getByRole('heading', { name: `没有找到与“${NOTHING}”相关的许可事项` }).count()).toBe(1);
    await screenshot('desktop-no-match');
  });

  it('never scrolls sideways from 360 to 1440 px, asking or reading a notice', async () => {
    for (const width of [360, 390, 768, 1024, 1280, 1440]) {
      await page.setViewportSize({ width, height: 800 });
      await page.goto(url(`/search?q=${encodeURIComponent(QUESTION)}`));
      await page.locator('.results-title').waitFor();
      await cards().first().locator('details.risk summary').first().click();
      expect({ width, scroll: await sidewaysScroll() }).toEqual({ width, scroll: 0 });
      await page.goto(noticeUrl);
      await page.locator('.notice-permit').first().waitFor();
      expect({ width, notice: await sidewaysScroll() }).toEqual({ width, notice: 0 });
    }
  });

  it('paints the first answer soon after the page starts loading (printed, Performance API)', async () => {
    await page.setViewportSize(PHONE);
    await page.goto(url(`/search?q=${encodeURIComponent(QUESTION)}`));
    await page.locator('.results-title').waitFor();
    const painted = await page.evaluate<number>(
      "new Promise((resolve) => { const read = () => { const m = performance.getEntriesByName('lawrisk:first-results')[0]; if (m) resolve(m.startTime); else setTimeout(read, 20); }; read(); })",
    );
    console.log(`public search page: first results painted ${painted.toFixed(0)} ms after the page started loading`);
    expect(painted).toBeGreaterThan(0);
  });

  it('follows the back and forward buttons: the question, the region and the notice as the address says', async () => {
    await page.setViewportSize(PHONE);
    const select = page.getByLabel('办事区域');
    await page.goto(url(`/search?region=511603&q=${encodeURIComponent(QUESTION)}`));
    await page.locator('.results-title').waitFor();
    await select.selectOption({ label: '全部区域' });
    await expect.poll(() => new URL(page.url()).searchParams.get('region')).toBe(null);
    await ask('建筑施工许可');
    await page.goBack();
    await expect.poll(() => page.locator('.results-title').innerText()).not.toContain('（');
    expect(await page.getByRole('combobox', { name: '您想办理什么事项' }).inputValue()).toBe(QUESTION);
    expect(await select.inputValue()).toBe('');
    await page.goto(noticeUrl);
    await page.locator('.notice-permit').first().waitFor();
    await page.goBack();
    await page.locator('.results-title').waitFor();
    await page.goForward();
    await page.locator('.notice-permit').first().waitFor();
    expect(await page.locator('.notice-permit').count()).toBe(2);
  });

  it('searches every region when the region list cannot be read', async () => {
    await page.route('**/v2/regions*', (route) => route.abort('connectionrefused'));
    await page.goto(url(`/search?q=${encodeURIComponent(QUESTION)}`));
    await page.locator('.results-title').waitFor();
    expect(await page.getByLabel('办事区域').locator('option').allInnerTexts()).toEqual(['全部区域']);
    await page.unroute('**/v2/regions*');
  });

  it('tells the person in Chinese when the service is unreachable or asks them to wait', async () => {
    await page.goto(url('/search'));
    await page.getByRole('heading', { name: '大家都在问' }).waitFor();
    await page.route('**/v2?*', (route) =>
      route.fulfill({
        status: 429,
        headers: { 'retry-after': '30', 'content-type': 'application/json' },
        body: JSON.stringify({ success: false, message: '请求过于频繁，请稍后再试' }),
      }),
    );
    await ask(QUESTION);
    expect(await page.getByRole('alert').innerText()).toContain('查询过于频繁，请在 30 秒后重试');
    await screenshot('phone-rate-limited');
    await page.unroute('**/v2?*');

    await page.route('**/v2?*', (route) => route.abort('connectionrefused'));
    await page.getByRole('button', { name: '重试' }).click();
    await expect.poll(() => page.getByRole('alert').innerText()).toContain('无法连接到查询服务，请检查网络后重试');
    await page.unroute('**/v2?*');

    await page.getByRole('button', { name: '重试' }).click();
    await page.locator('.results-title').waitFor();
  });

  it('ran without script errors or Content-Security-Policy violations', () => {
    expect([...world.pageErrors, ...world.cspViolations]).toEqual([]);
  });
});
