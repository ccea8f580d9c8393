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
    for (let i = 0; i + 1 < run.length;) {
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
    let held = 0;
    const whole = stretch.length - from;
    someText(doc, (text) => (held = Math.max(held, longestHeldPrefix(stretch, from, text))) === whole);
    const to = from + held;
    if (to - from < 2) {
      from++;
      continue;
    }
    found.add(stretch.slice(from, to));
    for (let i = from; i + 1 < to; i++) covered.add(stretch.slice(i, i + 2));
    from = to - 1;
  }
}

/** Most places a stretch's first bigram is looked at in a document. */
const MAX_OCCURRENCES = 64;

/** The length of the longest prefix of stretch[from…] that the text holds, found from where its first bigram occurs. */
function longestHeldPrefix(stretch: string, from: number, text: string): number {
  const first = stretch.slice(from, from + 2);
  let best = 0;
  let at = text.indexOf(first);
  for (let n = 0; at >= 0 && n < MAX_OCCURRENCES && best < stretch.length - from; n++) {
    let len = 2;
    while (from + len < stretch.length && text[at + len] === stretch[from + len]) len++;
    if (len > best) best = len;
    at = text.indexOf(first, at + 1);
  }
  return best;
}

/** Whether some text of the document passes the test, looked through name first, long risk texts last. */
function someText(doc: SearchDoc, test: (text: string) => boolean): boolean {
  if (test(doc.name)) return true;
  for (const t of doc.themes) if (test(t.name)) return true;
  for (const d of doc.approvalDepartments) if (test(d)) return true;
  for (const r of doc.risks) if (test(r.title)) return true;
  for (const r of doc.risks) {
    if (
      (r.description && test(r.description)) ||
      (r.legalBasis && test(r.legalBasis)) ||
      (r.consequence && test(r.consequence)) ||
      (r.prevention && test(r.prevention))
    )
      return true;
  }
  return false;
}

/**
 * Where the document writes a normalised key: its own spelling of it (latin letters in their
 * case), or null when no text holds it as such (a bigram bridging a dropped qualifier, or text
 * written in traditional characters, is not highlighted).
 */
function locate(key: string, doc: SearchDoc): string | null {
  if (someText(doc, (t) => t.includes(key))) return key;
  if (!/[a-z]/.test(key)) return null;
  let original: string | null = null;
  someText(doc, (t) => {
    const lower = t.toLowerCase();
    const at = lower.indexOf(key);
    // Lower-casing may change the length of some letters; the offset then says nothing.
    if (at >= 0 && lower.length === t.length) original = t.slice(at, at + key.length);
    return original !== null;
  });
  return original;
}

/** Drops pieces contained in longer ones; longest first. */
function mergeOverlaps(pieces: string[]): string[] {
  const sorted = pieces.sort((a, b) => b.length - a.length);
  return sorted.filter((p, i) => !sorted.slice(0, i).some((q) => q.includes(p)));
}
