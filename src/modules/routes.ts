import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { registerAuthRoutes } from './auth/auth.routes.js';
import { registerHealthRoutes } from './health/health.routes.js';
import { registerPasswordChangeRoutes } from './auth/password-change.routes.js';
import { registerUsersRoutes } from './users/users.routes.js';
import { registerDepartmentsRoutes } from './departments/departments.routes.js';
import { registerThemesCatalogRoutes } from './themes/themes-catalog.routes.js';
import { registerPermitsFilterRoutes } from './permits/permits-filter.routes.js';
import { registerMaintenanceRoutes } from './permits/maintenance.routes.js';
import { registerCheckpointRoutes } from './checkpoints/checkpoints.routes.js';
import { registerOperationLogRoutes } from './operation-log/operation-log.routes.js';
import { registerSearchModule } from './search/search.module.js';
import { registerStatisticsRoutes } from './statistics/statistics.routes.js';
import { registerSearchAnalyticsRoutes } from './search-analytics/search-analytics.routes.js';
import { registerImportModule } from './importer/import.module.js';

/** Every module's routes, in one list: a module plugs in here and nowhere else. */
export async function registerModuleRoutes(app: FastifyInstance, ctx: AppContext, opts: { warmUp: boolean }): Promise<void> {
  registerHealthRoutes(app, ctx);
  registerAuthRoutes(app, ctx);
  registerPasswordChangeRoutes(app, ctx);
  registerUsersRoutes(app, ctx);
  registerDepartmentsRoutes(app, ctx);
  registerThemesCatalogRoutes(app, ctx);
  registerPermitsFilterRoutes(app, ctx);
  registerMaintenanceRoutes(app, ctx);
  registerCheckpointRoutes(app, ctx);
  registerOperationLogRoutes(app, ctx);
  registerStatisticsRoutes(app, ctx);
  registerSearchAnalyticsRoutes(app, ctx);
  await registerSearchModule(app, ctx, opts.warmUp);
  registerImportModule(app, ctx);
}
