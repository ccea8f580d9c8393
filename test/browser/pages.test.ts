import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PROJECT_ROOT } from '../helpers/server-process.js';
import { openPageWorld, type PageWorld } from './page-world.js';
import { clickInMessageBox, dialog, logIn, messageBox, pickOption, screenshot, SCREENSHOT_DIR, successMessage, textOf } from './ui.js';

/**
 * The pages in a real browser against the real server on a fresh SQLite database: the walk an
 * administrator takes (import, search, details, delete and restore, checkpoints, a department and
 * its account), with a screenshot of every page in test-output/screenshots/.
 */

const API = '/app/api/workflow/lawrisk';
const ADMIN_PASSWORD = 'Browser-Admin-1';
const WORKBOOKS = join(PROJECT_ROOT, 'test', 'fixtures', 'corpus', 'workbooks');
const CITY_WORKBOOK = '广安市市级许可事项风险清单.xlsx';
const BOUND_THEME = '浏览器测试主题';
const HOSTILE = '<img src=x onerror=alert(1)>';

interface ManifestSheet {
  name: string;
  data_rows: number;
  permits: number;
  risks: number;
}
const manifest = JSON.parse(readFileSync(join(WORKBOOKS, 'manifest.json'), 'utf8')) as {
  workbooks: { file: string; permits: number; risks: number; sheets: ManifestSheet[] }[];
};
const cityWorkbook = manifest.workbooks.find((w) => w.file === CITY_WORKBOOK)!;
const corpus = JSON.parse(readFileSync(join(PROJECT_ROOT, 'test', 'fixtures', 'corpus', 'corpus.json'), 'utf8')) as {
  permits: { region: string; name: string; code: string; visible: boolean; risks: unknown[] }[];
};
/** The permit the walk-through searches, opens, deletes and restores. */
const target = corpus.permits.find((p) => p.region === '广安市' && p.visible)!;

let world: PageWorld;
let page: Page;
const dialogs: string[] = [];
let department: { username: string; password: string } | null = null;

const url = (path: string) => world.url(path);

