/**
 * Relevance of the engine in process on the labelled queries.
 *   npx tsx bench/search/eval-in-process.ts [queries.jsonl] [--details]
 * Without a file: the dev set's tuning and checking halves, the own tuning set and the frozen
 * checking set, each overall and per type (--details lists the imperfect queries of the sets
 * tuned on, never of the checking ones). With a file: that set alone.
 */
import { SearchIndex } from '../../src/modules/search/engine/index.js';
import { corpusDocs, loadCorpus, loadQueries } from './corpus.js';
import { evalSetsReport, runEvalSets } from './eval-sets.js';
import { report, runQueries, type SearchFn } from './relevance-run.js';

const args = process.argv.slice(2);
const details = args.includes('--details');
const queriesPath = args.find((a) => !a.startsWith('--'));

const corpus = loadCorpus();
const t0 = performance.now();
const index = SearchIndex.build(corpusDocs(corpus));
console.log(`index: ${index.size} permits in ${(performance.now() - t0).toFixed(0)} ms`);
const search: SearchFn = (q, regionIds) => index.search(q, { regionIds }).hits.map((h) => h.doc.permitId);
if (queriesPath) console.log(report(runQueries(corpus, loadQueries(queriesPath), search), { details, title: queriesPath }));
else console.log(evalSetsReport(runEvalSets(corpus, search), details));
