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
 * Negated words of a CJK run: where the segmenter cuts a prefix off as a word of its own, or glues
 * it to a longer compound (非煤矿山建设), the word after it. A two-character word of the prefix
 * (非法, 非常, 无证) is a word in its own right, not a negation of something.
 */
export function negations(run: string): Negation[] {
  const out: Negation[] = [];
  for (let i = 0; i < run.length - 1; i++) {
    const prefix = PREFIXES.find((p) => run.startsWith(p, i));
    if (!prefix) continue;
    const first = cutWords(run.slice(i))[0];
    if (first !== prefix && !(first.startsWith(prefix) && first.length > prefix.length + 1)) continue;
    const word = cutWords(run.slice(i + prefix.length))[0];
    if (!word) continue;
    // The compound is the prefix and the next character only: how the segmenter cuts the word after
    // it depends on what follows, and a question and a name must agree on the key.
    out.push({ start: i, wordStart: i + prefix.length, wordEnd: i + prefix.length + word.length, compound: prefix + word[0] });
    i += prefix.length + word.length - 1;
  }
  return out;
}

/** Whether [from, to) touches a negated word or straddles its prefix and the word. */
export function overlapsNegation(list: Negation[], from: number, to: number): boolean {
  for (const n of list) if (from < n.wordEnd && to > n.wordStart) return true;
  return false;
}
