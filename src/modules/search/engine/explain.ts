import { SPACE_COUNT, type ConceptScorer, type SpaceTerm } from './concept-score.js';
import { fieldNorms } from './impacts.js';
import { FIELD_BITS, FIELD_COUNT, FIELD_NAMES, KNOWLEDGE_SPACES, P } from './ranking-params.js';
import type { DocAnalyzer } from './doc-analyzer.js';
import type { Ranked } from './rank.js';
import type { QueryPlan } from './query-terms.js';
import type { HitExplain, SearchDebug, SearchDoc } from './types.js';

const FIELD_MASK = (1 << FIELD_BITS) - 1;
const round = (x: number, digits = 4) => Math.round(x * 10 ** digits) / 10 ** digits;

/** The analysed question as the debug output shows it: terms, and concepts with their alternatives. */
export function planDebug(plan: QueryPlan): Pick<SearchDebug, 'normalizedQuery' | 'terms' | 'concepts'> {
  const termWeight = new Float64Array(plan.terms.length);
  for (const c of plan.concepts)
    for (const a of c.alternatives) for (const p of a.parts) termWeight[p.term] = Math.max(termWeight[p.term], c.weight * a.weight);
  return {
    normalizedQuery: plan.normalized,
    terms: plan.terms.map((t, i) => ({ term: t.display, origin: t.origin, weight: round(termWeight[i], 3) })),
    concepts: plan.concepts.map((c) => ({
      text: c.text,
      kind: c.kind,
      weight: round(c.weight, 3),
      alternatives: c.alternatives.map((a) => ({ text: a.text, origin: a.origin, weight: round(a.weight, 3) })),
    })),
  };
}

/**
 * Debug detail of one hit: what matched each concept (the alternative and the key space), its
 * score per field — a concept matched in the permit's own text is shared among the fields in
 * proportion to what each put into its keys' weighted frequency — and the bonuses.
 */
export function explainHit(
  doc: SearchDoc,
  ranked: Ranked,
  scorer: ConceptScorer,
  analyzer: DocAnalyzer,
  resolved: SpaceTerm[],
): { breakdown: Record<string, number>; explain: HitExplain } {
  scorer.score(ranked.hits);
  const matches = scorer.matches(scorer.bestGroup, scorer.scores);
  const plan = scorer.plan;
  const breakdown: Record<string, number> = {};
  const add = (field: string, v: number) => (breakdown[field] = (breakdown[field] ?? 0) + v);
  analyzer.analyze(doc);
  const { pairs, pairCount, lengths } = analyzer;
  const norms = fieldNorms(lengths);
  for (const m of matches) {
    if (m.space !== 'text') {
      add(FIELD_NAMES[KNOWLEDGE_SPACES.find((s) => s.evidence === m.space)!.field], m.score);
      continue;
    }
    const ids = new Set(plan.concepts[m.concept].alternatives[m.alternative].parts.map((p) => resolved[p.term * SPACE_COUNT].id));
    const perField = new Float64Array(FIELD_COUNT);
    for (let i = 0; i < pairCount; i++) {
      const field = pairs[i] & FIELD_MASK;
      if (ids.has(pairs[i] >> FIELD_BITS)) perField[field] += norms[field];
    }
    const sum = perField.reduce((a, b) => a + b, 0);
    perField.forEach((v, f) => v > 0 && add(FIELD_NAMES[f], (m.score * v) / sum));
  }
  // The parts above add up to the concepts' sum; the factors come after it, in their order.
  const explainedPart = ranked.base * ranked.coord;
  add('explained_share', explainedPart - ranked.base);
  const afterName = explainedPart * (1 + P.phraseBonus * ranked.nameShare);
  if (afterName > explainedPart) add('name_phrase', afterName - explainedPart);
  if (ranked.score > afterName) add('stage', ranked.score - afterName);
  for (const k of Object.keys(breakdown)) breakdown[k] = round(breakdown[k]);
  return {
    breakdown,
    explain: {
      explained: round(ranked.explained, 3),
      strongest: round(ranked.strongest, 3),
      nameShare: round(ranked.nameShare, 3),
      stageMatch: ranked.stageMatch,
      concepts: matches.map((m) => {
        const c = plan.concepts[m.concept];
        const a = c.alternatives[m.alternative];
        return { concept: c.text, matchedAs: a.text, origin: a.origin, evidence: m.space, score: round(m.score) };
      }),
    },
  };
}
