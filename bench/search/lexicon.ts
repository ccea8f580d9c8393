/**
 * What the administrators' lexicon costs a search (docs/search-lexicon.md): the latency queries
 * answered in turns by an index without entries, one with a small lexicon (100 entries) and one at
 * the limit (10,000 entries of every kind, a quarter of the curation rules matching by
 * "contains"), in one run; p50 and p99 of each, and their ratios to the index without entries.
 * Also the time to apply a change of aliases in place: one permit's, and one reaching most of the
 * catalogue (a preview of an alias change does it twice).
 *   npx tsx --expose-gc bench/search/lexicon.ts
 */
import { AdminLexicon, NO_RULES, type LexiconRules } from '../../src/modules/search/engine/admin-lexicon.js';
import { SearchIndex } from '../../src/modules/search/engine/index.js';
import { corpusDocs, loadCorpus, loadQueries, regionFilter } from './corpus.js';
import { latencyQueries } from './query-mix.js';

const corpus = loadCorpus();
const docs = corpusDocs(corpus);
const dev = loadQueries().map((q) => ({ query: q.query, regionIds: regionFilter(corpus, q.region) }));
const queries = latencyQueries(docs, dev, 6_000);
const visible = docs.filter((d) => d.visible);
const regions = [...new Set(docs.map((d) => d.regionId))];

/** `n` entries spread over the four kinds, on made-up words (so that answers are not what is measured). */
function rules(n: number): LexiconRules {
  const r: LexiconRules = { synonyms: [], expansions: [], aliases: [], curations: [] };
  for (let i = 0; i < n; i++) {
    const word = `词${i.toString(36)}条`;
    const regionId = i % 3 === 0 ? null : regions[i % regions.length];
    const doc = visible[i % visible.length];
    if (i % 4 === 0) r.synonyms.push({ words: [word, `同${word}`], replace: false, regionId });
    else if (i % 4 === 1) r.expansions.push({ from: word, to: [`扩${word}`], regionId });
    else if (i % 4 === 2) r.aliases.push({ phrases: [word], code: doc.code, pattern: null, regionId: doc.regionId });
    else r.curations.push({ phrase: word, match: i % 16 === 3 ? 'contains' : 'exact', pins: [doc.permitId], hides: [], regionId: doc.regionId });
  }
  return r;
}

const variants = [
  { name: 'no entries', index: SearchIndex.build(docs) },
  { name: '100 entries', index: SearchIndex.build(docs, new AdminLexicon(rules(100))) },
  { name: '10,000 entries', index: SearchIndex.build(docs, new AdminLexicon(rules(10_000))) },
];
const times = variants.map(() => [] as number[]);
for (const v of variants) for (const q of queries.slice(0, 500)) v.index.search(q.query, { regionIds: q.regionIds }); // warm-up
for (let round = 0; round < 3; round++) {
  variants.forEach((v, i) => {
    (globalThis as { gc?: () => void }).gc?.();
    for (const q of queries) {
      const t0 = performance.now();
      v.index.search(q.query, { regionIds: q.regionIds });
      times[i].push(performance.now() - t0);
    }
  });
}
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) * p)];
const base = { p50: pct(times[0], 0.5), p99: pct(times[0], 0.99) };
variants.forEach((v, i) => {
  const p50 = pct(times[i], 0.5);
  const p99 = pct(times[i], 0.99);
  console.log(
    `${v.name.padEnd(15)} p50 ${(p50 * 1000).toFixed(0).padStart(5)} µs  p99 ${(p99 * 1000).toFixed(0).padStart(6)} µs  ×${(p50 / base.p50).toFixed(2)} / ×${(p99 / base.p99).toFixed(2)}`,
  );
});

const live = variants[0].index;
const oneAlias = new AdminLexicon({ ...NO_RULES, aliases: [{ phrases: ['嗷呜嗷呜'], code: visible[0].code, pattern: null, regionId: null }] });
const t0 = performance.now();
live.setLexicon(oneAlias);
console.log(`apply one alias by code in place: ${(performance.now() - t0).toFixed(1)} ms`);
const everywhere = new AdminLexicon({ ...NO_RULES, aliases: [{ phrases: ['嗷呜嗷呜'], code: null, pattern: '许可', regionId: null }] });
const t1 = performance.now();
live.setLexicon(everywhere);
console.log(
  `apply an alias by a pattern matching ${live.documents().filter((d) => d.name.includes('许可')).length} of ${live.size} permits in place: ${(performance.now() - t1).toFixed(0)} ms`,
);
