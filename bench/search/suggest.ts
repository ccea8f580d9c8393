/**
 * What suggestions as a person types cost (docs/public-search.md), on the real catalogue and on
 * the 100k-permit scale catalogue: p50 and p99 of a suggestion for the first one to six
 * characters of the dev questions, next to the engine's search of the whole question measured in
 * turns in the same run; and the time to make the candidates again after the index changed (the
 * first suggestion after a change pays it).
 *   npx tsx --expose-gc bench/search/suggest.ts [--scale]
 */
import type { AppContext } from '../../src/context.js';
import { SearchIndex } from '../../src/modules/search/engine/index.js';
import type { SearchIndexHolder } from '../../src/modules/search/search-index.service.js';
import { Suggester } from '../../src/modules/search/suggest.js';
import { corpusDocs, loadCorpus, loadQueries, regionFilter } from './corpus.js';
import { scaleCorpus } from './scale-corpus.js';

const scale = process.argv.includes('--scale');
const corpus = loadCorpus();
const real = corpusDocs(corpus);
const docs = scale ? scaleCorpus(real) : real;
const dev = loadQueries().map((q) => ({ query: q.query, regionIds: regionFilter(corpus, q.region) }));

let t0 = performance.now();
const index = SearchIndex.build(docs);
console.log(`${scale ? 'scale' : 'real'} catalogue: ${docs.length} permits, index built in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

let version = 1;
const holder = {
  get current() {
    return index;
  },
  get version() {
    return version;
  },
} as unknown as SearchIndexHolder;
// The query log is off: the popular questions are a list read every ten minutes, not what is measured.
const ctx = { now: () => Date.now(), config: { queryLogDays: 0 } } as unknown as AppContext;
const suggester = new Suggester(ctx, holder);

const builds: number[] = [];
for (let i = 0; i < 3; i++) {
  version += 1;
  t0 = performance.now();
  suggester.suggest('食品', null);
  builds.push(performance.now() - t0);
}

/** What is typed on the way to each dev question: its first one to six characters. */
const typed = dev.flatMap((q) => [1, 2, 3, 4, 6].filter((n) => n <= q.query.length).map((n) => ({ text: q.query.slice(0, n), regionIds: q.regionIds })));
const suggestTimes: number[] = [];
const searchTimes: number[] = [];
for (const q of dev.slice(0, 200)) index.search(q.query, { regionIds: q.regionIds }); // warm-up
for (const t of typed.slice(0, 500)) suggester.suggest(t.text, t.regionIds);
for (let round = 0; round < 3; round++) {
  (globalThis as { gc?: () => void }).gc?.();
  for (const t of typed) {
    const s = performance.now();
    suggester.suggest(t.text, t.regionIds);
    suggestTimes.push(performance.now() - s);
  }
  (globalThis as { gc?: () => void }).gc?.();
  for (const q of dev) {
    const s = performance.now();
    index.search(q.query, { regionIds: q.regionIds });
    searchTimes.push(performance.now() - s);
  }
}

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)];
const us = (ms: number) => `${(ms * 1000).toFixed(0).padStart(6)} µs`;
const line = (name: string, xs: number[]) => `${name.padEnd(26)} p50 ${us(pct(xs, 0.5))}  p99 ${us(pct(xs, 0.99))}`;
console.log(line(`suggest (${typed.length} texts)`, suggestTimes));
console.log(line(`search (${dev.length} questions)`, searchTimes));
console.log(
  `suggest ÷ search: p50 ×${(pct(suggestTimes, 0.5) / pct(searchTimes, 0.5)).toFixed(2)}, p99 ×${(pct(suggestTimes, 0.99) / pct(searchTimes, 0.99)).toFixed(2)}`,
);
console.log(`candidates made again after a change: ${builds.map((b) => `${b.toFixed(0)} ms`).join(', ')}`);
