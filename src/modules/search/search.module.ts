import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { SearchIndexHolder } from './search-index.service.js';
import { registerSearchRoutes } from './search.routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    searchIndex: SearchIndexHolder;
  }
}

/** Builds the index from the database, keeps it following every data change, and serves the routes. */
export async function registerSearchModule(app: FastifyInstance, ctx: AppContext): Promise<void> {
  const holder = new SearchIndexHolder(ctx);
  app.decorate('searchIndex', holder);
  await holder.rebuild();
  ctx.onDataChanged.push((change) => holder.apply(change));
  registerSearchRoutes(app, ctx, holder);
}
