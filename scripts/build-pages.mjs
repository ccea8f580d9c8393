#!/usr/bin/env node
// Builds the web pages (web/ → web/dist) with Vite.
//   node scripts/build-pages.mjs             always build
//   node scripts/build-pages.mjs --if-stale  only when a page is missing or older than its sources
// Without Vite (a production install without dev dependencies) it says so and leaves web/dist as is.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ROOT = fileURLToPath(new URL('../', import.meta.url));
const WEB = join(ROOT, 'web');
const DIST = join(WEB, 'dist');
const PAGES = ['search.html', 'login.html', 'db_admin.html', 'super_admin.html', 'v2_debug.html'];

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return null;
  }
}

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (entry.name === 'dist' || entry.name === 'node_modules' || entry.name.startsWith('.')) continue;
    const path = join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(path) : (mtime(path) ?? 0));
  }
  return newest;
}

export function pagesAreStale() {
  const built = PAGES.map((page) => mtime(join(DIST, page)));
  if (built.some((t) => t === null)) return true;
  return Math.min(...built) < newestSource(WEB);
}

/** The most JS + CSS (gzip) a page may load, by page: the applicants' page opens on phones over mobile networks. */
export const GZIP_BUDGET = { 'search.html': 100 * 1024 };

/** Per page: the JS and CSS its HTML loads (entry, preloaded chunks, style sheets), raw and gzip bytes. */
export function pageSizes(dist = DIST) {
  return PAGES.map((page) => {
    const html = readFileSync(join(dist, page), 'utf8');
    const files = [...new Set([...html.matchAll(/(?:src|href)="\.\/(assets\/[^"]+\.(?:js|css))"/g)].map((m) => m[1]))];
    let raw = 0;
    let gzip = 0;
    for (const file of files) {
      const content = readFileSync(join(dist, file));
      raw += content.length;
      gzip += gzipSync(content).length;
    }
    return { page, raw, gzip, budget: GZIP_BUDGET[page] ?? null };
  });
}

function sizeSummary() {
  const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
  return pageSizes()
    .map(({ page, raw, gzip, budget }) => {
      const verdict = budget === null ? '' : gzip <= budget ? `, within its ${kb(budget)} budget` : `, OVER its ${kb(budget)} budget`;
      return `  ${page.padEnd(17)} ${kb(raw).padStart(9)} (${kb(gzip)} gzip${verdict})`;
    })
    .join('\n');
}

/** Builds every page; without Vite it says so and leaves web/dist as it is. */
export async function buildPages() {
  let vite;
  try {
    vite = await import('vite');
  } catch {
    console.warn('web pages not built: Vite is not installed (install the dev dependencies to build them)');
    return;
  }
  const started = Date.now();
  await vite.build({ configFile: join(WEB, 'vite.config.ts') });
  console.log(`web pages built in ${((Date.now() - started) / 1000).toFixed(1)} s → ${relative(ROOT, DIST)} (JS + CSS each page loads):\n${sizeSummary()}`);
}

async function main() {
  if (process.argv.includes('--if-stale') && !pagesAreStale()) return;
  await buildPages();
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err) => {
    console.error(`web pages build failed: ${err?.message ?? err}`);
    process.exit(1);
  });
}
