import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';
import { PROJECT_ROOT } from '../helpers/server-process.js';

export const SCREENSHOT_DIR = join(PROJECT_ROOT, 'test-output', 'screenshots');

/** Text of a locator once it is visible (Playwright waits; vitest asserts on the result). */
export async function textOf(locator: Locator, timeout = 15_000): Promise<string> {
  await locator.first().waitFor({ state: 'visible', timeout });
  return (await locator.first().innerText()).trim();
}

/** Waits until no Element Plus loading mask is shown. */
export async function settled(page: Page): Promise<void> {
  // Polled from here: the pages' CSP rightly forbids evaluating strings in them.
  await expect.poll(() => page.locator('.el-loading-mask:visible').count(), { timeout: 20_000 }).toBe(0);
}

let shotNumber = 0;

/** Saves a screenshot of the current page, numbered in the order the walk-through takes them. */
export async function screenshot(page: Page, name: string): Promise<string> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await settled(page);
  await page.waitForTimeout(350); // let transitions (dialogs, messages) finish
  shotNumber += 1;
  const file = join(SCREENSHOT_DIR, `${String(shotNumber).padStart(2, '0')}-${name}.png`);
  await page.screenshot({ path: file });
  return file;
}

/** Logs in through the login page; resolves once the browser has left it. */
export async function logIn(page: Page, loginUrl: string, username: string, password: string): Promise<void> {
  if (!page.url().includes('/login')) await page.goto(loginUrl);
  await page.locator('input[name=username]').fill(username);
  await page.locator('input[name=password]').fill(password);
  await page.getByRole('button', { name: /登\s*录/ }).click();
}

/** The open Element Plus message box (confirm, prompt or alert). */
export function messageBox(page: Page): Locator {
  return page.locator('.el-message-box').last();
}

export async function clickInMessageBox(page: Page, button: string | RegExp): Promise<void> {
  const box = messageBox(page);
  await box.waitFor({ state: 'visible' });
  await box.getByRole('button', { name: button }).click();
  await box.waitFor({ state: 'hidden' });
}

/** The most recent success message (ElMessage) text. */
export async function successMessage(page: Page): Promise<string> {
  return textOf(page.locator('.el-message--success .el-message__content').last());
}

/** The open dialog with the given title. */
export function dialog(page: Page, title: string | RegExp): Locator {
  return page.locator('.el-dialog').filter({ has: page.locator('.el-dialog__title', { hasText: title }) });
}

/** Picks an option of an Element Plus select (or tree select) that is open. */
export async function pickOption(page: Page, select: Locator, option: string): Promise<void> {
  await select.click();
  const item = page.locator('.el-select-dropdown__item:visible, .el-tree-node__content:visible').filter({ hasText: option }).first();
  await item.click();
}
