import { nameForms } from './name-forms.js';
import type { QueryPlan } from './query-terms.js';

/** Rows of the longest-common-run table, reused by every call (searches never overlap). */
let prev = new Uint16Array(64);
let cur = new Uint16Array(64);

/** Where the last longestCommonRun call's run ends in its first argument. */
export const lastRunEnd = { value: 0 };

/** Length of the longest common run of a and b (its end in a goes to lastRunEnd). */
export function longestCommonRun(a: ArrayLike<string>, b: ArrayLike<string>): number {
  if (prev.length <= b.length) {
    prev = new Uint16Array(b.length * 2 + 1);
    cur = new Uint16Array(b.length * 2 + 1);
  }
  prev.fill(0, 0, b.length + 1);
  cur[0] = 0;
  let best = 0;
  let endA = 0;
  for (let i = 1; i <= a.length; i++) {
    const ai = a[i - 1];
    for (let j = 1; j <= b.length; j++) {
      const v = ai === b[j - 1] ? prev[j - 1] + 1 : 0;
      cur[j] = v;
      if (v > best) {
        best = v;
        endA = i;
      }
    }
    const t = prev;
    prev = cur;
    cur = t;
  }
  lastRunEnd.value = endA;
  return best;
}

/**
 * Whether an initials run abbreviates a stretch of the name's initials: its letters in order,
 * from the stretch's first letter, skipping at most a third as many of the name's letters as the
 * run has (an abbreviation drops a character: 高危险性体育项目 as gwxtyxm). Random letters seldom
 * do, however many windows of two or three letters they share with a long name.
 */
export function abbreviates(run: string, initials: string): boolean {
  const skips = Math.floor(run.length / 3);
  for (let start = initials.indexOf(run[0]); start >= 0; start = initials.indexOf(run[0], start + 1)) {
    let matched = 1;
    let skipped = 0;
    for (let j = start + 1; j < initials.length && matched < run.length && skipped <= skips; j++) {
      if (initials[j] === run[matched]) matched++;
      else skipped++;
    }
    if (matched === run.length && skipped <= skips) return true;
  }
  return false;
}

function sharesBigram(run: string, core: string): boolean {
  for (let i = 0; i + 1 < run.length; i++) if (core.includes(run.slice(i, i + 2))) return true;
  return false;
}

function share(a: ArrayLike<string>, b: ArrayLike<string>): number {
  const l = longestCommonRun(a, b);
  return l >= 2 ? l / Math.max(a.length, b.length) : 0;
}

/**
 * Share of the permit name matched contiguously: the longest common substring of a query run
 * and the core name (characters), of the query's pinyin and the name's (syllables), or of an
 * initials run and the name's initials, over the longer of the two.
 */
export function nameMatchShare(plan: QueryPlan, name: string): number {
  const forms = nameForms(name);
  let best = 0;
  // A common run of two or more characters needs a common bigram: most candidates (found by
  // their knowledge or their risk texts) share none with the name, and are settled without the table.
  for (const q of plan.runs) if (sharesBigram(q, forms.core)) best = Math.max(best, share(q, forms.core));
  if (plan.syllables.length > 0) best = Math.max(best, share(plan.syllables, forms.syllables));
  for (const q of plan.initials) best = Math.max(best, share(q.text, forms.initials));
  return best;
}
