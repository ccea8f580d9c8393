import type { Static } from '@sinclair/typebox';
import type { ConceptEvidence, SearchDebug as EngineDebug, SearchDoc, SearchHit, WhyNot } from './engine/types.js';
import type { HitConcept, RiskSubject as RiskSubjectSchema, SearchDebug } from './search.openapi.js';
import type { WhyNotAnswer } from './why-not.openapi.js';

/** One search result item: a permit in a region with its risks (docs/search.md). */
export type RiskSubject = Static<typeof RiskSubjectSchema>;

export function presentRiskSubject(hit: SearchHit): RiskSubject {
  const d = hit.doc;
  return {
    region: { id: d.regionId, name: d.regionName },
    permit: {
      id: d.permitId,
      name: d.name,
      code: d.code ?? null,
      implementation_level: d.implementationLevel ?? null,
      approval_departments: d.approvalDepartments ?? [],
      internal_contact: d.internalContact ?? null,
      contact_info: d.contactInfo ?? null,
    },
    themes: d.themes ?? [],
    theme: d.themes?.[0] ?? null,
    risks: (d.risks ?? []).map((r) => ({
      id: r.id,
      title: r.title,
      description: r.description ?? null,
      legal_basis: r.legalBasis ?? null,
      consequence: r.consequence ?? null,
      prevention: r.prevention ?? null,
      level: r.level ?? null,
    })),
    score: Math.round(hit.score * 10000) / 10000,
    matched: hit.matched ?? [],
  };
}

/** What matched one word of the question, as the debug output and why-not-found show it. */
export function presentConcept(c: ConceptEvidence): Static<typeof HitConcept> {
  return { concept: c.concept, matched_as: c.matchedAs, origin: c.origin, evidence: c.evidence, score: c.score };
}

/** The index a debug answer was computed on. */
export interface IndexFacts {
  documents: number;
  age_ms: number;
  version: number;
}

/** The debug part of a search answer: how the question was read, what made the answer and what was cut. */
export function presentSearchDebug(d: EngineDebug, hits: SearchHit[], regionIds: string[] | null, index: IndexFacts): Static<typeof SearchDebug> {
  return {
    normalized_query: d.normalizedQuery,
    terms: d.terms,
    concepts: d.concepts,
    no_match_reason: d.noMatch,
    subjects: d.subjects,
    cut: d.cut.map((c) => ({ permit_id: c.permitId, permit_name: c.name, reason: c.reason, score: c.score, explained: c.explained })),
    region_filter: regionIds,
    results: hits.map((h) => ({
      permit_id: h.doc.permitId,
      permit_name: h.doc.name,
      region: h.doc.regionName,
      score: h.score,
      breakdown: h.breakdown ?? {},
      matched: h.matched,
      explained: h.explain?.explained ?? 0,
      name_share: h.explain?.nameShare ?? 0,
      stage_match: h.explain?.stageMatch ?? false,
      concepts: (h.explain?.concepts ?? []).map(presentConcept),
    })),
    timings_us: d.timingsUs,
    index,
  };
}

/** Why a permit (null when the index does not hold it) is or is not in an answer. */
export function presentWhyNot(doc: SearchDoc | null | undefined, why: WhyNot): Static<typeof WhyNotAnswer> {
  return {
    permit: doc ? { id: doc.permitId, name: doc.name, region: doc.regionName } : null,
    verdict: why.verdict,
    rank: why.rank,
    reason: why.reason,
    score: why.score,
    explained: why.explained,
    best_score: why.bestScore,
    breakdown: why.breakdown,
    concepts: why.concepts.map(presentConcept),
  };
}
