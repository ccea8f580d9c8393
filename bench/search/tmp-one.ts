import { SearchIndex } from '../../src/modules/search/engine/index.js';
import { corpusDocs, loadCorpus } from './corpus.js';
import { P } from '../../src/modules/search/engine/ranking-params.js';
const index = SearchIndex.build(corpusDocs(loadCorpus()));
const q = process.argv[2]; const want = process.argv[3];
P.rerankPool = 200;
const r = index.search(q, { debug: true });
r.hits.forEach((h, i) => { if (h.doc.name.includes(want)) console.log(i, h.score, h.doc.name, JSON.stringify(h.explain)); });
