import { corpusDocs, loadCorpus } from './corpus.js';
import { scaleCorpus } from './scale-corpus.js';
import { SearchIndex } from '../../src/modules/search/engine/index.js';
const docs = scaleCorpus(corpusDocs(loadCorpus()), 100000);
const idx = SearchIndex.build(docs);
for (const q of process.argv.slice(2)) {
  for (let i = 0; i < 10; i++) idx.search(q);
  (globalThis as any).R = undefined;
  const t = performance.now();
  for (let i = 0; i < 200; i++) idx.search(q);
  const R = (globalThis as any).R;
  console.log(q, ((performance.now() - t) / 200).toFixed(3), 'ms; seed,scan,kth+surv,probe,hits', R.slice(0, 5).map((x: number) => (x / 200).toFixed(2)).join(' '), 'cands', R[6] / 200, 'touched', R[7] / 200, 'scannedLists', R[8] / 200);
}
