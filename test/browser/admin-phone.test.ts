import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/server-process.js';
import { openPageWorld, type PageWorld } from './page-world.js';
import { logIn, settled, textOf } from './ui.js';

/**
 * Every administration page on a phone (390 px) against the real server with the demo data: the
 * menu is a drawer, the page never scrolls sideways (wide tables scroll inside their card), and
 * each view shows its content. A screenshot of each goes to test-output/admin-phone/.
 */

const ADMIN_PASSWORD = 'Phone-Admin-1234';
const SHOTS = join(PROJECT_ROOT, 'test-output', 'admin-phone');
const PHONE = { width: 390, height: 844 };

let world: PageWorld;
let page: Page;
let shot = 0;

const url = (path: string) => world.url(path);

/** Each table's box, and how far its body scrolls sideways inside it. */
const tables = () =>
  page.evaluate<{ left: number; right: number; inside: number }[]>(`[...document.querySelectorAll('.el-main .el-table')].map((t) => {
    const box = t.getBoundingClientRect(), body = t.querySelector('.el-table__body-wrapper .el-scrollbar__wrap');
    return { left: box.left, right: box.right, inside: body ? body.scrollWidth - body.clientWidth : 0 };
  })`);

/** How far the page and its main area scroll sideways (both 0 when the view fits the phone). */
const sidewaysScroll = () =>
  page.evaluate<{ page: number; main: number }>(`(() => {
    const root = document.documentElement, main = document.querySelector('.el-main');
    return { page: root.scrollWidth - root.clientWidth, main: main ? main.scrollWidth - main.clientWidth : 0 };
  })()`);

async function screenshot(name: string): Promise<void> {
  await settled(page);
  await page.waitForTimeout(300);
  shot += 1;
  await page.screenshot({ path: join(SHOTS, `${String(shot).padStart(2, '0')}-${name}.png`), fullPage: true });
}

/** A visible permit of the demo data, as the details view is addressed. */
async function somePermit(): Promise<{ region: string; permit: string }> {
  const res = await fetch(url(`/v2?query=${encodeURIComponent('食品经营许可')}`));
  const item = ((await res.json()) as { data: { risk_subject: { permit: { id: string }; region: { id: string } }[] } }).data.risk_subject[0];
  return { region: item.region.id, permit: item.permit.id };
}

beforeAll(async () => {
  rmSync(SHOTS, { recursive: true, force: true });
  mkdirSync(SHOTS, { recursive: true });
  world = await openPageWorld({ DEMO_DATA: '1', ADMIN_PASSWORD, LOGIN_RATE_LIMIT: '0', SEARCH_RATE_LIMIT: '0' });
  page = world.page;
  await page.setViewportSize(PHONE);
}, 120_000);

afterAll(async () => world?.close());

