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
const PAGES = ['login.html', 'db_admin.html', 'super_admin.html', 'v2_debug.html'];

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

function sizeSummary() {
  const assets = join(DIST, 'assets');
  const totals = { js: [0, 0], css: [0, 0] };
  for (const name of readdirSync(assets)) {
    const kind = name.endsWith('.js') ? 'js' : name.endsWith('.css') ? 'css' : null;
    if (!kind) continue;
    const content = readFileSync(join(assets, name));
    totals[kind][0] += content.length;
    totals[kind][1] += gzipSync(content).length;
  }
  const kb = (n) => `${(n / 1024).toFixed(1)} kB`;
  return `JS ${kb(totals.js[0])} (${kb(totals.js[1])} gzip), CSS ${kb(totals.css[0])} (${kb(totals.css[1])} gzip), all pages together`;
}

async function main() {
  if (process.argv.includes('--if-stale') && !pagesAreStale()) return;
  let vite;
  try {
    vite = await import('vite');
  } catch {
    console.warn('web pages not built: Vite is not installed (install the dev dependencies to build them)');
    return;
  }
  const started = Date.now();
  await vite.build({ configFile: join(WEB, 'vite.config.ts') });
  console.log(`web pages built in ${((Date.now() - started) / 1000).toFixed(1)} s → ${relative(ROOT, DIST)}: ${sizeSummary()}`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((err) => {
    console.error(`web pages build failed: ${err?.message ?? err}`);
    process.exit(1);
  });
}
