import { getLexicon } from './lexicon.js';
import { cutForSearch } from './segmenter.js';
import { runsOf } from './terms.js';
import { W } from './ranking-params.js';
import type { Alternative, PlanBuilder } from './query-terms.js';
import type { TermOrigin } from './types.js';

/**
 * The ways a word can be found as written: a one- or two-character word as its own key; a longer
 * one whole (documents index words of three or more characters), as its bigrams together, and as
 * the longer words inside it, each standing for its share of the word.
 */
export function wordAlternatives(word: string, origin: TermOrigin, weight: number, b: PlanBuilder, expansion = false): Alternative[] {
  const runs = runsOf(word);
  if (runs.length !== 1 || !runs[0].cjk || word.length <= 2) {
    return [{ text: word, origin, weight, expansion, parts: [{ term: b.term(word, word, origin), share: 1 }] }];
  }
  const n = word.length - 1;
  const bigrams = [];
  for (let i = 0; i < n; i++) bigrams.push({ term: b.term(word.slice(i, i + 2), word.slice(i, i + 2), origin === 'word' ? 'bigram' : origin), share: 1 / n });
  const out: Alternative[] = [
    { text: word, origin, weight, expansion, parts: [{ term: b.term(word, word, origin), share: 1 }] },
    { text: word, origin: origin === 'word' ? 'bigram' : origin, weight, expansion, parts: bigrams },
  ];
  for (const sub of longerWordsInside(word))
    out.push({ text: sub, origin, weight, expansion, parts: [{ term: b.term(sub, sub, origin), share: (sub.length - 1) / n }] });
  return out;
}

const insideCache = new Map<string, string[]>();

/** The dictionary words of three or more characters inside a word (memoised: words recur across questions). */
function longerWordsInside(word: string): string[] {
  let words = insideCache.get(word);
  if (!words) {
    words = [...new Set(cutForSearch(word))].filter((w) => w.length >= 3 && w !== word);
    if (insideCache.size >= 50_000) insideCache.clear();
    insideCache.set(word, words);
  }
  return words;
}

/**
 * The word's synonyms from the general-language groups, each weighed below the word itself. Words
 * that name permits in general (许可, 审批, 证) get none: their synonyms say no more than they do.
 * The administrators' groups and expansions apply to every word; a group marked to replace the
 * bundled ones leaves its words only the administrators' synonyms.
 */
export function synonymAlternatives(word: string, weight: number, b: PlanBuilder, origin: TermOrigin = 'synonym'): Alternative[] {
  const lex = getLexicon();
  const out: Alternative[] = [];
  const admin = b.lexicon;
  for (const other of admin.expansions(word)) out.push(...wordAlternatives(other, origin, W.declared * weight, b, true));
  if (lex.generic.has(word) || admin.replaces(word)) return out;
  for (const g of lex.groupsOf.get(word) ?? []) {
    for (const member of lex.groups[g]) if (member !== word) out.push(...wordAlternatives(member, origin, W.synonym * weight, b, true));
  }
  return out;
}
