/**
 * Speed and relevance of the engine and its peers, side by side.
 *   npx tsx --expose-gc bench/search/bench.ts [--scale] [--engines ours,minisearch,flexsearch,fts5]
 * Each engine runs in its own process (node --expose-gc --max-old-space-size=6144) so that heap
 * figures are its own: build time, heap after GC (heap + array buffers, documents included),
 * index memory (growth from before the build; RSS growth for SQLite, whose memory is native),
 * p50/p99/p99.9 latency over 10,000 queries (dev queries plus generated ones, cycled), and
 * relevance on the dev queries (real corpus only), and per labelled set (eval-sets.ts). --scale adds the synthetic corpus of
 * 100,000 permits and 1,000,000 risks. --baseline <git ref> adds the engine as it was at that
 * commit (checked out into a temporary worktree), and the ratios of ours to it: machines here are
 * shared, so speed targets are judged against a baseline measured in the same run.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const args = process.argv.slice(2);
const scale = args.includes('--scale');
const engineArg = args[args.indexOf('--engines') + 1];
const engines = args.includes('--engines') && engineArg ? engineArg.split(',') : ['ours', 'minisearch', 'flexsearch', 'fts5'];
const baselineRef = args.includes('--baseline') ? args[args.indexOf('--baseline') + 1] : null;
const root = fileURLToPath(new URL('../../', import.meta.url));
const worker = fileURLToPath(new URL('./bench-worker.ts', import.meta.url));
const WORKER_TIMEOUT_MS = 30 * 60_000;

interface Row {
  engine?: string;
  corpus?: string;
  permits?: number;
  risks?: number;
  buildMs?: number;
  heapAfterGcMb?: number;
  indexMb?: number;
  rssDeltaMb?: number;
  p50Ms?: number;
  p99Ms?: number;
  p999Ms?: number;
  relevance?: Record<string, number | null> | null;
  bySet?: Record<string, Record<string, number>>;
  error?: string;
}

function run(engine: string, corpus: string): Row {
  const r = spawnSync(process.execPath, ['--expose-gc', '--max-old-space-size=6144', '--import', 'tsx', worker, engine, corpus], {
    encoding: 'utf8',
    timeout: WORKER_TIMEOUT_MS,
    maxBuffer: 1 << 26,
  });
  const last = (r.stdout ?? '').trim().split('\n').pop() ?? '';
  try {
    return JSON.parse(last) as Row;
  } catch {
    const stderr = r.stderr ?? '';
    const built = stderr.match(/built in [^\n]*/g)?.pop();
    const queried = stderr.match(/\d+ queries in [^\n]*/g)?.pop();
    const progress = built && queried ? `${built}; ${queried}` : built;
    const why = r.error
      ? `${(r.error as NodeJS.ErrnoException).code ?? r.error} after ${WORKER_TIMEOUT_MS / 60_000} min`
      : `exit ${r.status}: ${stderr.slice(-300)}`;
    return { engine, corpus, error: `${why}${progress ? ` (${progress})` : ' (build not finished)'}` };
  }
}

/** A worktree of the repository at the baseline commit, its dependencies those of this checkout. */
function baselineWorktree(ref: string): string {
  const dir = join(mkdtempSync(join(tmpdir(), 'lawrisk-baseline-')), 'tree');
  execFileSync('git', ['-C', root, 'worktree', 'add', '--detach', dir, ref], { stdio: 'ignore' });
  symlinkSync(join(root, 'node_modules'), join(dir, 'node_modules'));
  return dir;
}

const baselineDir = baselineRef ? baselineWorktree(baselineRef) : null;
if (baselineDir) engines.push(`baseline:${baselineDir}`);
process.on('exit', () => {
  if (!baselineDir) return;
  execFileSync('git', ['-C', root, 'worktree', 'remove', '--force', baselineDir], { stdio: 'ignore' });
  rmSync(join(baselineDir, '..'), { recursive: true, force: true });
});

const f = (x: number | undefined, d = 3) => (x == null ? '-' : x.toFixed(d));
for (const corpus of scale ? ['real', 'scale'] : ['real']) {
  console.log(`\n== corpus: ${corpus} ==`);
  console.log('engine               | permits | risks   | build s | heap MB | index MB | p50 ms | p99 ms | p99.9 ms | MRR@10 | R@5   | nDCG@10 | neg no_match');
  const rows = new Map<string, Row>();
  for (const engine of engines) {
    const r = run(engine, corpus);
    rows.set(engine, r);
    if (r.error) {
      console.log(`${(r.engine ?? engine).padEnd(20)} | failed: ${r.error.split('\n')[0]}`);
      continue;
    }
    const rel = r.relevance;
    console.log(
      [
        r.engine!.padEnd(20),
        String(r.permits).padStart(7),
        String(r.risks).padStart(7),
        f(r.buildMs! / 1000, 1).padStart(7),
        String(r.heapAfterGcMb).padStart(7),
        String(engine === 'fts5' ? r.rssDeltaMb : r.indexMb).padStart(8),
        f(r.p50Ms).padStart(6),
        f(r.p99Ms).padStart(6),
        f(r.p999Ms).padStart(8),
        (rel ? f(rel.mrr10 ?? undefined) : '-').padStart(6),
        (rel ? f(rel.recall5 ?? undefined) : '-').padStart(5),
        (rel ? f(rel.ndcg10 ?? undefined) : '-').padStart(7),
        rel?.negativeNoMatch != null ? f(rel.negativeNoMatch, 2) : '-',
      ].join(' | '),
    );
  }
  const withSets = [...rows.values()].filter((r) => r.bySet && Object.keys(r.bySet).length > 0);
  if (withSets.length > 0) {
    console.log('\nrelevance per labelled set: MRR@10 / R@5 / nDCG@10, zero-result rate, no-match rate of the queries without an answer');
    for (const set of Object.keys(withSets[0].bySet!)) {
      console.log(`  ${set}`);
      for (const r of withSets) {
        const m = r.bySet![set];
        console.log(`    ${r.engine!.padEnd(20)} ${f(m.mrr10)} / ${f(m.recall5)} / ${f(m.ndcg10)}  zero ${f(m.zeroRate)}  no_match ${f(m.noMatch, 2)}`);
      }
    }
  }
  const ours = rows.get('ours');
  const base = baselineDir ? rows.get(`baseline:${baselineDir}`) : undefined;
  if (ours && base && !ours.error && !base.error) {
    const ratio = (a?: number, b?: number) => (a && b ? (a / b).toFixed(2) : '-');
    console.log(
      `ours / baseline ${baselineRef}: build ${ratio(ours.buildMs, base.buildMs)}×, p50 ${ratio(ours.p50Ms, base.p50Ms)}×, p99 ${ratio(ours.p99Ms, base.p99Ms)}×, p99.9 ${ratio(ours.p999Ms, base.p999Ms)}×`,
    );
  }
}
