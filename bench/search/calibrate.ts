/**
 * Calibrates the no_match decision on the queries tuned on (the dev set's tuning half and the two
 * own tuning sets), never on a checking set: for each pair of thresholds on how well the best hit
 * explains the question's subjects (their mean quality, and the best one), the share of positive
 * questions answered with nothing and of no-answer questions answered with nothing.
 *   npx tsx bench/search/calibrate.ts [--list] [--set '{"partialPower":1}']
 */
import { SearchIndex } from '../../src/modules/search/engine/index.js';
import { P } from '../../src/modules/search/engine/ranking-params.js';
import { corpusDocs, loadCorpus, regionFilter } from './corpus.js';
import { evalSetQueries } from './eval-sets.js';

const list = process.argv.includes('--list');
// Parameter settings to calibrate with, as in tune.ts: --set '{"partialPower":1}'.
const setAt = process.argv.indexOf('--set');
if (setAt >= 0) Object.assign(P, JSON.parse(process.argv[setAt + 1]) as Partial<typeof P>);
const corpus = loadCorpus();
const index = SearchIndex.build(corpusDocs(corpus));
const saved = { mean: P.minExplained, strongest: P.minStrongest };
P.minExplained = 0;
P.minStrongest = 0;
const rows: { id: string; query: string; positive: boolean; explained: number; strongest: number; relevantTop: boolean }[] = [];
for (const q of evalSetQueries()
  .filter((s) => s.tuned)
  .flatMap((s) => s.outcomes)) {
  const text = q.query;
  const res = index.search(text, { regionIds: regionFilter(corpus, q.region), debug: true });
  const best = res.hits[0];
  const grades = new Set(q.relevant.map((r) => r.key));
  rows.push({
    id: q.id,
    query: text,
    positive: q.relevant.length > 0,
    explained: best?.explain?.explained ?? 0,
    strongest: best?.explain?.strongest ?? 0,
    relevantTop: best ? grades.has(best.doc.permitId) : false,
  });
}
P.minExplained = saved.mean;
P.minStrongest = saved.strongest;

const pos = rows.filter((r) => r.positive);
const neg = rows.filter((r) => !r.positive);
console.log(`${pos.length} positive and ${neg.length} no-answer questions tuned on; current thresholds: mean ${saved.mean}, strongest ${saved.strongest}`);
console.log('each cell: positives answered with nothing / no-answer questions answered with nothing');
const means = [0.2, 0.3, 0.35, 0.4, 0.45, 0.5, 0.55, 0.6];
console.log('strongest \\ mean ' + means.map((m) => m.toFixed(2).padStart(11)).join(''));
for (const st of [0.3, 0.4, 0.5, 0.6, 0.7, 0.75, 0.8, 0.9]) {
  const cells = means.map((m) => {
    const refused = (r: (typeof rows)[number]) => r.explained < m || r.strongest < st;
    return `${pos.filter(refused).length / pos.length < 0.1 ? ' ' : ''}${(pos.filter(refused).length / pos.length).toFixed(2)}/${(neg.filter(refused).length / neg.length).toFixed(2)}`.padStart(
      11,
    );
  });
  console.log(`${st.toFixed(2).padStart(17)} ${cells.join('')}`);
}
if (list)
  for (const r of rows.sort((a, b) => a.explained - b.explained))
    console.log(`${r.explained.toFixed(3)} ${r.strongest.toFixed(3)} ${r.positive ? 'pos' : 'NEG'} ${r.relevantTop ? 'top-ok' : '      '} ${r.id} ${r.query}`);
