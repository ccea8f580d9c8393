import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { asInput, readInt, readList, readString } from '../../http/readers.js';
import { regionScope } from '../auth/data-scope.js';
import { advancedFilter, filterOptions, parseVisibility, type AdvancedFilterQuery } from './advanced-filter.service.js';
import { permitDocs } from './permits.openapi.js';

/** Upper bound of `limit` (the interface states none): a page of payloads stays a few megabytes at most. */
export const MAX_FILTER_LIMIT = 1000;

function filterQuery(req: FastifyRequest): AdvancedFilterQuery {
  const input = asInput(req.method === 'POST' ? req.body : req.query);
  return {
    regions: readList(input, 'regions', 'region', 'regions[]'),
    themes: readList(input, 'themes', 'theme', 'themes[]'),
    departments: readList(input, 'departments', 'department', 'departments[]'),
    searchText: readString(input, 'search_text', 'q'),
    visibility: parseVisibility(readString(input, 'visibility')),
    limit: readInt(input, 'limit', { def: 100, min: 1, max: MAX_FILTER_LIMIT }),
    offset: readInt(input, 'offset', { def: 0, min: 0 }),
  };
}

/** Advanced filtering and its options. */
export function registerAdvancedFilterRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { apiRoot } = ctx.config;
  const handler = async (req: FastifyRequest) => ({ success: true, data: await advancedFilter(ctx.readDb, regionScope(req.user), filterQuery(req)) });
  app.get(`${apiRoot}/admin/permits/advanced-filter`, { config: { doc: permitDocs.advancedFilterGet } }, handler);
  app.post(`${apiRoot}/admin/permits/advanced-filter`, { config: { doc: permitDocs.advancedFilterPost } }, handler);

  app.get(`${apiRoot}/admin/permits/filter-options`, { config: { doc: permitDocs.filterOptions } }, async (req) => {
    const data = await filterOptions(ctx.readDb, regionScope(req.user), readString(asInput(req.query), 'region_id', 'region'));
    return { success: true, data };
  });
}
