import type { Static } from '@sinclair/typebox';
import type { SearchHit } from './engine/types.js';
import type { RiskSubject as RiskSubjectSchema } from './search.openapi.js';

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
