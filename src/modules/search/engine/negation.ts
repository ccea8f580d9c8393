import { cutWords } from './segmenter.js';

/**
 * Words whose meaning a prefix turns around: 企业 in 民办非企业单位, 许可 in 不予许可, 保存价值 in
 * 无保存价值. Such a word does not count as the word itself, on either side: documents and queries
 * index the compound (the prefix and the word's first character, "非企") instead of the word's own
 * keys, so 企业 does not find 非企业 and 非企业 finds only 非企业.
 */
export interface Negation {
  /** Where the prefix starts, in the run. */
  start: number;
  /** The negated word [wordStart, wordEnd). */
  wordStart: number;
  wordEnd: number;
  compound: string;
}

const PREFIXES = ['不予', '非', '无'];

/**
 * Negated words of a CJK run, as the segmenter cuts it: a prefix cut off as a word of its own
 * negates the next word; a prefix opening a longer word (非煤矿山建设) negates the rest of it; a
 * prefix inside a word after two or more characters (民办非企业单位) negates what follows it
 * there. A two-character word of the prefix (非法, 非常, 无证) is a word in its own right, and an
 * abbreviation (民非登记: 民办非企业单位登记) holds its 非 after a single character.
 */
export function negations(run: string): Negation[] {
  if (!PREFIXES.some((p) => run.includes(p))) return [];
  const out: Negation[] = [];
  const words = cutWords(run);
  let at = 0;
  words.forEach((w, i) => {
    for (const prefix of PREFIXES) {
      const o = w.indexOf(prefix);
      if (o < 0) continue;
      let word: string | undefined;
      if (o === 0 && w === prefix) word = words[i + 1];
      else if (o === 0 && w.length > prefix.length + 1) word = cutWords(w.slice(prefix.length))[0];
      else if (o >= 2 && w.length > o + prefix.length) word = cutWords(run.slice(at + o + prefix.length))[0];
      if (!word) continue;
      const start = at + o;
      // The compound is the prefix and the next character only: how the segmenter cuts the word
      // after it depends on what follows, and a question and a name must agree on the key.
      out.push({ start, wordStart: start + prefix.length, wordEnd: start + prefix.length + word.length, compound: prefix + word[0] });
      break;
    }
    at += w.length;
  });
  return out;
}

/** Whether [from, to) touches a negated word or straddles its prefix and the word. */
export function overlapsNegation(list: Negation[], from: number, to: number): boolean {
  for (const n of list) if (from < n.wordEnd && to > n.wordStart) return true;
  return false;
}
