import { corpusDocs, loadCorpus, loadQueries } from './corpus.js';
import { scaleCorpus } from './scale-corpus.js';
import { latencyQueries } from './query-mix.js';
import { SearchIndex } from '../../src/modules/search/engine/index.js';
const docs = scaleCorpus(corpusDocs(loadCorpus()), 100000);
const idx = SearchIndex.build(docs);
const qs = latencyQueries(docs, loadQueries().map(q => ({ query: q.query, regionIds: null }))).slice(0, 1160);
(globalThis as any).ST = [];
for (const q of qs) idx.search(q.query, { regionIds: q.regionIds });
const st: number[][] = (globalThis as any).ST;
const col = (k: number) => st.map(r => r[k]).sort((a, b) => a - b);
for (const [k, name] of [[0, 'scanned'], [1, 'touched'], [2, 'listsScanned'], [3, 'lists']] as const) {
  const c = col(k); console.log(name, 'p50', c[Math.floor(c.length * 0.5)], 'p90', c[Math.floor(c.length * 0.9)], 'p99', c[Math.floor(c.length * 0.99)]);
}
