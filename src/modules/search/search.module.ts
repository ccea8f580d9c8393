import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { ChangeFeed } from '../changes/change-feed.js';
import { QueryLog } from '../query-log/query-log.js';
import { registerLexiconRoutes } from './lexicon/lexicon.routes.js';
import { SearchIndex } from './engine/index.js';
import { normalizeText } from './engine/normalize.js';
import { SearchIndexHolder } from './search-index.service.js';
import { registerMcpRoutes } from './mcp.routes.js';
import { registerPublicPageRoutes } from './public-page.routes.js';
import { registerSearchRoutes } from './search.routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    searchIndex: SearchIndexHolder;
    changeFeed: ChangeFeed;
    queryLog: QueryLog;
  }
}

/**
 * Builds the index from the database and keeps it following every data change: this
 * instance's directly, other instances' through the shared change feed.
 */
export async function registerSearchModule(app: FastifyInstance, ctx: AppContext, warmUp: boolean): Promise<void> {
  const holder = new SearchIndexHolder(ctx);
  const feed = new ChangeFeed(ctx);
  app.decorate('searchIndex', holder);
  app.decorate('changeFeed', feed);
  if (warmUp) SearchIndex.warmUp();
  let closed = false;
  // Not awaited here: buildApp waits for it unless the server listens first (server.ts) and reports
  // readiness meanwhile; whoever awaits holder.whenReady() sees a failure. A full build may read a
  // read replica: the feed position is read there too. The feed is followed from where the
  // loaded index stands, once it stands.
  const started = holder
    .start(feed, ctx.readDb)
    .then(() => closed || feed.start((change) => holder.apply(change)))
    .catch(() => undefined);
  // This instance's own changes, once committed (their feed entries were written with them).
  ctx.onDataChanged.push((change) => holder.apply(change));
  ctx.notReadyReasons.push(() => (holder.ready ? null : '搜索索引正在加载'));
  const minutes = ctx.config.searchSnapshotMinutes;
  const snapshots = minutes > 0 ? setInterval(() => void holder.writeSnapshotNow(feed), minutes * 60_000).unref() : null;
  app.addHook('onClose', async () => {
    closed = true;
    feed.stop();
    if (snapshots) clearInterval(snapshots);
    // A snapshot being written is finished (or its temporary file would be left behind).
    await started;
    await holder.snapshotWritten();
  });
  const queryLog = new QueryLog(ctx, normalizeText);
  app.decorate('queryLog', queryLog);
  queryLog.start();
  // Runs before the database closes (app.ts): what is waiting is written.
  app.addHook('onClose', async () => queryLog.stop());
  const limiter = registerSearchRoutes(app, ctx, holder, queryLog);
  registerMcpRoutes(app, ctx, holder, queryLog, limiter);
  registerPublicPageRoutes(app, ctx, holder, limiter);
  registerLexiconRoutes(app, ctx, holder);
}
