import type { SearchDoc } from '../../../src/modules/search/engine/types.js';

/** One search engine under benchmark, fed the same documents and queries as the others. */
export interface BenchEngine {
  readonly name: string;
  build(docs: SearchDoc[]): void | Promise<void>;
  /** Permit ids, best first (at most 20); regionIds null = all regions. */
  search(query: string, regionIds: string[] | null): string[];
}

/** Text of a document's fields as the peers index them. */
export function docFields(d: SearchDoc): { name: string; themes: string; depts: string; titles: string; body: string } {
  return {
    name: d.name,
    themes: d.themes.map((t) => t.name).join(' '),
    depts: d.approvalDepartments.join(' '),
    titles: d.risks.map((r) => r.title).join(' '),
    body: d.risks.map((r) => [r.description, r.legalBasis, r.consequence, r.prevention, r.riskType].filter(Boolean).join(' ')).join(' '),
  };
}

/** Field weights the peers get (the same order of importance as ours). */
export const PEER_BOOST = { name: 10, themes: 5, depts: 4, titles: 2.5, body: 1 };
