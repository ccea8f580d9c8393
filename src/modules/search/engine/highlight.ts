import { normalizeText, toSimplified } from './normalize.js';
import { soundWindows } from './name-forms.js';
import type { SearchDoc } from './types.js';

const MAX_MATCHED = 16;
const CACHE_LIMIT = 4096;

interface DocText {
  /** All searchable texts of the document joined by newlines, and a lower-cased simplified twin of the same length. */
  original: string;
  normalized: string;
}

/** Joined texts of recently highlighted documents (hits repeat across queries). */
const cache = new Map<SearchDoc, DocText>();

function docText(doc: SearchDoc): DocText {
  let t = cache.get(doc);
  if (!t) {
    const parts = [doc.name, ...doc.themes.map((x) => x.name), ...doc.approvalDepartments];
    for (const r of doc.risks) parts.push(r.title, r.description ?? '', r.legalBasis ?? '', r.consequence ?? '', r.prevention ?? '');
    const original = parts.join('\n');
    // Keys are simplified and lower-case; a native lower-casing keeps this cheap for long texts.
    const lower = toSimplified(original).toLowerCase();
    t = { original, normalized: lower.length === original.length ? lower : normalizeText(original) };
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(doc, t);
  }
  return t;
}

/**
 * The substrings of a document's own text that the query's matched terms cover, merged into
 * maximal runs: what a client highlights. Pinyin and initials matches mark the name characters
 * they were read from (the name comes first in the joined text). Longest first.
 */
export function matchedSubstrings(doc: SearchDoc, textKeys: Set<string>, soundKeys: Set<string>): string[] {
  const { original, normalized } = docText(doc);
  const marks = new Uint8Array(normalized.length);
  for (const key of textKeys) {
    for (let at = normalized.indexOf(key); at >= 0; at = normalized.indexOf(key, at + 1)) marks.fill(1, at, at + key.length);
  }
  if (soundKeys.size > 0) {
    for (const w of soundWindows(doc.name)) if (w.keys.some((k) => soundKeys.has(k))) marks.fill(1, w.start, w.end);
  }
  const found = new Set<string>();
  for (let s = 0; s < marks.length; s++) {
    if (!marks[s]) continue;
    let e = s;
    while (e < marks.length && marks[e]) e++;
    const piece = normalized.slice(s, e).trim();
    if (piece.length >= 2 || textKeys.has(piece)) found.add(original.slice(s, e).trim());
    s = e;
  }
  return [...found].sort((a, b) => b.length - a.length).slice(0, MAX_MATCHED);
}

