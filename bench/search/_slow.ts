import { corpusDocs, loadCorpus, loadQueries } from './corpus.js';
import { scaleCorpus } from './scale-corpus.js';
import { latencyQueries } from './query-mix.js';
import { SearchIndex } from '../../src/modules/search/engine/index.js';
const real = corpusDocs(loadCorpus());
const docs = scaleCorpus(real, Number(process.argv[2] ?? 100000));
const idx = SearchIndex.build(docs);
const qs = latencyQueries(docs, loadQueries().map(q => ({ query: q.query, regionIds: null }))).slice(0, 1160);
for (const q of qs) idx.search(q.query, { regionIds: q.regionIds });
const rows: [number, string, string][] = [];
for (const q of qs) {
  const t = performance.now();
  for (let i = 0; i < 3; i++) idx.search(q.query, { regionIds: q.regionIds });
  const ms = (performance.now() - t) / 3;
  const d = idx.search(q.query, { regionIds: q.regionIds, debug: true }).debug!;
  rows.push([ms, q.query + (q.regionIds ? ' [region]' : ''), JSON.stringify(d.timingsUs) + ' terms=' + d.terms.length]);
}
rows.sort((a, b) => a[0] - b[0]);
const p = (x: number) => rows[Math.floor(x * (rows.length - 1))][0].toFixed(3);
console.log('p50', p(0.5), 'p90', p(0.9), 'p99', p(0.99));
for (const r of [...rows.slice(Math.floor(rows.length*0.45), Math.floor(rows.length*0.45)+12), ...rows.slice(-8)]) console.log(r[0].toFixed(2), r[1], r[2]);
