import { CH_ALNUM, CH_CJK, charClass, foldTable, toSimplified } from './normalize.js';

/**
 * Index keys. Text terms are the normalised text itself (unigram, bigram, word, latin token);
 * pinyin keys start with "~" and initials keys with "^", characters normalisation never leaves
 * in text, so the three kinds cannot collide.
 */
export const pinyinKey = (syllables: string): string => '~' + syllables;
export const initialsKey = (letters: string): string => '^' + letters;
export const isTextKey = (key: string): boolean => key[0] !== '~' && key[0] !== '^';

// Module-local references: the hot loops below must not go through module binding accessors.
const fold = foldTable;
const cls = charClass;

export interface Run {
  /** Normalised text of the run. */
  text: string;
  start: number;
  cjk: boolean;
}

/** Maximal runs of CJK characters and of letters/digits in already normalised text. */
export function runsOf(normalized: string): Run[] {
  const runs: Run[] = [];
  let i = 0;
  const n = normalized.length;
  while (i < n) {
    const c = cls[normalized.charCodeAt(i)];
    if (c !== CH_CJK && c !== CH_ALNUM) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < n && cls[normalized.charCodeAt(j)] === c) j++;
    runs.push({ text: normalized.slice(i, j), start: i, cjk: c === CH_CJK });
    i = j;
  }
  return runs;
}

export interface BigramSink {
  /** A bigram of two CJK code units. */
  bigram(c1: number, c2: number): void;
  /** A latin/digit token. */
  token(text: string): void;
}

/**
 * Bigrams of CJK runs and latin tokens of long text, straight from the raw string (folding on
 * the fly): the hot path of indexing risk texts, so no strings are made for bigrams.
 * Returns the count of indexed characters (the field length).
 */
export function emitBigrams(raw: string, sink: BigramSink): number {
  const s = toSimplified(raw);
  let len = 0;
  let prev = 0;
  let tokenStart = -1;
  const n = s.length;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? fold[s.charCodeAt(i)] : 0x20;
    const k = cls[c];
    if (k === CH_ALNUM) {
      if (tokenStart < 0) tokenStart = i;
    } else if (tokenStart >= 0) {
      sink.token(foldRange(s, tokenStart, i));
      len++;
      tokenStart = -1;
    }
    if (k === CH_CJK) {
      len++;
      if (prev !== 0 && prev >= 0x3400 && prev <= 0x9fff && c <= 0x9fff) sink.bigram(prev, c);
      prev = c;
    } else prev = 0;
  }
  return len;
}

function foldRange(s: string, from: number, to: number): string {
  let out = '';
  for (let i = from; i < to; i++) out += String.fromCharCode(fold[s.charCodeAt(i)]);
  return out;
}
