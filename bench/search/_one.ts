import { corpusDocs, loadCorpus } from './corpus.js';
import { scaleCorpus } from './scale-corpus.js';
import { SearchIndex } from '../../src/modules/search/engine/index.js';
const docs = scaleCorpus(corpusDocs(loadCorpus()), 100000);
const idx = SearchIndex.build(docs);
for (const q of process.argv.slice(2)) {
  for (let i = 0; i < 10; i++) idx.search(q);
  const t = performance.now();
  for (let i = 0; i < 20; i++) idx.search(q);
  const d = idx.search(q, { debug: true }).debug!;
  console.log(q, ((performance.now() - t) / 20).toFixed(2), 'ms', JSON.stringify(d.timingsUs));
}
