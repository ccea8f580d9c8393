import type { Static } from '@sinclair/typebox';
import type { AppContext } from '../../context.js';
import { matchRegionTokens } from '../regions/regions.repository.js';
import { SearchCache } from './search-cache.js';
import type { SearchIndexHolder } from './search-index.service.js';
import { presentRiskSubject, presentSearchDebug, presentWhyNot } from './search.presenter.js';
import { answerTail, type AnswerParts } from './v2-answer.js';
import type { WhyNotAnswer } from './why-not.openapi.js';

export interface SearchRequest {
  query: string;
  regions: string[];
  debug: boolean;
}

export interface SearchOutcome extends AnswerParts {
  /** The answer was reused from the cache. */
  cached: boolean;
  /** The region ids the filter resolved to; null without a filter. */
  regionIds: string[] | null;
}

/** Most results the service returns; how many below that is decided by relevance. */
export const MAX_RESULTS = 20;

/** Runs one search (below) and records its duration for /metrics. */
export function searchRiskSubjects(ctx: AppContext, holder: SearchIndexHolder, cache: SearchCache, req: SearchRequest): SearchOutcome {
  const started = performance.now();
  const outcome = runSearch(holder, cache, req);
  ctx.metrics.searchDuration.observe({ cache: outcome.cached ? 'hit' : 'miss' }, (performance.now() - started) / 1000);
  return outcome;
}

/**
 * Runs one search. Region tokens (id, code or name) narrow the search inside the index; tokens
 * that match no region mean "nothing can match" (no_match), not an error. Answers without debug
 * are cached until the index changes.
 */
function runSearch(holder: SearchIndexHolder, cache: SearchCache, req: SearchRequest): SearchOutcome {
  const regionIds = req.regions.length > 0 ? matchRegionTokens(holder.regions, req.regions).map((r) => String(r.id)) : null;
  const key = SearchCache.key(req.query, regionIds);
  if (!req.debug) {
    const hit = cache.get(key, holder.version);
    if (hit) return { ...hit, cached: true, regionIds };
  }
  const index = holder.current;
  const result = index.search(req.query, { regionIds, debug: req.debug, limit: MAX_RESULTS });
  const hits = result.hits.slice(0, MAX_RESULTS);
  const itemsJson = JSON.stringify(hits.map(presentRiskSubject));
  const topPermitIds = hits.map((h) => h.doc.permitId);
  if (!req.debug || !result.debug) {
    const answer: AnswerParts = { count: hits.length, topPermitIds, tail: answerTail(hits.length, itemsJson, {}), gzipped: new Map() };
    cache.set(key, holder.version, answer);
    return { ...answer, cached: false, regionIds };
  }
  const debug = presentSearchDebug(result.debug, hits, regionIds, { documents: index.size, age_ms: holder.ageMs, version: holder.version });
  return { count: hits.length, topPermitIds, tail: answerTail(hits.length, itemsJson, debug), gzipped: null, cached: false, regionIds };
}

/** Why a permit is or is not in the answer to a question (the console's 为什么没有找到). */
export function whyNotFound(holder: SearchIndexHolder, query: string, permitId: string, regions: string[]): Static<typeof WhyNotAnswer> {
  const regionIds = regions.length > 0 ? matchRegionTokens(holder.regions, regions).map((r) => String(r.id)) : null;
  const index = holder.current;
  const why = index.whyNot(query, permitId, regionIds);
  const doc = index.document(permitId);
  return presentWhyNot(doc, why);
}
