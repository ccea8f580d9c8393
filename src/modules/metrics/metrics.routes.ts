import { statSync } from 'node:fs';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { DatabaseHandle } from '../../db/connect.js';
import { metricsDocs } from './metrics.openapi.js';
import { metricsAccess } from './metrics-access.js';

/**
 * Counts and times every answered request by its route pattern (`/…/admin/permits/:id`, never
 * the raw URL), method and status class, so the number of series stays bounded whatever URLs
 * clients send. Requests that match no route count as route `unmatched`.
 */
export function registerHttpMetrics(app: FastifyInstance, ctx: AppContext): void {
  app.addHook('onResponse', async (req, reply) => {
    const labels = { route: req.routeOptions.url ?? 'unmatched', method: req.method, status_class: `${Math.floor(reply.statusCode / 100)}xx` };
    ctx.metrics.httpRequests.inc(labels);
    ctx.metrics.httpDuration.observe(labels, reply.elapsedTime / 1000);
  });
}

function fileSize(path: string): number {
  try {
    return statSync(path).size;
  } catch {
    return 0;
  }
}

/** Gauges of the database connections: pg pool state, or the SQLite file sizes. */
function databaseGauges(ctx: AppContext, readDbh: DatabaseHandle | null): void {
  const pools = [{ database: 'primary', h: ctx.dbh }, ...(readDbh ? [{ database: 'read', h: readDbh }] : [])]
    .filter((p) => p.h.pool)
    .map((p) => ({ database: p.database, pool: p.h.pool! }));
  if (pools.length > 0) {
    ctx.metrics.gauge(
      'lawrisk_db_pool_connections',
      'PostgreSQL pool connections (state: total = open, idle = open and unused)',
      ['database', 'state'],
      (set) => {
        for (const { database, pool } of pools) {
          set(pool.totalCount, { database, state: 'total' });
          set(pool.idleCount, { database, state: 'idle' });
        }
      },
    );
    ctx.metrics.gauge('lawrisk_db_pool_waiting_queries', 'Queries waiting for a free PostgreSQL pool connection', ['database'], (set) => {
      for (const { database, pool } of pools) set(pool.waitingCount, { database });
    });
  }
  const target = ctx.config.database;
  if (target.kind === 'sqlite' && target.path !== ':memory:') {
    // One connection per process, so no pool to watch; the file and its write-ahead log are.
    ctx.metrics.gauge('lawrisk_sqlite_file_bytes', 'Size of the SQLite database file and of its write-ahead log', ['file'], (set) => {
      set(fileSize(target.path), { file: 'database' });
      set(fileSize(`${target.path}-wal`), { file: 'wal' });
    });
  }
}

/** Gauges of this instance's search index and of the change feed that keeps it fresh. */
function searchGauges(app: FastifyInstance, ctx: AppContext): void {
  const { metrics } = ctx;
  metrics.gauge('lawrisk_search_index_documents', "Permits in this instance's search index", [], (set) => set(app.searchIndex.loadedIndex.size));
  metrics.gauge('lawrisk_search_index_terms', "Distinct terms in this instance's search index dictionary", [], (set) =>
    set(app.searchIndex.loadedIndex.termCount),
  );
  metrics.gauge('lawrisk_search_index_version', "Changes applied to this instance's search index since start (rises on every change)", [], (set) =>
    set(app.searchIndex.version),
  );
  metrics.gauge('lawrisk_search_index_age_seconds', 'Seconds since this instance last rebuilt its search index in full', [], (set) =>
    set(app.searchIndex.ageMs / 1000),
  );
  metrics.gauge(
    'lawrisk_change_feed_poll_age_seconds',
    'Seconds since this instance last read the shared change feed successfully (stays below 1 unless the database is unreachable)',
    [],
    (set) => set(app.changeFeed.pollAgeMs / 1000),
  );
}

/**
 * GET /metrics (outside {api_root}, like /healthz): the Prometheus text exposition of this
 * instance. Access: see metrics-access.ts and docs/deploy.md.
 */
export function registerMetricsRoute(app: FastifyInstance, ctx: AppContext, readDbh: DatabaseHandle | null): void {
  databaseGauges(ctx, readDbh);
  searchGauges(app, ctx);
  const refusal = metricsAccess(ctx.config);
  app.get('/metrics', { config: { guard: 'public', doc: metricsDocs.metrics }, logLevel: 'warn' }, async (req, reply) => {
    const refused = refusal(req);
    if (refused) {
      if (refused.status === 401) reply.header('www-authenticate', 'Bearer realm="metrics"');
      throw refused;
    }
    return reply.type(ctx.metrics.contentType).send(await ctx.metrics.exposition());
  });
}
