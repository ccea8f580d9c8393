import { corpusDocs, loadCorpus } from './corpus.js';
import { scaleCorpus } from './scale-corpus.js';
import { SearchIndex } from '../../src/modules/search/engine/index.js';
const docs = scaleCorpus(corpusDocs(loadCorpus()), 100000);
const idx = SearchIndex.build(docs);
for (const q of process.argv.slice(2)) {
  for (let i = 0; i < 300; i++) idx.search(q);
  (globalThis as any).R = undefined;
  const N = 300; const t = performance.now();
  for (let i = 0; i < N; i++) idx.search(q);
  const R = (globalThis as any).R;
  const d = idx.search(q, { debug: true }).debug!;
  console.log(q, ((performance.now() - t) / N).toFixed(3), 'ms; seed,scan,kth+surv,probe,hits', R.slice(0, 5).map((x: number) => (x / N).toFixed(3)).join(' '), 'live', R[6] / N, 'touched', R[7] / N, 'scanned', R[8] / N, 'th0', R[9].toFixed(2), JSON.stringify(d.timingsUs));
  console.log('  ', JSON.stringify((globalThis as any).INFO));
}
