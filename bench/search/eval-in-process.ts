/**
 * Relevance of the engine in process on the labelled queries.
 *   npx tsx bench/search/eval-in-process.ts [queries.jsonl] [--details] [--by-half]
 */
import { SearchIndex } from '../../src/modules/search/engine/index.js';
import { corpusDocs, DEV_QUERIES_PATH, loadCorpus, loadQueries } from './corpus.js';
import { report, runQueries } from './relevance-run.js';

const args = process.argv.slice(2);
const details = args.includes('--details');
const byHalf = args.includes('--by-half');
const queriesPath = args.find((a) => !a.startsWith('--')) ?? DEV_QUERIES_PATH;

const corpus = loadCorpus();
const t0 = performance.now();
const index = SearchIndex.build(corpusDocs(corpus));
console.log(`index: ${index.size} permits in ${(performance.now() - t0).toFixed(0)} ms; queries: ${queriesPath}`);
const outcomes = runQueries(corpus, loadQueries(queriesPath), (q, regionIds) =>
  index.search(q, { regionIds }).hits.map((h) => h.doc.permitId),
);
console.log(report(outcomes, details, byHalf));
