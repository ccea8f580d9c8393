import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { registerAuthRoutes } from './auth/auth.routes.js';
import { registerHealthRoutes } from './health/health.routes.js';

/** Every module's routes, in one list: a module plugs in here and nowhere else. */
export async function registerModuleRoutes(app: FastifyInstance, ctx: AppContext): Promise<void> {
  registerHealthRoutes(app, ctx);
  registerAuthRoutes(app, ctx);
}
