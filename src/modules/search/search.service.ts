import type { AppContext } from '../../context.js';
import { findRegionsByTokens } from '../regions/regions.repository.js';
import type { SearchIndexHolder } from './search-index.service.js';
import { presentRiskSubject, type RiskSubject } from './risk-subject.js';

export interface SearchRequest {
  query: string;
  regions: string[];
  debug: boolean;
}

export interface SearchOutcome {
  items: RiskSubject[];
  debug: Record<string, unknown>;
}

/** Most results the service returns; how many below that is decided by relevance. */
export const MAX_RESULTS = 20;

/**
 * Runs one search. Region tokens (id, code or name) narrow the search inside the index; tokens
 * that match no region mean "nothing can match" (no_match), not an error.
 */
export async function searchRiskSubjects(ctx: AppContext, holder: SearchIndexHolder, req: SearchRequest): Promise<SearchOutcome> {
  let regionIds: string[] | null = null;
  if (req.regions.length > 0) {
    const found = await findRegionsByTokens(ctx.readDb, req.regions);
    regionIds = found.map((r) => String(r.id));
  }
  const index = holder.current;
  const result = index.search(req.query, { regionIds, debug: req.debug, limit: MAX_RESULTS });
  const items = result.hits.slice(0, MAX_RESULTS).map(presentRiskSubject);
  if (!req.debug || !result.debug) return { items, debug: {} };
  return {
    items,
    debug: {
      normalized_query: result.debug.normalizedQuery,
      terms: result.debug.terms,
      region_filter: regionIds,
      results: result.hits.map((h) => ({
        permit_id: h.doc.permitId,
        permit_name: h.doc.name,
        region: h.doc.regionName,
        score: h.score,
        breakdown: h.breakdown ?? {},
        matched: h.matched,
      })),
      timings_us: result.debug.timingsUs,
      index: { documents: index.size, age_ms: holder.ageMs },
    },
  };
}
