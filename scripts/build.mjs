#!/usr/bin/env node
// Builds what the service runs: the server (src/ → dist/) and the web pages (web/ → web/dist).
//   node scripts/build.mjs             build both (`npm run build`; `npm install` runs it too)
//   node scripts/build.mjs --if-stale  only what is missing or older than its sources (`npm start`)
// Without the dev dependencies (TypeScript, Vite) it says so and keeps what was built before.
import { buildServer, ensureServerBuilt } from './build-server.mjs';
import { buildPages, pagesAreStale } from './build-pages.mjs';

try {
  if (process.argv.includes('--if-stale')) {
    await ensureServerBuilt();
    if (pagesAreStale()) await buildPages();
  } else {
    await buildServer();
    await buildPages();
  }
} catch (err) {
  console.error(`build failed: ${err?.message ?? err}`);
  process.exit(1);
}
