import { normalizeText } from './normalize.js';
import { readingKeys, runReadings } from './pinyin.js';
import { initialsKey, pinyinKey, runsOf } from './terms.js';
import type { SearchDoc } from './types.js';

const MAX_MATCHED = 16;

/**
 * The substrings of a document's own text that the query's matched terms cover, merged into
 * maximal runs: what a client highlights. Pinyin and initials matches mark the name characters
 * they were read from.
 */
export function matchedSubstrings(doc: SearchDoc, textKeys: Set<string>, soundKeys: Set<string>): string[] {
  const found = new Map<string, number>();
  const texts = [
    doc.name,
    ...doc.themes.map((t) => t.name),
    ...doc.approvalDepartments,
    ...doc.risks.flatMap((r) => [r.title, r.description, r.legalBasis, r.consequence, r.prevention]),
  ];
  texts.forEach((text, i) => {
    if (!text) return;
    const norm = normalizeText(text);
    const marks = new Uint8Array(norm.length);
    for (const key of textKeys) {
      for (let at = norm.indexOf(key); at >= 0; at = norm.indexOf(key, at + 1)) marks.fill(1, at, at + key.length);
    }
    if (i === 0 && soundKeys.size > 0) markSounds(norm, soundKeys, marks);
    for (let s = 0; s < marks.length; s++) {
      if (!marks[s]) continue;
      let e = s;
      while (e < marks.length && marks[e]) e++;
      const piece = norm.slice(s, e);
      if (piece.trim().length >= 2 || textKeys.has(piece)) {
        const original = text.slice(s, e).trim();
        if (!found.has(original)) found.set(original, found.size);
      }
      s = e;
    }
  });
  return [...found.keys()].sort((a, b) => b.length - a.length || found.get(a)! - found.get(b)!).slice(0, MAX_MATCHED);
}

function markSounds(norm: string, soundKeys: Set<string>, marks: Uint8Array): void {
  for (const run of runsOf(norm)) {
    if (!run.cjk) continue;
    const readings = runReadings(run.text);
    for (let i = 0; i + 1 < run.text.length; i++) {
      for (let len = 2; len <= 3 && i + len <= run.text.length; len++) {
        const keys = [
          ...(len === 2 ? readingKeys(readings, i, i + 2, false, ' ').map(pinyinKey) : []),
          ...readingKeys(readings, i, i + len, true, '').map(initialsKey),
        ];
        if (keys.some((k) => soundKeys.has(k))) marks.fill(1, run.start + i, run.start + i + len);
      }
    }
  }
}
