import { SearchIndex } from '../../src/modules/search/engine/index.js';
import { P } from '../../src/modules/search/engine/ranking-params.js';
import { summarise } from '../../src/modules/search/engine/relevance-metrics.js';
import { corpusDocs, loadCorpus } from './corpus.js';
import { runEvalSets } from './eval-sets.js';
const corpus = loadCorpus();
const index = SearchIndex.build(corpusDocs(corpus));
for (const arg of process.argv.slice(2)) {
  const saved = { ...P };
  Object.assign(P, JSON.parse(arg));
  const sets = runEvalSets(corpus, (q, r) => index.search(q, { regionIds: r }).hits.map((h) => h.doc.permitId)).filter((s) => s.tuned);
  console.log(arg.padEnd(50), sets.map((s) => { const m = summarise(s.outcomes); return `${s.name.slice(0, 8)} ${m.overall.mrr10.toFixed(3)}/${m.overall.recall5.toFixed(3)}/${m.overall.ndcg10.toFixed(3)} z${m.overall.zeroRate.toFixed(3)} n${m.negatives.noMatchRate.toFixed(2)}`; }).join(' | '));
  Object.assign(P, saved);
}
