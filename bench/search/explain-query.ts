/**
 * Shows how the engine reads a query and ranks the real corpus for it.
 *   npx tsx bench/search/explain-query.ts "<query>" [region code ...]
 */
import { SearchIndex } from '../../src/modules/search/engine/index.js';
import { corpusDocs, loadCorpus } from './corpus.js';

const [query, ...regions] = process.argv.slice(2);
const index = SearchIndex.build(corpusDocs(loadCorpus()));
const res = index.search(query ?? '', { debug: true, regionIds: regions.length ? regions : null });
console.log('normalized:', res.debug?.normalizedQuery, ' timings(us):', JSON.stringify(res.debug?.timingsUs));
console.log('terms:', res.debug?.terms.map((t) => `${t.term}[${t.origin[0]}${t.weight}]`).join(' '));
for (const h of res.hits) {
  console.log(`${h.score.toFixed(3).padStart(8)} ${h.doc.permitId} ${h.doc.name}  ${JSON.stringify(h.breakdown)}  ${h.matched.slice(0, 5).join('|')}`);
}