describe('every administration page on a phone (390 px)', { timeout: 90_000 }, () => {
  it('logs in on a phone', async () => {
    await page.goto(url('/login'));
    expect(await sidewaysScroll()).toEqual({ page: 0, main: 0 });
    await screenshot('login');
    await logIn(page, url('/login'), 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/db_admin/);
  });

  it('opens each view from the menu drawer', async () => {
    await page.goto(url('/db_admin#/dashboard'));
    await textOf(page.locator('.el-main').getByText('各区域许可事项数'));
    // The menu is hidden until opened; the drawer lists the views and the consoles.
    expect(await page.locator('.aside').boundingBox()).toMatchObject({ x: expect.any(Number) });
    expect((await page.locator('.aside').boundingBox())!.x).toBeLessThan(0);
    await page.getByRole('button', { name: '打开菜单' }).click();
    const drawer = page.locator('.aside.open');
    await expect.poll(async () => (await drawer.boundingBox())?.x).toBe(0);
    expect(await drawer.locator('.drawer-consoles a').allInnerTexts()).toEqual(['数据库管理', '超级管理', '检索调试']);
    await screenshot('menu-drawer');
    await drawer.getByText('许可事项', { exact: true }).click();
    await page.waitForURL(/#\/permits$/);
    await expect.poll(async () => (await page.locator('.aside').boundingBox())!.x).toBeLessThan(0);
  });

  const views: [string, string, string][] = [
    ['/db_admin#/dashboard', '各区域许可事项数', 'dashboard'],
    ['/db_admin#/permits', '事项编码', 'permits'],
    ['/db_admin#/snapshots', '快照原因', 'snapshots'],
    ['/db_admin#/import', '上传文件', 'import'],
    ['/db_admin#/files', '.xlsx', 'files'],
    ['/db_admin#/checkpoints', '创建检查点', 'checkpoints'],
    ['/db_admin#/search-analytics', '查询次数', 'search-analytics'],
    ['/db_admin#/search-lexicon', '新增词条', 'search-lexicon'],
    ['/db_admin#/logs', '摘要', 'operation-log'],
    ['/admin/super#/users', 'admin', 'super-users'],
    ['/admin/super#/departments', '部门', 'super-departments'],
    ['/admin/super#/themes', '主题', 'super-themes'],
    ['/admin/super#/regions', '广安区', 'super-regions'],
    ['/admin/super#/template', '下载模板', 'super-template'],
  ];
  it.each(views)('%s fits the phone', async (path, text, name) => {
    await page.goto(url(path));
    await textOf(page.locator('.el-main').getByText(text).first());
    await screenshot(name);
    expect(await sidewaysScroll()).toEqual({ page: 0, main: 0 });
    // Every table lies within the screen; one wider than it scrolls inside its card.
    for (const table of await tables()) expect(table.left >= 0 && table.right <= PHONE.width, JSON.stringify(table)).toBe(true);
  });

  it('scrolls a wide table inside its card', async () => {
    await page.goto(url('/db_admin#/permits'));
    await textOf(page.locator('.el-main').getByText('事项编码').first());
    await settled(page);
    const [list] = await tables();
    expect(list.inside).toBeGreaterThan(100);
    expect(list.right).toBeLessThanOrEqual(PHONE.width);
  });

  it.each([
    ['/admin/super#/users', '新建用户', '新建用户', 'dialog-new-user'],
    ['/admin/super#/regions', '新建区域', '新建区域', 'dialog-new-region'],
    ['/db_admin#/checkpoints', '创建检查点', '创建检查点', 'dialog-new-checkpoint'],
  ])('%s: the dialog of %s fits the phone', async (path, button, title, name) => {
    await page.goto(url(path));
    await page.locator('.el-main').getByRole('button', { name: button }).first().click();
    const opened = page.locator('.el-dialog').filter({ has: page.locator('.el-dialog__title', { hasText: title }) });
    await opened.waitFor();
    await screenshot(name);
    const box = (await opened.boundingBox())!;
    expect(box.x).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width).toBeLessThanOrEqual(PHONE.width);
    expect((await sidewaysScroll()).page).toBe(0);
    await opened.getByRole('button', { name: '取消' }).click();
    await opened.waitFor({ state: 'hidden' });
  });

  it('the permit details fit the phone', async () => {
    const { region, permit } = await somePermit();
    await page.goto(url(`/db_admin#/permit?region=${region}&permit=${permit}`));
    await textOf(page.locator('.el-main').getByText('风险').first());
    await settled(page);
    expect(await sidewaysScroll()).toEqual({ page: 0, main: 0 });
    await screenshot('permit-details');
  });

  it('the search console fits the phone, asking and reading the answer', async () => {
    await page.goto(url(`/admin/v2-debug?q=${encodeURIComponent('开奶茶店要办什么证')}`));
    await textOf(page.locator('.result-card').first().locator('.name'));
    expect(await sidewaysScroll()).toEqual({ page: 0, main: 0 });
    const box = await page.locator('input[name=query]').boundingBox();
    expect(box!.width).toBeGreaterThan(150);
    await screenshot('v2-debug');
  });

  it('ran without script errors or Content-Security-Policy violations', () => {
    expect([...world.pageErrors, ...world.cspViolations]).toEqual([]);
  });
});
