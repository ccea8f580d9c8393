import { CH_ALNUM, CH_CJK, charClass, foldTable, toSimplified } from './normalize.js';

/**
 * Index keys. Text terms are the normalised text itself (unigram, bigram, word, latin token);
 * pinyin keys start with "~", initials keys with "^" and the knowledge spaces' keys with their own
 * mark (ranking-params.ts): characters normalisation never leaves in text, so no two kinds collide.
 */
export const pinyinKey = (syllables: string): string => '~' + syllables;
export const initialsKey = (letters: string): string => '^' + letters;
export const isSoundKey = (key: string): boolean => key[0] === '~' || key[0] === '^';

// Local copies of imported tables and constants: hot loops read these, never the imports (reads
// of imported bindings cost several times more in V8's optimised code).
const fold = foldTable;
const cls = charClass;
const CJK = CH_CJK;
const ALNUM = CH_ALNUM;

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
    if (c !== CJK && c !== ALNUM) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < n && cls[normalized.charCodeAt(j)] === c) j++;
    runs.push({ text: normalized.slice(i, j), start: i, cjk: c === CJK });
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

const FEI = 0x975e; // 非
const BU = 0x4e0d; // 不
const YU = 0x4e88; // 予

/**
 * Bigrams of CJK runs and latin tokens of long text, straight from the raw string (folding on
 * the fly): the hot path of indexing risk texts, so no strings are made for bigrams. The bigram
 * right after 非 or 不予 is left out: 许可 in 不予许可 is not a 许可 (negation.ts, which the short
 * fields use, needs the segmenter: too slow for these texts). Returns the count of indexed
 * characters (the field length).
 */
export function emitBigrams(raw: string, sink: BigramSink): number {
  const s = toSimplified(raw);
  let len = 0;
  let prev = 0;
  let prev2 = 0;
  let prev3 = 0;
  let tokenStart = -1;
  const n = s.length;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? fold[s.charCodeAt(i)] : 0x20;
    const k = cls[c];
    if (k === ALNUM) {
      if (tokenStart < 0) tokenStart = i;
    } else if (tokenStart >= 0) {
      sink.token(foldRange(s, tokenStart, i));
      len++;
      tokenStart = -1;
    }
    if (k === CJK) {
      len++;
      if (prev !== 0 && prev2 !== FEI && !(prev2 === YU && prev3 === BU)) sink.bigram(prev, c);
      prev3 = prev2;
      prev2 = prev;
      prev = c;
    } else prev = prev2 = prev3 = 0;
  }
  return len;
}

function foldRange(s: string, from: number, to: number): string {
  let out = '';
  for (let i = from; i < to; i++) out += String.fromCharCode(fold[s.charCodeAt(i)]);
  return out;
}
