import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/server-process.js';
import { openPageWorld, type PageWorld } from './page-world.js';
import { clickInMessageBox, dialog, logIn, settled, successMessage, textOf } from './ui.js';

/**
 * Editing the catalogue in the pages, against the real server with the demo data: a permit's
 * fields and risks, a refusal shown at its field, the edit undone from its snapshot, and a
 * permit without a theme deleted by binding one first. Screenshots in test-output/permit-edit/.
 */

const ADMIN_PASSWORD = 'Edit-Admin-12345';
const SHOTS = join(PROJECT_ROOT, 'test-output', 'permit-edit');

let world: PageWorld;
let page: Page;
let shot = 0;

interface Listed {
  id: string;
  region_id: string;
  name: string;
  contact_info: string | null;
  themes: unknown[];
}

const url = (path: string) => world.url(path);

async function screenshot(name: string): Promise<void> {
  await settled(page);
  await page.waitForTimeout(300);
  shot += 1;
  await page.screenshot({ path: join(SHOTS, `${String(shot).padStart(2, '0')}-${name}.png`) });
}

/** Permits of the demo data as the API lists them (the test picks its subjects there). */
async function permits(query: Record<string, string>): Promise<Listed[]> {
  const res = await page.request.post(url('/admin/permits/advanced-filter'), { data: { ...query, limit: 100 } });
  return ((await res.json()) as { data: { permits: Listed[] } }).data.permits;
}

async function openDetails(p: Listed): Promise<void> {
  await page.goto(url(`/db_admin#/permit?region=${p.region_id}&permit=${p.id}`));
  await textOf(page.locator('.el-page-header').getByText(p.name));
}

beforeAll(async () => {
  rmSync(SHOTS, { recursive: true, force: true });
  mkdirSync(SHOTS, { recursive: true });
  world = await openPageWorld({ DEMO_DATA: '1', ADMIN_PASSWORD, LOGIN_RATE_LIMIT: '0', SEARCH_RATE_LIMIT: '0' });
  page = world.page;
  await logIn(page, url('/login'), 'admin', ADMIN_PASSWORD);
  await page.waitForURL(/\/db_admin/);
}, 120_000);

afterAll(async () => world?.close());

