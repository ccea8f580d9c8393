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
import { corpusDocs, loadCorpus } from './corpus.js';
import { evalSetQueries, runEvalSets } from './eval-sets.js';

const corpus = loadCorpus();
const docs = corpusDocs(corpus);
const tuned = evalSetQueries().filter((s) => s.tuned);
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
  const sets = runEvalSets(corpus, search, tuned);
  console.log(`${arg.padEnd(28)} ${sets.map((s) => `${s.name} ${summary(s.outcomes)}`).join('  ')}`);
}
