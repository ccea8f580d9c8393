import { getLexicon } from './lexicon.js';
import { W } from './ranking-params.js';
import { runsOf } from './terms.js';
import type { TermCollector } from './query-terms.js';
import type { TermOrigin } from './types.js';

/** Terms that stand in for query text: synonyms from the domain dictionary and words found by sound. */

/**
 * Members of the word's synonym groups. A member counts only as a whole: its own key when it is
 * one or two characters, its word key when longer (documents index words of 3+ characters).
 */
export function addSynonyms(word: string, weight: number, from: number, to: number, out: TermCollector, origin: TermOrigin = 'synonym'): void {
  const lex = getLexicon();
  for (const g of lex.groupsOf.get(word) ?? []) {
    for (const member of lex.groups[g]) if (member !== word) out.add(member, member, origin, W.synonym * weight, from, to);
  }
}

/**
 * Adds the keys of a word standing for query positions [from, to): its bigrams (or its single
 * character), and its whole form when it has 3+ characters. The weight is spread when the word
 * has more bigrams than the budget, so a long stand-in does not outweigh the text it replaces.
 */
export function addPhrase(phrase: string, origin: TermOrigin, weight: number, budget: number, from: number, to: number, out: TermCollector): void {
  for (const run of runsOf(phrase)) {
    const t = run.text;
    if (!run.cjk || t.length === 1) {
      out.add(t, t, origin, weight, from, to);
      continue;
    }
    const each = weight * Math.min(1, budget / (t.length - 1));
    for (let i = 0; i + 1 < t.length; i++) out.add(t.slice(i, i + 2), t.slice(i, i + 2), origin, each, from, to);
    if (t.length >= 3) out.add(t, t, origin, W.word * weight, from, to);
  }
}
