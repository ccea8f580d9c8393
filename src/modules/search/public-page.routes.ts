import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import type { AppContext } from '../../context.js';
import { badRequest } from '../../http/errors.js';
import { asInput, readList, readString } from '../../http/readers.js';
import { matchRegionTokens } from '../regions/regions.repository.js';
import { publicPageDocs } from './public-page.openapi.js';
import { presentRiskSubject } from './search.presenter.js';
import type { SearchIndexHolder } from './search-index.service.js';
import { MAX_RESULTS } from './search.service.js';
import { Suggester } from './suggest.js';

/** A notice holds at most what one answer can: the permits are chosen from the results. */
const IDS = new RegExp(`^[1-9]\\d{0,9}(?:,[1-9]\\d{0,9}){0,${MAX_RESULTS - 1}}$`);

/**
 * What the public search page reads beside `/v2` (docs/public-search.md): suggestions as a person
 * types and the permits of a shared notice. From the in-memory index like `/v2`, public, and
 * counted by the same rate limiter.
 */
export function registerPublicPageRoutes(app: FastifyInstance, ctx: AppContext, holder: SearchIndexHolder, limiter: onRequestAsyncHookHandler | null): void {
  const { apiRoot } = ctx.config;
  const suggester = new Suggester(ctx, holder);
  const options = (doc: (typeof publicPageDocs)[keyof typeof publicPageDocs]) => ({
    config: { guard: 'public' as const, ignoresSession: true, rateLimited: limiter !== null, doc },
    ...(limiter ? { onRequest: limiter } : {}),
  });

  app.get(`${apiRoot}/v2/suggest`, options(publicPageDocs.suggest), async (req) => {
    const input = asInput(req.query);
    const regions = readList(input, 'region', 'region_id');
    const regionIds = regions.length > 0 ? matchRegionTokens(holder.regions, regions).map((r) => String(r.id)) : null;
    return { success: true, data: { suggestions: suggester.suggest(readString(input, 'q', 'query') ?? '', regionIds) } };
  });

  app.get(`${apiRoot}/v2/permits`, options(publicPageDocs.permits), async (req) => {
    const ids = (readString(asInput(req.query), 'ids') ?? '').replace(/\s+/g, '');
    if (!IDS.test(ids)) throw badRequest(`请给出许可事项编号（以逗号分隔，最多 ${MAX_RESULTS} 个）`);
    const index = holder.current;
    const permits = [...new Set(ids.split(','))]
      .map((id) => index.document(id))
      .filter((doc) => doc?.visible)
      .map((doc) => presentRiskSubject({ doc: doc!, score: 0, matched: [] }));
    return { success: true, data: { permits } };
  });
}
