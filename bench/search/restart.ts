/**
 * Restart → ready at scale: the compiled service started on a catalogue of 100,000 permits and
 * 1,000,000 risks (the search bench's scale corpus, written straight into SQLite), once without a
 * search index snapshot (the full build) and once from the snapshot the first start wrote, each
 * in a fresh process, `--runs` times. Prints the time from process start to ready, the heap once
 * ready (after a full GC) and the snapshot's size; the ratio of the two starts is the figure
 * (docs/search-snapshot.md).
 *
 *   npm run build && npx tsx bench/search/restart.ts [--permits 100000] [--runs 2]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { scaleDocs, writeScaleCatalogue } from '../load/scale-catalogue.js';

const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? Number(process.argv[i + 1]) : def;
};
const PERMITS = arg('permits', 100_000);
const RUNS = arg('runs', 2);
const DIR = join(process.cwd(), '.tmp', 'bench-restart');
const DB = join(DIR, `scale-${PERMITS}.db`);
const SNAPSHOT = `${DB}.search-index`;

interface Start {
  readyMs: number;
  heapBytes: number;
  heapWrittenBytes: number;
  permits: number;
  writeMs: number;
  notes: string[];
}

function start(): Start {
  const out = execFileSync(process.execPath, ['--expose-gc', 'bench/search/restart-worker.mjs', DB, DIR], { encoding: 'utf8', maxBuffer: 1 << 24 });
  return JSON.parse(out.trim().split('\n').at(-1)!) as Start;
}

const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const mb = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;

mkdirSync(DIR, { recursive: true });
if (!existsSync(DB)) {
  const written = await writeScaleCatalogue(DB, scaleDocs({ permits: PERMITS, risksPerPermit: 10 }));
  console.log(`catalogue: ${written.permits} permits, ${written.risks} risks, ${written.regions} regions, written in ${written.seconds.toFixed(1)} s → ${DB}`);
}
console.log('| run | start | restart → ready | heap when ready | heap once the snapshot is written | snapshot written after | snapshot size |');
console.log('|---|---|---|---|---|---|---|');
for (let run = 1; run <= RUNS; run++) {
  rmSync(SNAPSHOT, { force: true });
  const full = start();
  const size = statSync(SNAPSHOT).size;
  const loaded = start();
  if (!loaded.notes.some((n) => n.includes('loaded from its snapshot')))
    throw new Error(`the second start did not load the snapshot: ${loaded.notes.join(' / ')}`);
  console.log(
    `| ${run} | full build (no snapshot) | ${s(full.readyMs)} | ${mb(full.heapBytes)} | ${mb(full.heapWrittenBytes)} | ${s(full.writeMs)} | ${mb(size)} |`,
  );
  console.log(
    `| ${run} | from the snapshot | ${s(loaded.readyMs)} (${(loaded.readyMs / full.readyMs).toFixed(2)}× the full build) | ${mb(loaded.heapBytes)} | | | |`,
  );
}