/** A small workbook whose texts are markup: the pages must show them as text. */
async function hostileWorkbook(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('安全测试');
  ws.addRow(['区域', '主题', '许可事项', '事项编码', '风险点', '法律依据', '风险等级']);
  ws.addRow(['广安市', BOUND_THEME, `安全测试${HOSTILE}许可`, 'XSS-0001', `${HOSTILE}\n<script>alert(2)</script>`, '<b>法律依据</b>', '高']);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

beforeAll(async () => {
  rmSync(SCREENSHOT_DIR, { recursive: true, force: true }); // this run's screenshots only
  world = await openPageWorld({ DEMO_DATA: '0', ADMIN_PASSWORD, LOGIN_RATE_LIMIT: '0', SEARCH_RATE_LIMIT: '0' });
  page = world.page;
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
}, 120_000);

afterAll(async () => world?.close());

describe('the web pages in a real browser', { timeout: 90_000 }, () => {
  it('sends an anonymous visitor to the login page, shows the server message, and logs in', async () => {
    await page.goto(url('/db_admin#/files'));
    await page.waitForURL(/\/login\?next=/);
    await textOf(page.getByText('许可事项法律风险管理系统'));
    await screenshot(page, 'login');

    await logIn(page, url('/login'), 'admin', 'wrong-password');
    expect(await textOf(page.getByRole('alert'))).toContain('用户名或密码错误');

    await logIn(page, url('/login'), 'admin', ADMIN_PASSWORD);
    await page.waitForURL(/\/db_admin#\/files$/); // back to the view asked for
    expect(await textOf(page.locator('.user-name'))).toMatch(/admin|超级管理员/);
    await page.goto(url('/db_admin#/dashboard'));
    await textOf(page.getByText('各区域许可事项数'));
    await screenshot(page, 'db-admin-dashboard-empty');
  });

  it('imports a corpus workbook through the wizard: upload, preview with the manifest counts, theme binding, commit', async () => {
    await page.goto(url('/db_admin#/import'));
    await page.locator('.file-drop input[type=file]').setInputFiles(join(WORKBOOKS, CITY_WORKBOOK));
    expect(await textOf(page.locator('.picked'))).toContain(CITY_WORKBOOK);
    expect(await textOf(page.locator('.picked'))).toMatch(/\d+(\.\d+)? KB/);
    await screenshot(page, 'import-upload');

    await page.getByRole('button', { name: '上传并预览' }).click();
    expect(await textOf(page.locator('.total-permits'), 30_000)).toBe(String(cityWorkbook.permits));
    expect(await textOf(page.locator('.total-risks'))).toBe(String(cityWorkbook.risks));
    const sheet = cityWorkbook.sheets[0];
    await textOf(page.locator('.el-tabs__item').filter({ hasText: sheet.name }));
    const counts = await textOf(page.locator('.sheet-preview .counts'));
    expect(counts).toContain(String(sheet.data_rows));
    expect(counts).toContain(String(sheet.permits));
    expect(await textOf(page.locator('.sheet-preview .columns'))).toContain('许可事项');
    expect(await page.locator('.sheet-preview .diff tbody tr').count()).toBeGreaterThan(0);

    const themeSelect = page.locator('.sheet-preview .theme-select');
    await themeSelect.click();
    await page.keyboard.type(BOUND_THEME);
    await page.keyboard.press('Enter');
    await page.locator('.el-descriptions__title', { hasText: '工作簿概况' }).click(); // close the drop-down
    expect(await textOf(themeSelect)).toContain(BOUND_THEME);
    await screenshot(page, 'import-preview');
    await page.locator('.sheet-preview .diff-title').scrollIntoViewIfNeeded();
    await screenshot(page, 'import-preview-findings-and-diff');

    await page.locator('input[name=change_summary]').fill('浏览器测试导入');
    await page.getByRole('button', { name: '提交导入' }).click();
    await textOf(page.getByText('导入完成'), 60_000);
    const facts = await textOf(page.locator('.result-step .facts'));
    expect(facts).toContain(`许可事项 ${cityWorkbook.permits}`);
    expect(facts).toContain(`新建主题 ${BOUND_THEME}`);
    await screenshot(page, 'import-result');
  });

  it('finds the permit through the search debugging console, with highlighted terms, risks and debug details', async () => {
    await page.goto(url('/admin/v2-debug'));
    await page.locator('input[name=query]').fill(target.name);
    await pickOption(page, page.locator('.search-bar .regions'), '广安市');
    await page.keyboard.press('Escape');
    await page.getByRole('button', { name: '检索' }).click();
    const first = page.locator('.result-card').first();
    expect(await textOf(first.locator('.name'))).toBe(target.name);
    expect(await first.locator('mark.hit').count()).toBeGreaterThan(0);
    await first.locator('.el-collapse-item__header').first().click();
    await textOf(first.locator('.risk-body').first());
    const panel = await textOf(page.locator('.debug-panel'));
    for (const heading of ['问题理解', '检索词', '得分明细', '各结果的匹配依据']) expect(panel).toContain(heading);
    expect(panel).toContain('已找到');
    await screenshot(page, 'v2-debug-results');
    await page.locator('.debug-panel .el-table').last().scrollIntoViewIfNeeded();
    await screenshot(page, 'v2-debug-score-breakdown');
    await page.getByRole('tab', { name: '原始响应' }).click();
    expect(await textOf(page.locator('.json-view'))).toContain('"workflowStatus": "ok"');
    await screenshot(page, 'v2-debug-raw-json');

    // A question about another public service: nothing, and the console says why, in Chinese.
    await page.getByRole('tab', { name: '调试信息' }).click();
    await page.locator('input[name=query]').fill('社保卡丢了怎么补办');
    await page.getByRole('button', { name: '检索' }).click();
    await expect.poll(() => page.locator('.status').innerText()).toContain('没有找到');
    expect(await textOf(page.locator('.debug-panel .el-alert'))).toContain('「社保卡」');
    expect(await page.locator('.result-card').count()).toBe(0);
    await screenshot(page, 'v2-debug-no-match');
  });

  it('opens the permit details with themes, departments and the risk table', async () => {
    await page.goto(url('/db_admin#/permits'));
    await page.getByPlaceholder('名称关键字').fill(target.name);
    await page.getByRole('button', { name: '查询' }).click();
    await page.locator('.permit-table').getByText(target.name, { exact: true }).click();
    await page.waitForURL(/#\/permit\?/);
    await expect.poll(() => page.locator('.detail .title').innerText()).toBe(target.name);
    const info = await textOf(page.locator('.el-descriptions'));
    expect(info).toContain(target.code);
    expect(info).toContain(BOUND_THEME);
    await expect.poll(() => page.locator('.risk-table tbody tr').count()).toBe(target.risks.length);
    await screenshot(page, 'permit-details');
  });

  it('deletes the permit after a confirmation naming the snapshot, and restores it from that snapshot', async () => {
    await page.getByRole('button', { name: '删除事项' }).click();
    const confirm = dialog(page, '删除许可事项');
    const confirmText = await textOf(confirm.locator('.el-dialog__body'));
    expect(confirmText).toContain(`${target.risks.length} 条风险记录`);
    expect(confirmText).toContain(target.name);
    await screenshot(page, 'permit-delete-confirm');
    await confirm.getByRole('button', { name: '删除并保存快照' }).click();
    expect(await successMessage(page)).toContain('快照批次');
    await page.waitForURL(/#\/snapshots\?/);
    const row = page.locator('.snapshot-table tbody tr').filter({ hasText: target.name }).first();
    await row.waitFor();
    expect(await row.innerText()).toContain('删除前');
    await screenshot(page, 'snapshots');

    await row.getByRole('button', { name: '恢复' }).click();
    await clickInMessageBox(page, '确认恢复');
    await expect.poll(() => successMessage(page)).toContain(`已恢复 1 个许可事项、${target.risks.length} 条风险`);

    await page.goto(url(`/db_admin#/permits`));
    await page.getByPlaceholder('名称关键字').fill(target.name);
    await page.getByRole('button', { name: '查询' }).click();
    await page.locator('.permit-table').getByText(target.name, { exact: true }).click();
    await page.waitForURL(/#\/permit\?/);
    await expect.poll(() => page.locator('.risk-table tbody tr').count()).toBe(target.risks.length);
  });

  it('creates a checkpoint with a description and restores it with the typed confirmation', async () => {
    await page.goto(url('/db_admin#/checkpoints'));
    await page.getByRole('button', { name: '创建检查点' }).click();
    await page.locator('input[name=checkpoint_description]').fill('浏览器测试检查点');
    await dialog(page, '创建检查点').getByRole('button', { name: '创建' }).click();
    const row = page.locator('.checkpoint-table tbody tr').filter({ hasText: '浏览器测试检查点' }).first();
    await row.waitFor();
    const id = (await row.locator('td').nth(1).innerText()).trim().replace('#', '');
    expect(id).toMatch(/^\d+$/);
    await screenshot(page, 'checkpoints');

    await row.getByRole('button', { name: '恢复' }).click();
    const restore = dialog(page, `恢复检查点 #${id}`);
    await restore.waitFor();
    const confirm = restore.getByRole('button', { name: '确认恢复' });
    expect(await confirm.isDisabled()).toBe(true);
    await page.locator('input[name=confirm_checkpoint]').fill(id);
    await screenshot(page, 'checkpoint-restore-confirm');
    await confirm.click();
    expect(await textOf(messageBox(page).locator('.el-message-box__message'), 60_000)).toContain(`已从检查点 #${id} 恢复`);
    await clickInMessageBox(page, '知道了');
    // The automatic backup taken before the restore is listed too.
    await page.locator('.checkpoint-table tbody tr').filter({ hasText: '恢复前自动备份' }).first().waitFor();
  });

  it('shows markup from a workbook as text everywhere (no script runs)', async () => {
    await page.goto(url('/db_admin#/import'));
    await page
      .locator('.file-drop input[type=file]')
      .setInputFiles({ name: '安全测试.xlsx', mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer: await hostileWorkbook() });
    await page.getByRole('button', { name: '上传并预览' }).click();
    expect(await textOf(page.locator('.sheet-preview .diff'))).toContain(HOSTILE);
    await page.getByRole('button', { name: '提交导入' }).click();
    await textOf(page.getByText('导入完成'), 60_000);

    await page.goto(url('/db_admin#/permits'));
    await page.getByPlaceholder('名称关键字').fill('安全测试');
    await page.getByRole('button', { name: '查询' }).click();
    await page.locator('.permit-table a.link', { hasText: '安全测试' }).first().click();
    await page.waitForURL(/#\/permit\?/);
    expect(await textOf(page.locator('.risk-table'))).toContain(HOSTILE);
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    await screenshot(page, 'permit-details-markup-as-text');

    await page.goto(url('/admin/v2-debug'));
    await page.locator('input[name=query]').fill('安全测试');
    await page.getByRole('button', { name: '检索' }).click();
    const card = page.locator('.result-card').filter({ hasText: 'XSS-0001' }).first();
    await card.locator('.el-collapse-item__header').first().click();
    expect(await textOf(card)).toContain(HOSTILE);
    expect(await page.locator('img[src="x"]').count()).toBe(0);
    expect(dialogs).toEqual([]);
  });

  it('shows the other administration pages (files, operation log, users, themes, regions, template)', async () => {
    const pages: [string, string, string][] = [
      ['/db_admin#/files', CITY_WORKBOOK, 'files'],
      ['/db_admin#/logs', '导入', 'operation-log'],
      ['/db_admin#/dashboard', '广安市', 'db-admin-dashboard'],
      ['/admin/super#/users', 'admin', 'super-users'],
      ['/admin/super#/themes', BOUND_THEME, 'super-themes'],
      ['/admin/super#/regions', '广安市', 'super-regions'],
      ['/admin/super#/template', '下载模板', 'super-template'],
    ];
    for (const [path, text, name] of pages) {
      await page.goto(url(path));
      await textOf(page.locator('.el-main').getByText(text).first());
      await screenshot(page, name);
    }
  });

  it('shows what people asked on the search analytics page, on a desktop and on a phone', async () => {
    const ask = (query: string, channel: string) =>
      fetch(url('/v2'), { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ query, channel }) });
    for (const [query, channel] of [
      [target.name, 'page'],
      [target.name, 'assistant'],
      ['红烧肉的做法', 'page'],
      ['红烧肉的做法', 'api'],
    ]) {
      expect((await ask(query, channel)).status).toBe(200);
    }
    await page.waitForTimeout(1500); // the log is written once a second, off the request path
    await page.goto(url('/db_admin#/search-analytics'));
    const noResult = page.getByRole('tab', { name: '无结果查询' });
    await noResult.click();
    const link = page.locator('#pane-no_result a', { hasText: '红烧肉的做法' });
    expect(await link.getAttribute('href')).toBe(`${API}/admin/v2-debug?q=${encodeURIComponent('红烧肉的做法')}`);
    const card = (label: string) => textOf(page.locator('.stat-card', { hasText: label }).locator('.stat-value'));
    expect(Number((await card('无结果次数')).replace(/,/g, ''))).toBeGreaterThanOrEqual(2);
    await screenshot(page, 'search-analytics');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.reload();
    await textOf(page.locator('.stat-card', { hasText: '查询次数' }));
    await screenshot(page, 'search-analytics-phone');
    // On a phone the menu is a drawer opened from the header.
    await page.getByRole('button', { name: '打开菜单' }).click();
    await page.locator('.aside.open').getByText('操作日志').click();
    await textOf(page.locator('.el-main').getByText('导入').first());
    expect(page.url()).toMatch(/#\/logs$/);
    await screenshot(page, 'operation-log-phone');
    await page.setViewportSize({ width: 1440, height: 900 });
    // The console opened from a row asks that question at once.
    await page.goto(url(`/admin/v2-debug?q=${encodeURIComponent(target.name)}`));
    expect(await textOf(page.locator('.result-card').first().locator('.name'))).toBe(target.name);
    expect(await page.locator('input[name=query]').inputValue()).toBe(target.name);
    // 为什么没有找到: a permit picked by name, and the verdict for the question asked.
    await page.getByRole('tab', { name: '为什么没有找到' }).click();
    await page.locator('.why-not .permit input').fill(target.name.slice(0, 6));
    await page.locator('.el-select-dropdown__item:visible').filter({ hasText: target.name }).first().click();
    await page.getByRole('button', { name: '查看原因' }).click();
    expect(await textOf(page.locator('.why-not .verdict'))).toContain('该事项在检索结果中');
    expect(await textOf(page.locator('.why-not .facts'))).toContain('排名');
    await screenshot(page, 'v2-debug-why-not');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('.why-not').scrollIntoViewIfNeeded();
    await screenshot(page, 'v2-debug-why-not-phone');
    await page.setViewportSize({ width: 1440, height: 900 });
  });

  it('adds a permit alias for a question that found nothing, from the analytics to the lexicon, with its preview', async () => {
    const question = '我想办嗷呜嗷呜';
    const permit = corpus.permits.find((p) => p.region === '广安市' && p.name.startsWith('举办高危险性体育赛事活动许可'))!;
    const ask = async () => {
      const res = await fetch(url('/v2'), {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: question, channel: 'page' }),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { data: { risk_subject: { permit: { name: string } }[] } }).data.risk_subject;
    };
    expect(await ask()).toEqual([]);
    await page.waitForTimeout(1500); // the log is written once a second, off the request path

    await page.goto(url('/db_admin#/search-analytics'));
    await page.getByRole('tab', { name: '无结果查询' }).click();
    const row = page.locator('#pane-no_result tbody tr', { hasText: question });
    await row.getByRole('button', { name: '添加别名' }).click();
    await page.waitForURL(/#\/search-lexicon\?kind=alias&phrase=/);

    const form = dialog(page, '新增词条');
    await form.waitFor();
    expect(await textOf(form.locator('.alias-phrases'))).toContain(question);
    expect(await textOf(form.locator('.el-radio-button.is-active'))).toBe('许可别名');
    await pickOption(page, form.locator('.region-select'), '广安市');
    await form.locator('.permit-select').click();
    await page.keyboard.type('举办高危险性体育赛事活动许可');
    await page.locator('.el-select-dropdown__item:visible').filter({ hasText: permit.code }).first().click();
    expect(await textOf(form.locator('.permit-select'))).toContain(permit.name);

    await form.getByRole('button', { name: '预览影响' }).click();
    const summary = await textOf(form.locator('.preview .el-alert'));
    expect(summary).toMatch(/^检查了 \d+ 个最近的问题，其中 \d+ 个的结果会改变（共被问 \d+ 次，约 \d+ 人）/);
    const change = form.locator('.preview-table tbody tr', { hasText: question });
    expect(await textOf(change.locator('.el-tag', { hasText: '进入' }))).toBe(`进入 第1条 ${permit.name}`);
    await form.locator('.preview').scrollIntoViewIfNeeded();
    await screenshot(page, 'search-lexicon-preview');

    await form.getByRole('button', { name: '保存' }).click();
    expect(await successMessage(page)).toBe('词条已保存');
    await form.waitFor({ state: 'hidden' });
    const entry = page.locator('.lexicon-table tbody tr', { hasText: question }).first();
    expect(await textOf(entry)).toContain(`许可编码 ${permit.code}`);
    expect(await entry.innerText()).toContain('广安市');
    await screenshot(page, 'search-lexicon');
    await expect.poll(async () => (await ask())[0]?.permit.name).toBe(permit.name);

    // On a phone: the page fits the screen (tables scroll inside their cards), and so does the dialog.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto(url('/db_admin#/search-lexicon'));
    await page.reload();
    await textOf(page.locator('.lexicon-table tbody tr', { hasText: question }));
    await screenshot(page, 'search-lexicon-phone');
    // Evaluated in the page (a string: the tests are compiled without the DOM's types).
    const overflow = () =>
      page.evaluate<[number, number]>(`(() => {
        const root = document.documentElement, main = document.querySelector('.el-main');
        return [root.scrollWidth - root.clientWidth, main.scrollWidth - main.clientWidth];
      })()`);
    expect(await overflow()).toEqual([0, 0]);
    await page.getByRole('button', { name: '新增词条' }).click();
    await dialog(page, '新增词条').waitFor();
    await screenshot(page, 'search-lexicon-dialog-phone');
    expect((await overflow())[0]).toBe(0);
    await page.setViewportSize({ width: 1440, height: 900 });

    // A pin for the same question, previewed and not saved: the pinned permit would come first; one pinned cannot be hidden too.
    await dialog(page, '新增词条').getByRole('button', { name: '取消' }).click();
    await page.getByRole('button', { name: '新增词条' }).click();
    const pinForm = dialog(page, '新增词条');
    await pinForm.getByText('置顶与隐藏', { exact: true }).click();
    await pinForm.locator('input[name="curation_phrase"]').fill(question);
    const pinned = corpus.permits.find((p) => p.region === '广安市' && p.visible !== false && p.name.includes('道路旅客运输'))!;
    await pinForm.locator('.pin-select').click();
    await page.keyboard.type(pinned.name);
    await page.locator('.el-select-dropdown__item:visible').filter({ hasText: pinned.name }).first().click();
    await pinForm.locator('.el-dialog__title').click(); // a multiple select stays open after a pick
    await pinForm.locator('.hide-select').click();
    await page.keyboard.type(pinned.name);
    await expect.poll(() => page.locator('.el-select-dropdown__item:visible.is-disabled').filter({ hasText: pinned.name }).count()).toBeGreaterThan(0);
    await pinForm.locator('.el-dialog__title').click();
    await pinForm.getByRole('button', { name: '预览影响' }).click();
    const pinChange = pinForm.locator('.preview-table tbody tr', { hasText: question });
    expect(await textOf(pinChange.locator('.el-tag', { hasText: '进入' }))).toBe(`进入 第1条 ${pinned.name}`);
    await screenshot(page, 'search-lexicon-pin-preview');
    await pinForm.getByRole('button', { name: '取消' }).click();
  });

  it('creates a department and shows its account and one-time initial password', async () => {
    await page.goto(url('/admin/super#/departments'));
    await page.getByRole('button', { name: '新建顶级部门' }).click();
    const form = dialog(page, '新建顶级部门');
    await page.locator('input[name=department_name]').fill('浏览器测试局');
    await page.locator('input[name=department_code]').fill('brtest');
    await pickOption(page, form.locator('.el-select').first(), '广安市');
    await form.getByRole('button', { name: '保存' }).click();
    const created = await textOf(messageBox(page).locator('.el-message-box__message'));
    const username = /部门账号：(\S+)/.exec(created)?.[1];
    const password = /初始密码：(\S+)/.exec(created)?.[1];
    expect(username).toBe('brtest');
    expect(password).toBeTruthy();
    department = { username: username!, password: password! };
    await screenshot(page, 'super-department-created');
    await clickInMessageBox(page, '我已记下');

    await page.locator('.dept-node', { hasText: '浏览器测试局' }).click();
    expect(await textOf(page.locator('.account'))).toContain('brtest');
    await screenshot(page, 'super-departments');
  });

  it('logs in as the department account, which must change its initial password first', async () => {
    expect(department).not.toBeNull();
    await page.locator('.user').click();
    await page.getByRole('menuitem', { name: '退出登录' }).click();
    await page.waitForURL(/\/login/);

    await logIn(page, url('/login'), department!.username, department!.password);
    const change = dialog(page, '请修改初始密码');
    await change.waitFor();
    await screenshot(page, 'login-forced-password-change');
    await change.locator('input[name=old_password]').fill(department!.password);
    await change.locator('input[name=new_password]').fill('Dept-New-Pass-1');
    await change.locator('input[name=confirm_password]').fill('Dept-New-Pass-1');
    await change.getByRole('button', { name: '确认修改' }).click();
    await page.waitForURL(/\/db_admin/);
    expect(await textOf(page.locator('.user'))).toContain('部门管理员');
    await textOf(page.getByText('各区域许可事项数'));
    expect(await page.locator('.consoles').innerText()).not.toContain('超级管理');
    expect(await page.locator('.side-menu').innerText()).not.toContain('数据检查点');
    await screenshot(page, 'db-admin-department-account');
  });

  it('refuses the super administrator console and the search debugging console to a department administrator', async () => {
    for (const [path, name] of [
      ['/admin/super', 'forbidden-super-admin'],
      ['/admin/v2-debug', 'forbidden-v2-debug'],
    ]) {
      const response = await page.goto(url(path));
      expect(response?.status()).toBe(403);
      expect(await textOf(page.locator('h1'))).toBe('权限不足');
      await screenshot(page, name);
    }
  });

  it('ran without script errors or Content-Security-Policy violations', () => {
    expect(world.pageErrors).toEqual([]);
    expect(world.cspViolations).toEqual([]);
  });
});
