import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Page } from 'playwright-core';
import { PROJECT_ROOT, startServer, type ServerProcess } from '../helpers/server-process.js';
import { launchBrowser, type LaunchedBrowser } from './browser.js';

const API = '/app/api/workflow/lawrisk';

/** The real server on a fresh SQLite database and a Chromium with one page, for a browser test file. */
export interface PageWorld {
  server: ServerProcess;
  browser: LaunchedBrowser;
  page: Page;
  /** `{api_root}` + path on the server. */
  url(path: string): string;
  /** Script errors of the page, as they happen. */
  pageErrors: string[];
  /** Content-Security-Policy violations the page reported. */
  cspViolations: string[];
  close(): Promise<void>;
}

/** Builds the pages when stale, starts the server with `env` on a fresh data directory and launches the browser. */
export async function openPageWorld(env: Record<string, string>): Promise<PageWorld> {
  execFileSync(process.execPath, ['scripts/build-pages.mjs', '--if-stale'], { cwd: PROJECT_ROOT, stdio: 'pipe' });
  const dataDir = mkdtempSync(join(tmpdir(), 'lawrisk-browser-'));
  const [server, browser] = await Promise.all([
    startServer({ DATA_DIR: dataDir, DATABASE_URL: `sqlite:${join(dataDir, 'lawrisk.db')}`, ...env }),
    launchBrowser(),
  ]);
  const pageErrors: string[] = [];
  const cspViolations: string[] = [];
  // Every tab a test opens is watched (a shared link opened beside the first one).
  const watch = (p: Page) => {
    p.on('pageerror', (err) => pageErrors.push(err.message));
    p.on('console', (msg) => {
      if (msg.type() === 'error' && /Content Security Policy/i.test(msg.text())) cspViolations.push(msg.text());
    });
  };
  const first = browser.context.pages()[0];
  if (first) watch(first);
  browser.context.on('page', watch);
  const page = first ?? (await browser.context.newPage());
  page.setDefaultTimeout(15_000);
  return {
    server,
    browser,
    page,
    pageErrors,
    cspViolations,
    url: (path) => `${server.base}${API}${path}`,
    async close() {
      await browser.close();
      await server.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
