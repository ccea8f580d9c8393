import { nameForms } from './name-forms.js';
import { P } from './ranking-params.js';
import type { Candidate } from './retrieve.js';
import type { QueryPlan, QueryTerm } from './query-terms.js';
import type { SearchDoc } from './types.js';

/** A query term bound to the index: its term id (-1 if unknown) and its score per impact unit. */
export interface ResolvedTerm {
  term: QueryTerm;
  id: number;
  scoreWeight: number;
}

export interface Ranked {
  doc: number;
  score: number;
  bm25: number;
  phrase: number;
  coverage: number;
  /** Resolved terms the document holds, with the impact of each. */
  matched: { rt: ResolvedTerm; impact: number }[];
}

export interface RankContext {
  plan: QueryPlan;
  /** Resolved query terms; candidates' hits index into this. */
  terms: ResolvedTerm[];
  docOf(doc: number): SearchDoc;
}

/**
 * Second stage on the retrieved candidates (best first): coverage of the query's
 * meaningful characters (the absolute floor: nonsense matches a sliver of the query at best),
 * the contiguous-match bonus on the permit name, then the cut relative to the best hit.
 */
export function rankCandidates(cands: Candidate[], ctx: RankContext, limit: number): Ranked[] {
  const { plan } = ctx;
  let totalWeight = 0;
  for (const w of plan.posWeight) totalWeight += w;
  if (totalWeight <= 0) return [];
  const ranked: Ranked[] = [];
  const covered = new Uint8Array(plan.posWeight.length);
  const floor = (P.relativeCutoff / (1 + P.phraseBonus)) * (cands[0]?.score ?? 0);
  // Candidates often share a name (the same permit in several regions): one computation per name.
  const shareByName = new Map<string, number>();
  for (const c of cands) {
    if (c.score < floor) continue;
    const matched: Ranked['matched'] = [];
    covered.fill(0);
    for (const h of c.hits) {
      const rt = ctx.terms[h.term];
      matched.push({ rt, impact: h.impact });
      // Initials n-grams hit names by chance too easily to count here; see below.
      if (rt.term.key[0] === '^') continue;
      const s = rt.term.spans;
      for (let i = 0; i < s.length; i += 2) covered.fill(1, s[i], s[i + 1]);
    }
    const name = ctx.docOf(c.doc).name;
    const initials = nameForms(name).initials;
    for (const run of plan.initials) {
      const { length, endA } = longestCommonRun(run.text, initials);
      if (length >= 2) covered.fill(1, run.start + endA - length, run.start + endA);
    }
    let coveredWeight = 0;
    for (let i = 0; i < covered.length; i++) if (covered[i]) coveredWeight += plan.posWeight[i];
    const coverage = coveredWeight / totalWeight;
    if (coverage < P.minCoverage) continue;
    let phrase = shareByName.get(name);
    if (phrase === undefined) shareByName.set(name, (phrase = nameMatchShare(plan, name)));
    ranked.push({ doc: c.doc, score: c.score * (1 + P.phraseBonus * phrase), bm25: c.score, phrase, coverage, matched });
  }
  ranked.sort((a, b) => b.score - a.score || a.doc - b.doc);
  const best = ranked.length > 0 ? ranked[0].score : 0;
  return ranked.filter((r) => r.score >= P.relativeCutoff * best).slice(0, limit);
}

/**
 * Share of the permit name matched contiguously: the longest common substring of a query run
 * and the core name (characters), of the query's pinyin and the name's (syllables), or of an
 * initials run and the name's initials, over the longer of the two.
 */
export function nameMatchShare(plan: QueryPlan, name: string): number {
  const forms = nameForms(name);
  let best = 0;
  for (const q of plan.runs) best = Math.max(best, share(q, forms.core));
  if (plan.syllables.length > 0) best = Math.max(best, share(plan.syllables, forms.syllables));
  for (const q of plan.initials) best = Math.max(best, share(q.text, forms.initials));
  return best;
}

function share(a: ArrayLike<string>, b: ArrayLike<string>): number {
  const l = longestCommonRun(a, b).length;
  return l >= 2 ? l / Math.max(a.length, b.length) : 0;
}

/** Length of the longest common run of a and b, and where it ends in a. */
function longestCommonRun(a: ArrayLike<string>, b: ArrayLike<string>): { length: number; endA: number } {
  let best = 0;
  let endA = 0;
  let prev = new Uint16Array(b.length + 1);
  let cur = new Uint16Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : 0;
      if (cur[j] > best) {
        best = cur[j];
        endA = i;
      }
    }
    [prev, cur] = [cur, prev];
  }
  return { length: best, endA };
}
