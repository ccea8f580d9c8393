/**
 * Random latin letters (seeded) as questions: how many of them the engine answers, by length.
 * Letters read as initials explain a name only as a run or an abbreviation of its initials, so
 * random ones should mostly get no answer (a few short ones do abbreviate some name).
 *   npx tsx bench/search/random-letters.ts
 */
import { SearchIndex } from '../../src/modules/search/engine/index.js';
import { corpusDocs, loadCorpus } from './corpus.js';
const index = SearchIndex.build(corpusDocs(loadCorpus()));
let seed = 20261125;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2147483648) / 2147483648;
for (const len of [4, 5, 6, 7, 8]) {
  let answered = 0;
  const N = 200;
  for (let i = 0; i < N; i++) {
    let s = '';
    for (let k = 0; k < len; k++) s += String.fromCharCode(97 + Math.floor(rnd() * 26));
    if (index.search(s).hits.length > 0) answered++;
  }
  console.log(`random letters, length ${len}: answered ${answered}/${N}`);
}
