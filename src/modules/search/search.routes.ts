import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestAsyncHookHandler } from 'fastify';
import type { AppContext } from '../../context.js';
import { AppError, badRequest, unauthorized } from '../../http/errors.js';
import { asInput, readList, readString } from '../../http/readers.js';
import type { RouteDoc } from '../../http/openapi/route-doc.js';
import { inScope, regionScope } from '../auth/data-scope.js';
import { channelOf, type QueryLog } from '../query-log/query-log.js';
import { loadPermitPayloads } from '../permits/permit-payload.js';
import { findRegionByToken, listRegionRows } from '../regions/regions.repository.js';
import { presentRegion } from '../regions/regions.presenter.js';
import { listThemesWithVisibleCounts, listUnboundPermitIds, listVisiblePermitIds, type Visibility } from './public-lookup.repository.js';
import type { SearchIndexHolder } from './search-index.service.js';
import { SearchCache } from './search-cache.js';
import { searchDocs } from './search.openapi.js';
import { searchRiskSubjects, whyNotFound } from './search.service.js';
import { whyNotDocs } from './why-not.openapi.js';
import { acceptsGzip, answerBody, gzippedAnswer } from './v2-answer.js';
import { MAX_QUERY_LENGTH } from './query-limit.js';

const TRUTHY = ['1', 'true', 'yes', 'on'];
const queryTooLong = () => badRequest(`查询内容过长（最多 ${MAX_QUERY_LENGTH} 个字符）`);
const VISIBILITIES: Visibility[] = ['visible', 'hidden', 'all'];

/** GET compares the debug flag exactly; POST case-insensitively. */
function debugFlag(v: unknown, post: boolean): boolean {
  if (v === true) return true;
  if (typeof v !== 'string') return false;
  const s = v.trim();
  return TRUTHY.includes(post ? s.toLowerCase() : s);
}

function searchInput(req: FastifyRequest): { input: Record<string, unknown>; post: boolean } {
  const post = req.method === 'POST';
  return { input: asInput(post ? req.body : req.query), post };
}

