/**
 * Shows how the engine reads queries and ranks the real corpus for them.
 *   npx tsx bench/search/explain-query.ts "<query>" ["<query>" …] [--region code …]
 */
import { SearchIndex } from '../../src/modules/search/engine/index.js';
import { corpusDocs, loadCorpus } from './corpus.js';

const args = process.argv.slice(2);
const at = args.indexOf('--region');
const queries = at >= 0 ? args.slice(0, at) : args;
const regions = at >= 0 ? args.slice(at + 1) : [];
const index = SearchIndex.build(corpusDocs(loadCorpus()));
for (const query of queries) {
  const res = index.search(query, { debug: true, regionIds: regions.length ? regions : null });
  const d = res.debug!;
  console.log(`\n### ${query}  → ${d.normalizedQuery}  ${JSON.stringify(d.timingsUs)}${d.noMatch ? '  NO_MATCH: ' + d.noMatch : ''}`);
  for (const c of d.concepts)
    console.log(
      `  [${c.kind} ${c.weight}] ${c.text}: ${c.alternatives
        .slice(0, 8)
        .map((a) => `${a.text}(${a.origin[0]}${a.weight})`)
        .join(' ')}${c.alternatives.length > 8 ? ' …' : ''}`,
    );
  for (const h of res.hits.slice(0, 8)) {
    const e = h.explain!;
    console.log(`${h.score.toFixed(3).padStart(8)} ${h.doc.permitId} ${h.doc.name.slice(0, 40)} x${e.explained} n${e.nameShare}${e.stageMatch ? ' s' : ''}`);
    console.log(`           ${e.concepts.map((c) => `${c.concept}=${c.matchedAs}/${c.evidence}:${c.score.toFixed(2)}`).join('  ')}`);
  }
  for (const c of d.cut.slice(0, 4)) console.log(`   cut ${c.reason} ${c.score} x${c.explained} ${c.permitId} ${c.name.slice(0, 30)}`);
}
