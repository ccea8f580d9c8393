import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { ChangeFeed } from '../changes/change-feed.js';
import { SearchIndexHolder } from './search-index.service.js';
import { registerSearchRoutes } from './search.routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    searchIndex: SearchIndexHolder;
    changeFeed: ChangeFeed;
  }
}

/**
 * Builds the index from the database and keeps it following every data change: this
 * instance's directly, other instances' through the shared change feed.
 */
export async function registerSearchModule(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const holder = new SearchIndexHolder(ctx);
  const feed = new ChangeFeed(ctx, randomUUID());
  app.decorate('searchIndex', holder);
  app.decorate('changeFeed', feed);
  // The start-up load may come from a read replica: the feed position is read there too.
  await feed.mark(ctx.readDb);
  await holder.rebuild(ctx.readDb);
  ctx.onDataChanged.push(async (change) => {
    await holder.apply(change);
    await feed.record(change);
  });
  feed.start((change) => holder.apply(change));
  app.addHook('onClose', async () => feed.stop());
  registerSearchRoutes(app, ctx, holder);
}
