/**
 * Compares ranking settings on the queries tuned on: the dev set's tuning half and the two own
 * tuning sets (never a checking set).
 *   npx tsx bench/search/tune.ts '{"k1":3}' '{"fieldWeight":[20,10,8,5,1.5,0.3,16]}' ...
 * Each argument is one setting (keys of P, W, plus fieldWeight / fieldB arrays); "{}" is the
 * current one. Settings are applied on top of the current parameters, one at a time.
 */
import { SearchIndex } from '../../src/modules/search/engine/index.js';
import { FIELD_B, FIELD_WEIGHT, P, W } from '../../src/modules/search/engine/ranking-params.js';
import { summarise, type QueryOutcome } from '../../src/modules/search/engine/relevance-metrics.js';
import { corpusDocs, loadCorpus, loadQueries, TUNE2_QUERIES_PATH, TUNE_QUERIES_PATH } from './corpus.js';
import { halves, runQueries } from './relevance-run.js';

const corpus = loadCorpus();
const docs = corpusDocs(corpus);
const queries = loadQueries();
const own = loadQueries(TUNE_QUERIES_PATH);
const own2 = loadQueries(TUNE2_QUERIES_PATH);
const base = { P: { ...P }, W: { ...W }, fw: [...FIELD_WEIGHT], fb: [...FIELD_B] };

function summary(o: QueryOutcome[]): string {
  const { overall: m, negatives } = summarise(o);
  return `${m.mrr10.toFixed(3)}/${m.recall5.toFixed(3)}/${m.ndcg10.toFixed(3)} z${m.zeroRate.toFixed(3)} n${negatives.noMatchRate.toFixed(2)}`;
}

for (const arg of process.argv.slice(2)) {
  const setting = JSON.parse(arg) as Record<string, unknown>;
  Object.assign(P, base.P);
  Object.assign(W, base.W);
  FIELD_WEIGHT.splice(0, FIELD_WEIGHT.length, ...base.fw);
  FIELD_B.splice(0, FIELD_B.length, ...base.fb);
  for (const [k, v] of Object.entries(setting)) {
    if (k === 'fieldWeight') FIELD_WEIGHT.splice(0, FIELD_WEIGHT.length, ...(v as number[]));
    else if (k === 'fieldB') FIELD_B.splice(0, FIELD_B.length, ...(v as number[]));
    else if (k in P) (P as Record<string, number>)[k] = v as number;
    else if (k in W) (W as Record<string, number>)[k] = v as number;
    else throw new Error(`unknown parameter ${k}`);
  }
  const index = SearchIndex.build(docs);
  const search = (q: string, regionIds: string[] | null) => index.search(q, { regionIds }).hits.map((h) => h.doc.permitId);
  const { tuning } = halves(runQueries(corpus, queries, search));
  console.log(`${arg.padEnd(28)} dev tuning half ${summary(tuning)}  own ${summary(runQueries(corpus, own, search))}  second ${summary(runQueries(corpus, own2, search))}`);
}
