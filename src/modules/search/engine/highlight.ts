import { soundWindows } from './name-forms.js';
import type { QueryPlan } from './query-terms.js';
import type { SearchDoc } from './types.js';

const MAX_MATCHED = 16;

/**
 * What a client highlights in a hit: the query's matched terms as they appear in the
 * document's own text. Adjacent matched bigrams of a query run are merged into the longest
 * stretch the document holds as a whole ("食品经营许可" rather than its bigrams); other matched
 * keys (words, synonyms, corrections, pinyin stand-ins) come as they are; pinyin and initials
 * matches give the name characters they were read from. Longest first.
 */
export function matchedSubstrings(doc: SearchDoc, plan: QueryPlan, textKeys: Set<string>, soundKeys: Set<string>): string[] {
  const found = new Set<string>();
  const covered = new Set<string>();
  for (const run of plan.runs) {
    for (let i = 0; i + 1 < run.length; ) {
      if (!textKeys.has(run.slice(i, i + 2))) {
        i++;
        continue;
      }
      let j = i + 1;
      while (j + 1 < run.length && textKeys.has(run.slice(j, j + 2))) j++;
      addStretch(run.slice(i, j + 1), doc, found, covered);
      i = j;
    }
  }
  for (const key of textKeys) {
    if (covered.has(key) || [...found].some((f) => f.includes(key))) continue;
    const original = locate(key, doc);
    if (original && (key.length > 1 || plan.runs.some((r) => r.includes(key)))) found.add(original);
  }
  if (soundKeys.size > 0) {
    for (const w of soundWindows(doc.name)) if (w.keys.some((k) => soundKeys.has(k))) found.add(doc.name.slice(w.start, w.end));
  }
  return mergeOverlaps([...found]).slice(0, MAX_MATCHED);
}

/** The stretch if the document holds it whole, else its longest held prefix and the rest in turn. */
function addStretch(stretch: string, doc: SearchDoc, found: Set<string>, covered: Set<string>): void {
  let from = 0;
  while (from + 1 < stretch.length) {
    let to = stretch.length;
    let original: string | null = null;
    for (; to >= from + 2; to--) if ((original = locate(stretch.slice(from, to), doc))) break;
    if (!original) {
      from++;
      continue;
    }
    found.add(original);
    for (let i = from; i + 1 < to; i++) covered.add(stretch.slice(i, i + 2));
    from = to - 1;
  }
}

/** The first text of the document (name first, long risk texts last) that passes the test. */
function findText(doc: SearchDoc, test: (text: string) => boolean): string | null {
  if (test(doc.name)) return doc.name;
  for (const t of doc.themes) if (test(t.name)) return t.name;
  for (const d of doc.approvalDepartments) if (test(d)) return d;
  for (const r of doc.risks) if (test(r.title)) return r.title;
  for (const r of doc.risks) {
    if (r.description && test(r.description)) return r.description;
    if (r.legalBasis && test(r.legalBasis)) return r.legalBasis;
    if (r.consequence && test(r.consequence)) return r.consequence;
    if (r.prevention && test(r.prevention)) return r.prevention;
  }
  return null;
}

/**
 * Where the document writes a normalised key: its own spelling of it (latin letters in their
 * case), or null when no text holds it as such (a bigram bridging a dropped qualifier, or text
 * written in traditional characters, is not highlighted).
 */
function locate(key: string, doc: SearchDoc): string | null {
  if (findText(doc, (t) => t.includes(key))) return key;
  if (!/[a-z]/.test(key)) return null;
  const t = findText(doc, (x) => x.toLowerCase().includes(key));
  if (!t) return null;
  const at = t.toLowerCase().indexOf(key);
  return t.slice(at, at + key.length);
}

/** Drops pieces contained in longer ones; longest first. */
function mergeOverlaps(pieces: string[]): string[] {
  const sorted = pieces.sort((a, b) => b.length - a.length);
  return sorted.filter((p, i) => !sorted.slice(0, i).some((q) => q.includes(p)));
}
