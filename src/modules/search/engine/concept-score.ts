import { P, SPACE_WEIGHT, type Evidence } from './ranking-params.js';
import { isTelling } from './impacts.js';
import { isSoundKey } from './terms.js';
import type { QueryPlan } from './query-terms.js';

/** The key spaces a query term is looked up in, in order: the permit's own text, then the knowledge spaces. */
export const SPACES: Evidence[] = ['text', 'alias', 'activity', 'supporting', 'question'];
const S = SPACES.length;

/** How much a match in each space counts as evidence that a concept is explained (the no_match decision). */
const QUALITY: Record<Evidence, number> = { text: 1, alias: 1, activity: 1, supporting: 0.7, question: 0.6 };

/** The query terms looked up in the knowledge spaces: those of typed alternatives of concepts that may match there. */
export function knowledgeTerms(plan: QueryPlan): Set<number> {
  const out = new Set<number>();
  for (const c of plan.concepts) {
    if (!c.knowledge) continue;
    for (const a of c.alternatives) if (!a.expansion) for (const p of a.parts) if (!isSoundKey(plan.terms[p.term].key)) out.add(p.term);
  }
  return out;
}

/** A query key in one space, bound to the index: its id (-1 when no document holds it) and idf. */
export interface SpaceTerm {
  id: number;
  idf: number;
}

/**
 * One part of an evidence group: a looked-up key, its score per impact unit, and the share of the
 * concept it covers as evidence — `telling` where the key is in a field that tells what the
 * permit is (impacts.ts) or in its knowledge, `mentioned` where the permit's text only mentions it
 * (its long risk texts, its departments).
 */
interface Entry {
  group: number;
  coef: number;
  telling: number;
  mentioned: number;
}

/** What a concept was matched by in a document (debug). */
export interface ConceptMatch {
  concept: number;
  alternative: number;
  space: Evidence;
  score: number;
}

/**
 * Scores documents by concepts: each concept counts once, by its best evidence — the best of its
 * alternatives (the word typed, whole or as bigrams, its synonyms, its corrections) in the best
 * key space — so that a word found three ways is not worth three words. An expansion's idf never
 * exceeds that of the typed word, so a synonym never outranks the word the person typed.
 *
 * Entries are built once per query; a document is then scored from its hits alone. The result
 * depends only on the document's impacts, never on the order hits arrive in.
 */
export class ConceptScorer {
  /** Per looked-up key (term × space): the evidence groups it is part of. */
  private readonly entries: Entry[][];
  private readonly groupConcept: number[] = [];
  private readonly groupAlternative: number[] = [];
  private readonly groupSpace: number[] = [];
  /** Per group: what it says of its concept as evidence (alternative weight × space quality). */
  private readonly groupFactor: number[] = [];
  private readonly groupScore: Float64Array;
  private readonly groupQuality: Float64Array;
  /** Per key: the most one posting's impact unit can add over all concepts (retrieval's weights). */
  readonly listWeight: Float64Array;
  /** Per concept, for the document last scored: its score, how well it is explained (0..1), and its best evidence group (-1: none). */
  readonly scores: Float64Array;
  readonly quality: Float64Array;
  readonly bestGroup: Int32Array;
  private readonly touched: number[] = [];