/** Registers /v2 and the other public reads; answers the /v2 rate limiter, which the assistants' tools share. */
export function registerSearchRoutes(app: FastifyInstance, ctx: AppContext, holder: SearchIndexHolder, queryLog: QueryLog): onRequestAsyncHookHandler | null {
  const { apiRoot } = ctx.config;
  // One counter per client for GET and POST alike: SEARCH_RATE_LIMIT counts /v2 requests whatever
  // the method (a limit in each route's config would give every method its own counter).
  const searchLimiter = ctx.config.searchRateLimit > 0 ? app.rateLimit({ max: ctx.config.searchRateLimit, timeWindow: 60_000 }) : null;

  const cache = new SearchCache();
  const search = async (req: FastifyRequest, reply: FastifyReply) => {
    const started = performance.now();
    const { input, post } = searchInput(req);
    const raw = input.query ?? input.q ?? input.text;
    const query = typeof raw === 'string' ? raw.trim() : '';
    // The one documented exception to the envelope: a missing query answers {error} with 400.
    if (query === '') throw new AppError(400, 'query is required', {}, { error: 'query is required' });
    if (query.length > MAX_QUERY_LENGTH) throw queryTooLong();
    // `top` and `mode` are accepted and do not change the output.
    const outcome = searchRiskSubjects(ctx, holder, cache, { query, regions: readList(input, 'region', 'region_id'), debug: debugFlag(input.debug, post) });
    const elapsed = performance.now() - started;
    const executionTime = Math.round(elapsed);
    // A HEAD request runs this handler too; it asks nothing anyone reads.
    if (req.method !== 'HEAD')
      queryLog.record({
        query,
        regionIds: outcome.regionIds,
        resultCount: outcome.count,
        topPermitIds: outcome.topPermitIds,
        latencyUs: Math.round(elapsed * 1000),
        channel: channelOf(req.headers['x-lawrisk-channel'], input.channel),
        address: req.ip,
      });
    reply.type('application/json; charset=utf-8').header('vary', 'accept-encoding');
    const gzipped = acceptsGzip(req.headers['accept-encoding']) ? gzippedAnswer(outcome, executionTime) : null;
    if (gzipped) return reply.header('content-encoding', 'gzip').send(gzipped);
    return reply.send(answerBody(outcome.count, outcome.tail, executionTime));
  };
  // Served from the in-memory index alone, whoever asks: it keeps answering while the database is away.
  const v2Options = (doc: RouteDoc) => ({
    config: { guard: 'public' as const, ignoresSession: true, rateLimited: searchLimiter !== null, failureExtra: { data: {} }, doc },
    ...(searchLimiter ? { onRequest: searchLimiter } : {}),
  });
  app.get(`${apiRoot}/v2`, v2Options(searchDocs.searchGet), search);
  app.post(`${apiRoot}/v2`, v2Options(searchDocs.searchPost), search);

  // For the search console: every region and hidden permits too, so administrators only.
  app.get(`${apiRoot}/admin/search/why-not`, { config: { guard: 'admin', doc: whyNotDocs.whyNot } }, async (req) => {
    const input = asInput(req.query);
    const query = readString(input, 'query', 'q', 'text') ?? '';
    if (!query) throw badRequest('请输入检索问题');
    if (query.length > MAX_QUERY_LENGTH) throw queryTooLong();
    const permitId = readString(input, 'permit_id') ?? '';
    if (!permitId) throw badRequest('请指定许可事项');
    return { success: true, data: whyNotFound(holder, query, permitId, readList(input, 'region', 'region_id')) };
  });

  // The public catalogue reads count against the same limit: each reads the database, /getPermits a region's whole list.
  const publicRead = (doc: RouteDoc) => ({
    config: { guard: 'public' as const, rateLimited: searchLimiter !== null, doc },
    ...(searchLimiter ? { onRequest: searchLimiter } : {}),
  });
  app.get(`${apiRoot}/v2/regions`, publicRead(searchDocs.regions), async () => ({
    success: true,
    data: { regions: (await listRegionRows(ctx.readDb)).map(presentRegion) },
  }));

  app.get(`${apiRoot}/v2/themes`, publicRead(searchDocs.themes), async () => ({ success: true, data: await listThemesWithVisibleCounts(ctx.readDb) }));

  app.get(`${apiRoot}/v2/unbound-permits`, publicRead(searchDocs.unboundPermits), async (req) => {
    const value = (readString(asInput(req.query), 'visibility') ?? 'visible').toLowerCase() as Visibility;
    if (!VISIBILITIES.includes(value)) throw badRequest('visibility 只能是 visible、hidden 或 all');
    // Hidden permits are shown only to a logged-in user, and only those of its data scope.
    if (value !== 'visible' && !req.user) throw unauthorized();
    const ids = await listUnboundPermitIds(ctx.readDb, value, regionScope(req.user));
    return { success: true, data: await loadPermitPayloads(ctx.readDb, ids, { withRisks: false }) };
  });

  const getPermits = async (req: FastifyRequest) => {
    const input = asInput(req.method === 'POST' ? req.body : req.query);
    const token = readString(input, 'region', 'region_id');
    if (!token) throw new AppError(400, 'region is required', { data: {} });
    const region = await findRegionByToken(ctx.readDb, token);
    // Anonymous callers get the region's visible permits; logged-in users their data scope.
    const allowed = region && (!req.user || inScope(regionScope(req.user), region.id));
    const ids = allowed ? await listVisiblePermitIds(ctx.readDb, region.id) : [];
    return { success: true, data: { region: token, permits: await loadPermitPayloads(ctx.readDb, ids, { withRisks: false }) } };
  };
  const getPermitsOptions = (doc: RouteDoc) => {
    const options = publicRead(doc);
    return { ...options, config: { ...options.config, failureExtra: { data: {} } } };
  };
  app.get(`${apiRoot}/getPermits`, getPermitsOptions(searchDocs.getPermitsGet), getPermits);
  app.post(`${apiRoot}/getPermits`, getPermitsOptions(searchDocs.getPermitsPost), getPermits);
  return searchLimiter;
}
