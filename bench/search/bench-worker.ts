/**
 * One engine on one corpus in a fresh process (so heap figures are its own); prints one JSON
 * line. Run by bench.ts: node --expose-gc --import tsx bench/search/bench-worker.ts <engine> <real|scale>
 */
import { join } from 'node:path';
import { setImmediate as tick } from 'node:timers/promises';
import { summarise } from '../../src/modules/search/engine/relevance-metrics.js';
import { corpusDocs, loadCorpus, loadQueries, regionFilter } from './corpus.js';
import { latencyQueries } from './query-mix.js';
import { runEvalSets } from './eval-sets.js';
import { runQueries } from './relevance-run.js';
import { scaleCorpus } from './scale-corpus.js';
import type { BenchEngine } from './engines/engine.js';
import { FlexSearchEngine } from './engines/flexsearch.js';
import { Fts5Engine } from './engines/fts5.js';
import { MiniSearchEngine } from './engines/minisearch.js';
import { OurEngine } from './engines/ours.js';

const ENGINES: Record<string, () => BenchEngine | Promise<BenchEngine>> = {
  ours: () => new OurEngine(),
  minisearch: () => new MiniSearchEngine(),
  flexsearch: () => new FlexSearchEngine(),
  fts5: () => new Fts5Engine(),
};

/** The engine of another checkout of the project (bench.ts --baseline), behind the same interface as ours. */
async function baselineEngine(dir: string): Promise<BenchEngine> {
  const { SearchIndex } = (await import(join(dir, 'src/modules/search/engine/index.ts'))) as typeof import('../../src/modules/search/engine/index.js');
  let index = SearchIndex.build([]);
  return {
    name: 'baseline engine',
    build: (docs) => void (index = SearchIndex.build(docs)),
    search: (query, regionIds) => index.search(query, { regionIds }).hits.map((h) => h.doc.permitId),
  };
}

async function settledMemory(): Promise<NodeJS.MemoryUsage> {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) throw new Error('run with --expose-gc');
  for (let i = 0; i < 3; i++) {
    gc();
    await tick();
  }
  return process.memoryUsage();
}

const percentile = (sorted: Float64Array, p: number) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];

async function main(): Promise<void> {
  const [engineName, corpusKind] = process.argv.slice(2);
  const corpus = loadCorpus();
  const real = corpusDocs(corpus);
  const docs = corpusKind === 'scale' ? scaleCorpus(real) : real;
  const dev = loadQueries();
  const engine = engineName.startsWith('baseline:') ? await baselineEngine(engineName.slice('baseline:'.length)) : await ENGINES[engineName]();

  const before = await settledMemory();
  const t0 = performance.now();
  await engine.build(docs);
  const buildMs = performance.now() - t0;
  const after = await settledMemory();
  // Progress for the runner, should the query phase not finish in time.
  process.stderr.write(`built in ${(buildMs / 1000).toFixed(1)} s, heap ${Math.round((after.heapUsed + after.arrayBuffers) / 1e6)} MB\n`);

  const devQueries = dev.map((q) => ({ query: q.query, regionIds: corpusKind === 'scale' ? null : regionFilter(corpus, q.region) }));
  const queries = latencyQueries(docs, devQueries);
  for (const q of queries.slice(0, 500)) engine.search(q.query, q.regionIds);
  const times = new Float64Array(queries.length);
  const queryStart = performance.now();
  queries.forEach((q, i) => {
    const t = performance.now();
    engine.search(q.query, q.regionIds);
    times[i] = performance.now() - t;
    // Progress for the runner: a peer too slow to finish still leaves a figure.
    if ((i + 1) % 500 === 0) {
      const done = times.slice(0, i + 1).sort();
      process.stderr.write(
        `${i + 1} queries in ${((performance.now() - queryStart) / 1000).toFixed(0)} s, p50 ${percentile(done, 0.5).toFixed(1)} ms, p99 ${percentile(done, 0.99).toFixed(1)} ms so far\n`,
      );
    }
  });
  times.sort();

  let relevance: Record<string, number | null> | null = null;
  const bySet: Record<string, Record<string, number>> = {};
  if (corpusKind !== 'scale') {
    const outcomes = runQueries(corpus, dev, (q, regionIds) => engine.search(q, regionIds));
    const s = summarise(outcomes);
    relevance = {
      mrr10: s.overall.mrr10,
      recall5: s.overall.recall5,
      ndcg10: s.overall.ndcg10,
      zeroResultRate: s.overall.zeroRate,
      negativeNoMatch: s.negatives.noMatchRate,
    };
    for (const set of runEvalSets(corpus, (q, regionIds) => engine.search(q, regionIds))) {
      const m = summarise(set.outcomes);
      bySet[set.name] = {
        mrr10: m.overall.mrr10,
        recall5: m.overall.recall5,
        ndcg10: m.overall.ndcg10,
        zeroRate: m.overall.zeroRate,
        noMatch: m.negatives.noMatchRate,
      };
    }
  }
  const mb = (x: number) => Math.round(x / 1e6);
  console.log(
    JSON.stringify({
      engine: engine.name,
      corpus: corpusKind,
      permits: docs.length,
      risks: docs.reduce((s, d) => s + d.risks.length, 0),
      buildMs: Math.round(buildMs),
      heapAfterGcMb: mb(after.heapUsed + after.arrayBuffers),
      indexMb: mb(after.heapUsed + after.arrayBuffers + after.external - before.heapUsed - before.arrayBuffers - before.external),
      rssDeltaMb: mb(after.rss - before.rss),
      queries: queries.length,
      p50Ms: percentile(times, 0.5),
      p99Ms: percentile(times, 0.99),
      p999Ms: percentile(times, 0.999),
      meanMs: times.reduce((a, b) => a + b, 0) / times.length,
      relevance,
      bySet,
    }),
  );
}

main().catch((e) => {
  console.log(JSON.stringify({ error: String(e?.stack ?? e) }));
  process.exit(1);
});