  constructor(
    readonly plan: QueryPlan,
    readonly resolved: SpaceTerm[],
  ) {
    this.entries = resolved.map(() => []);
    const k1 = P.k1;
    const perConcept = new Map<number, number>();
    this.listWeight = new Float64Array(resolved.length);
    plan.concepts.forEach((c, ci) => {
      const cap = typedIdf(c.alternatives, resolved);
      perConcept.clear();
      c.alternatives.forEach((a, ai) => {
        SPACES.forEach((space, si) => {
          // The knowledge holds the everyday variants itself: only what was typed is looked up there.
          if (si > 0 && (!c.knowledge || a.expansion)) return;
          const group = this.groupConcept.length;
          let any = false;
          for (const part of a.parts) {
            if (si > 0 && isSoundKey(plan.terms[part.term].key)) continue;
            const r = part.term * S + si;
            const t = resolved[r];
            if (t.id < 0) continue;
            const idf = a.expansion ? Math.min(t.idf, cap) : t.idf;
            const coef = (c.weight * a.weight * SPACE_WEIGHT[space] * part.share * idf * (k1 + 1)) / 255;
            // An office is named by the approving department, a field that says who, not what. A
            // public service that is not a permit here is explained only by the knowledge (a
            // permit whose text mentions 身份证 is not about the 身份证 itself).
            const text = si === 0;
            const telling = text && c.outside ? 0 : part.share;
            const mentioned = text && !c.office ? telling * P.mentionQuality : telling;
            this.entries[r].push({ group, coef, telling, mentioned });
            perConcept.set(r, Math.max(perConcept.get(r) ?? 0, coef));
            any = true;
          }
          if (!any) return;
          this.groupConcept.push(ci);
          this.groupAlternative.push(ai);
          this.groupSpace.push(si);
          this.groupFactor.push(a.scattered ? 0 : a.weight * QUALITY[space]);
        });
      });
      for (const [r, w] of perConcept) this.listWeight[r] += w;
    });
    this.groupScore = new Float64Array(this.groupConcept.length);
    this.groupQuality = new Float64Array(this.groupConcept.length);
    this.scores = new Float64Array(plan.concepts.length);
    this.quality = new Float64Array(plan.concepts.length);
    this.bestGroup = new Int32Array(plan.concepts.length);
  }

  /**
   * Scores one document from its hits — (key index, impact) pairs in ascending key order — into
   * `scores` and `quality`; answers the sum of the concepts' scores, added in concept order.
   */
  score(hits: { term: number; impact: number }[]): number {
    const { scores, quality, bestGroup, touched, groupScore, groupQuality } = this;
    scores.fill(0);
    quality.fill(0);
    bestGroup.fill(-1);
    touched.length = 0;
    const full = 255 * P.fullImpact;
    for (const h of hits) {
      for (const e of this.entries[h.term]) {
        if (groupScore[e.group] === 0 && groupQuality[e.group] === 0) touched.push(e.group);
        groupScore[e.group] += e.coef * h.impact;
        groupQuality[e.group] += (isTelling(h.impact) ? e.telling : e.mentioned) * Math.min(1, h.impact / full);
      }
    }
    for (const g of touched) {
      const c = this.groupConcept[g];
      const s = groupScore[g];
      // A word matched in part (居住 of 居住证) is less of an explanation than its share.
      const q = this.groupFactor[g] * groupQuality[g] ** P.partialPower;
      if (s > scores[c]) {
        scores[c] = s;
        bestGroup[c] = g;
      }
      if (q > quality[c]) quality[c] = q;
      groupScore[g] = 0;
      groupQuality[g] = 0;
    }
    let total = 0;
    for (let c = 0; c < scores.length; c++) total += scores[c];
    return total;
  }

  /** What matched each concept, given the best groups of a scored document (debug). */
  matches(bestGroup: Int32Array, scores?: Float64Array): ConceptMatch[] {
    const out: ConceptMatch[] = [];
    bestGroup.forEach((g, c) => {
      if (g >= 0) out.push({ concept: c, alternative: this.groupAlternative[g], space: SPACES[this.groupSpace[g]], score: scores ? scores[c] : 0 });
    });
    return out;
  }
}

/** The highest idf of the typed alternatives' keys in any space (no cap when none is indexed). */
function typedIdf(alternatives: QueryPlan['concepts'][number]['alternatives'], resolved: SpaceTerm[]): number {
  let cap = -1;
  for (const a of alternatives) {
    if (a.expansion) continue;
    for (const p of a.parts) {
      for (let s = 0; s < S; s++) {
        const t = resolved[p.term * S + s];
        if (t.id >= 0) cap = Math.max(cap, t.idf);
      }
    }
  }
  return cap < 0 ? Infinity : cap;
}

export const SPACE_COUNT = S;
