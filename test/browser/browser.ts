import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's Chromium (with a CJK font installed beside it, screenshots are readable) when present. */
const SYSTEM_CHROMIUM = ['/usr/bin/chromium', '/usr/bin/chromium-browser'];
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];
const NSS_PATHS = ['/usr/lib/x86_64-linux-gnu/libnss3.so', '/usr/lib/aarch64-linux-gnu/libnss3.so', '/usr/lib64/libnss3.so', '/usr/lib/libnss3.so'];

async function chromiumFromNpm(): Promise<{ executablePath: string; args: string[] }> {
  // Without the system's NSS libraries, let the package unpack the ones it ships and point
  // LD_LIBRARY_PATH at them (it does so when it believes it runs on Amazon Linux 2023).
  if (!NSS_PATHS.some((p) => existsSync(p))) process.env.AWS_EXECUTION_ENV ??= 'AWS_Lambda_nodejs20.x';
  const { default: Chromium } = await import('@sparticuz/chromium');
  return { executablePath: await Chromium.executablePath(), args: Chromium.args };
}

export interface LaunchedBrowser {
  context: BrowserContext;
  executablePath: string;
  close(): Promise<void>;
}

/** A headless Chromium on a fresh profile directory, removed again on close. */
export async function launchBrowser(): Promise<LaunchedBrowser> {
  const system = SYSTEM_CHROMIUM.find((p) => existsSync(p));
  const { executablePath, args } = system ? { executablePath: system, args: [] } : await chromiumFromNpm();
  const profile = mkdtempSync(join(tmpdir(), 'lawrisk-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath,
    headless: true,
    args: [...new Set([...args, ...FLAGS])],
    viewport: { width: 1440, height: 900 },
    locale: 'zh-CN',
    timezoneId: 'Asia/Shanghai',
    acceptDownloads: true,
  });
  return {
    context,
    executablePath,
    async close() {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}
