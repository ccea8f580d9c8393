import * as OpenCC from 'opencc-js';

/**
 * Text normalisation shared by documents and queries. It is length-preserving (one UTF-16 unit
 * in, one out) so that positions in normalised text point at the same characters of the
 * original, which is how highlights are cut from the original text.
 */

export const CH_SEP = 0;
export const CH_CJK = 1;
export const CH_ALNUM = 2;

/** Character class of every BMP code unit after normalisation. */
export const charClass = new Uint8Array(65536);
for (let c = 0x30; c <= 0x39; c++) charClass[c] = CH_ALNUM;
for (let c = 0x61; c <= 0x7a; c++) charClass[c] = CH_ALNUM;
for (let c = 0x3400; c <= 0x4dbf; c++) charClass[c] = CH_CJK;
for (let c = 0x4e00; c <= 0x9fff; c++) charClass[c] = CH_CJK;
for (let c = 0xf900; c <= 0xfaff; c++) charClass[c] = CH_CJK;
charClass[0x3007] = CH_CJK; // 〇

// opencc-js's type files import './core' without an extension, which NodeNext resolution cannot
// follow, so the converter's type is declared here.
const openccConverter = OpenCC.Converter as unknown as (options: { from: string; to: string }) => (s: string) => string;

let t2s: ((s: string) => string) | null = null;
/** Per-character traditional → simplified map (0 = unchanged), filled on first use. */
const t2sChar = new Uint16Array(65536);

function ensureT2s(): (s: string) => string {
  if (t2s) return t2s;
  const conv = openccConverter({ from: 't', to: 'cn' });
  // One call over all CJK characters, newline-separated so no phrase rule spans two of them.
  const chars: string[] = [];
  for (let c = 0x4e00; c <= 0x9fff; c++) chars.push(String.fromCharCode(c));
  const out = conv(chars.join('\n')).split('\n');
  for (let i = 0; i < chars.length; i++) {
    const o = out[i];
    if (o && o.length === 1 && o !== chars[i]) t2sChar[chars[i].charCodeAt(0)] = o.charCodeAt(0);
  }
  t2s = conv;
  return conv;
}

function hasTraditional(s: string): boolean {
  for (let i = 0; i < s.length; i++) if (t2sChar[s.charCodeAt(i)] !== 0) return true;
  return false;
}

/** Each code unit folded: full-width → ASCII, upper → lower case, anything else than a letter, digit or CJK → space. */
export const foldTable = new Uint16Array(65536);
for (let c = 0; c < 65536; c++) {
  let f = c;
  if (f >= 0xff01 && f <= 0xff5e) f -= 0xfee0; // full-width ASCII
  if (f >= 0x41 && f <= 0x5a) f += 0x20;
  foldTable[c] = charClass[f] === CH_SEP ? 0x20 : f;
}

/**
 * Traditional → simplified. Whole-string OpenCC conversion (phrase-aware) is used only when the
 * text holds a traditional character and the conversion keeps the length; otherwise the
 * per-character map applies. Text without traditional characters is returned as is (the cheap,
 * common case for the catalogue).
 */
export function toSimplified(s: string): string {
  const conv = ensureT2s();
  if (!hasTraditional(s)) return s;
  const converted = conv(s);
  if (converted.length === s.length) return converted;
  let out = '';
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out += String.fromCharCode(t2sChar[c] || c);
  }
  return out;
}

/** Full normalisation to a string of the same length: simplified, folded, punctuation as spaces. */
export function normalizeText(input: string): string {
  const s = toSimplified(input);
  const codes = new Uint16Array(s.length);
  let changed = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    codes[i] = foldTable[c];
    if (codes[i] !== c) changed = true;
  }
  if (!changed) return s;
  let out = '';
  for (let i = 0; i < codes.length; i += 8192) out += String.fromCharCode(...codes.subarray(i, i + 8192));
  return out;
}
