import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { matchRegionTokens } from '../regions/regions.repository.js';
import { SearchCache } from './search-cache.js';
import type { SearchIndexHolder } from './search-index.service.js';
import { presentRiskSubject } from './risk-subject.js';
import type { SearchDebug } from './search.openapi.js';

export interface SearchRequest {
  query: string;
  regions: string[];
  debug: boolean;
}

export interface SearchOutcome {
  /** The `risk_subject` array, already serialized (the hot path sends it as is). */
  itemsJson: string;
  count: number;
  /** Empty without the debug flag. */
  debug: Static<typeof SearchDebug> | Record<string, never>;
}

/** Most results the service returns; how many below that is decided by relevance. */
export const MAX_RESULTS = 20;

/**
 * Runs one search. Region tokens (id, code or name) narrow the search inside the index; tokens
 * that match no region mean "nothing can match" (no_match), not an error. Answers without debug
 * are cached until the index changes.
 */
export function searchRiskSubjects(_ctx: AppContext, holder: SearchIndexHolder, cache: SearchCache, req: SearchRequest): SearchOutcome {
  const regionIds = req.regions.length > 0 ? matchRegionTokens(holder.regions, req.regions).map((r) => String(r.id)) : null;
  const key = SearchCache.key(req.query, regionIds);
  if (!req.debug) {
    const hit = cache.get(key, holder.version);
    if (hit) return { itemsJson: hit.json, count: hit.count, debug: {} };
  }
  const index = holder.current;
  const result = index.search(req.query, { regionIds, debug: req.debug, limit: MAX_RESULTS });
  const hits = result.hits.slice(0, MAX_RESULTS);
  const itemsJson = JSON.stringify(hits.map(presentRiskSubject));
  cache.set(key, holder.version, itemsJson, hits.length);
  if (!req.debug || !result.debug) return { itemsJson, count: hits.length, debug: {} };
  return {
    itemsJson,
    count: hits.length,
    debug: {
      normalized_query: result.debug.normalizedQuery,
      terms: result.debug.terms,
      region_filter: regionIds,
      results: hits.map((h) => ({
        permit_id: h.doc.permitId,
        permit_name: h.doc.name,
        region: h.doc.regionName,
        score: h.score,
        breakdown: h.breakdown ?? {},
        matched: h.matched,
      })),
      timings_us: result.debug.timingsUs,
      index: { documents: index.size, age_ms: holder.ageMs, version: holder.version },
    },
  };
}