describe('editing the catalogue in the pages', { timeout: 90_000 }, () => {
  let subject: Listed;
  const NEW_CONTACT = '0826-2999999（浏览器测试）';
  const NEW_RISK = '浏览器测试新增的风险点';

  it("edits a permit's contact and a risk, and adds a risk, in one save", async () => {
    subject = (await permits({ search_text: '食品' }))[0];
    await openDetails(subject);
    await page.getByRole('button', { name: '编辑' }).click();
    const form = dialog(page, `编辑许可事项：${subject.name}`);
    await form.waitFor();
    await form.locator('input[name=contact_info]').fill(NEW_CONTACT);
    await form.getByRole('tab', { name: /风险清单/ }).click();
    const firstTitle = form.getByLabel('第 1 条风险的风险点');
    const oldTitle = await firstTitle.inputValue();
    await firstTitle.fill(`${oldTitle}（已修订）`);
    await form.getByRole('button', { name: '新增风险' }).click();
    const count = await form.locator('.risk-edit').count();
    await form.getByLabel(`第 ${count} 条风险的风险点`).fill(NEW_RISK);
    await form.locator('.risk-edit').last().locator('.level-select').click();
    await page.locator('.el-select-dropdown__item:visible', { hasText: '高风险' }).click();
    await form.locator('.risk-edit').last().locator('textarea').nth(1).fill('《浏览器测试条例》第一条');
    await screenshot('edit-dialog-risks');
    await form.getByRole('button', { name: '保存' }).click();
    expect(await successMessage(page)).toBe('许可事项已保存，修改前的内容已保存为快照');
    await form.waitFor({ state: 'hidden' });
    expect(await textOf(page.locator('.el-descriptions').getByText(NEW_CONTACT))).toBe(NEW_CONTACT);
    const table = page.locator('.risk-table');
    expect(await textOf(table.locator('tbody tr').last())).toContain(NEW_RISK);
    expect(await table.innerText()).toContain(`${oldTitle}（已修订）`);
    await screenshot('details-after-edit');
  });

  it("shows the server's refusal under the field it is about, and saves nothing", async () => {
    await page.getByRole('button', { name: '编辑' }).click();
    const form = dialog(page, `编辑许可事项：${subject.name}`);
    await form.waitFor();
    await form.locator('input[name=permit_name]').fill('  ');
    await form.getByRole('button', { name: '保存' }).click();
    expect(await textOf(form.locator('.el-form-item__error'))).toBe('事项名称不能为空');
    await screenshot('edit-refused');
    await form.getByRole('button', { name: '取消' }).click();
    expect(await textOf(page.locator('.el-page-header').getByText(subject.name))).toBe(subject.name);
  });

  it('undoes the edit by restoring the snapshot it was saved as', async () => {
    await page.getByRole('button', { name: '历史快照' }).click();
    await page.waitForURL(/#\/snapshots/);
    const row = page.locator('.el-table__body tbody tr').filter({ hasText: '编辑前' }).first();
    await row.waitFor();
    await screenshot('snapshots-with-edit');
    await row.getByRole('button', { name: '恢复' }).click();
    await clickInMessageBox(page, '确认恢复');
    await successMessage(page);
    await openDetails(subject);
    expect(await page.locator('.el-descriptions').innerText()).not.toContain(NEW_CONTACT);
    expect(await page.locator('.risk-table').innerText()).not.toContain(NEW_RISK);
  });

  it('deletes a permit without a theme by binding the theme chosen in the dialog first', async () => {
    const themeless = (await permits({ search_text: '' })).find((p) => p.themes.length === 0)!;
    expect(themeless).toBeDefined();
    await openDetails(themeless);
    await page.getByRole('button', { name: '删除事项' }).click();
    const confirm = dialog(page, '删除许可事项');
    await confirm.waitFor();
    expect(await confirm.innerText()).toContain('该许可事项还没有绑定主题');
    await confirm.locator('.delete-theme-select').click();
    await page.locator('.el-select-dropdown__item:visible').first().click();
    await screenshot('delete-themeless');
    await confirm.getByRole('button', { name: '绑定主题并删除' }).click();
    const done = await textOf(page.locator('.el-message--success .el-message__content', { hasText: '已删除「' }));
    expect(done).toContain(`已删除「${themeless.name}」`);
    await page.waitForURL(/#\/snapshots/);
    const gone = await page.request.get(url(`/admin/permit-details?region=${themeless.region_id}&permit=${themeless.id}`));
    expect(gone.status()).toBe(404);
  });

  it('asks before replacing the import template', async () => {
    await page.goto(url('/admin/super#/template'));
    await page
      .locator('.file-drop input[type=file]')
      .setInputFiles({ name: '新模板.xlsx', mimeType: 'application/octet-stream', buffer: Buffer.from('PK\x03\x04') });
    await page.getByRole('button', { name: '上传并替换' }).click();
    const box = page.locator('.el-message-box');
    await box.waitFor();
    expect(await box.innerText()).toContain('将用「新模板.xlsx」替换');
    await screenshot('template-replace-confirm');
    await box.getByRole('button', { name: '取消' }).click();
  });

  it("tells a department account that opens an administrators' view by its address that it is not for it", async () => {
    const created = await page.request.post(url('/admin/users'), {
      data: { username: 'district-editor', password: 'District-Pass-1', grade: 50 },
      headers: { origin: world.server.base },
    });
    expect(created.status()).toBe(200);
    await page.request.post(url('/auth/logout'), { headers: { origin: world.server.base } });
    await logIn(page, url('/login'), 'district-editor', 'District-Pass-1');
    await page.waitForURL(/\/db_admin/);
    await page.goto(url('/db_admin#/checkpoints'));
    expect(await textOf(page.locator('.el-result'))).toContain('该页面仅对管理员开放');
    expect(await page.getByRole('button', { name: '创建检查点' }).count()).toBe(0);
    await screenshot('admin-view-refused');
  });

  it('ran without script errors or Content-Security-Policy violations', () => {
    expect([...world.pageErrors, ...world.cspViolations]).toEqual([]);
  });
});
