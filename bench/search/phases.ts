/**
 * Where the engine's time goes on the real corpus: the latency mix of bench.ts, run in process
 * after a warm-up, five rounds, each with the median of each phase (analyze, retrieve, rank) and
 * the p50/p99 of searches without debug; the last line gives the best round's p50, the steadiest
 * figure on a shared machine.
 *   npx tsx bench/search/phases.ts
 */
import { SearchIndex } from '../../src/modules/search/engine/index.js';
import { corpusDocs, loadCorpus } from './corpus.js';
import { latencyQueries } from './query-mix.js';

const docs = corpusDocs(loadCorpus());
const index = SearchIndex.build(docs);
const queries = latencyQueries(docs, [], 3000);
for (const q of queries) index.search(q.query, { regionIds: q.regionIds });
const median = (xs: number[]) => xs.sort((a, b) => a - b)[xs.length >> 1];
const p50s: number[] = [];
for (let round = 1; round <= 5; round++) {
  const phases: Record<string, number[]> = { analyze: [], retrieve: [], rank: [] };
  const plain: number[] = [];
  for (const q of queries) {
    const t = index.search(q.query, { regionIds: q.regionIds, debug: true }).debug!.timingsUs;
    phases.analyze.push(t.analyze);
    phases.retrieve.push(t.retrieve);
    phases.rank.push(t.rank);
    const started = performance.now();
    index.search(q.query, { regionIds: q.regionIds });
    plain.push((performance.now() - started) * 1000);
  }
  const p = (x: number) => plain.sort((a, b) => a - b)[Math.floor(x * plain.length)].toFixed(0);
  p50s.push(Number(p(0.5)));
  console.log(
    `round ${round}: median µs analyze ${median(phases.analyze)}, retrieve ${median(phases.retrieve)}, rank ${median(phases.rank)}; search p50 ${p(0.5)} µs, p99 ${p(0.99)} µs`,
  );
}
console.log(`best round: search p50 ${Math.min(...p50s)} µs`);
