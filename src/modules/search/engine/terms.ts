import { CH_ALNUM, CH_CJK, charClass, foldTable, toSimplified } from './normalize.js';

/**
 * Index keys. Text terms are the normalised text itself (unigram, bigram, word, latin token);
 * pinyin keys start with "~" and initials keys with "^", characters normalisation never leaves
 * in text, so the three kinds cannot collide.
 */
export const pinyinKey = (syllables: string): string => '~' + syllables;
export const initialsKey = (letters: string): string => '^' + letters;
export const isTextKey = (key: string): boolean => key[0] !== '~' && key[0] !== '^';

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
    const cls = charClass[normalized.charCodeAt(i)];
    if (cls !== CH_CJK && cls !== CH_ALNUM) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < n && charClass[normalized.charCodeAt(j)] === cls) j++;
    runs.push({ text: normalized.slice(i, j), start: i, cjk: cls === CH_CJK });
    i = j;
  }
  return runs;
}

/**
 * Bigrams of CJK runs and latin tokens of long text, straight from the raw string (folding on the
 * fly): the hot path of indexing risk texts, so no intermediate strings beyond the keys.
 * Returns the count of indexed characters (the field length).
 */
export function emitBigrams(raw: string, emit: (key: string) => void): number {
  const s = toSimplified(raw);
  let len = 0;
  let prev = 0;
  let tokenStart = -1;
  let token = '';
  for (let i = 0; i <= s.length; i++) {
    const c = i < s.length ? foldTable[s.charCodeAt(i)] : 0x20;
    const cls = charClass[c];
    if (cls === CH_ALNUM) {
      if (tokenStart < 0) {
        tokenStart = i;
        token = '';
      }
      token += String.fromCharCode(c);
    } else if (tokenStart >= 0) {
      emit(token);
      len++;
      tokenStart = -1;
    }
    if (cls === CH_CJK) {
      len++;
      if (prev !== 0) emit(String.fromCharCode(prev, c));
      prev = c;
    } else prev = 0;
  }
  return len;
}
