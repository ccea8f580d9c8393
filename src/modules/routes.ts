import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { registerAuthRoutes } from './auth/auth.routes.js';
import { registerHealthRoutes } from './health/health.routes.js';
import { registerPasswordChangeRoutes } from './auth/password-change.routes.js';
import { registerUsersRoutes } from './users/users.routes.js';
import { registerDepartmentsRoutes } from './departments/departments.routes.js';
import { registerThemesCatalogRoutes } from './themes/themes-catalog.routes.js';
import { registerPermitsFilterRoutes } from './permits/permits-filter.routes.js';
import { registerRegionRoutes } from './regions/regions.routes.js';
import { registerRegionThemeRoutes } from './themes/region-themes.routes.js';
import { registerPermitRoutes } from './permits/permits.routes.js';
import { registerAdvancedFilterRoutes } from './permits/advanced-filter.routes.js';
import { registerSnapshotRoutes } from './snapshots/snapshots.routes.js';
import { registerApprovalDepartmentRoutes } from './approval-departments/approval-departments.routes.js';
import { registerCheckpointRoutes } from './checkpoints/checkpoints.routes.js';
import { registerOperationLogRoutes } from './operation-log/operation-log.routes.js';
import { registerSearchModule } from './search/search.module.js';
import { registerStatisticsRoutes } from './statistics/statistics.routes.js';
import { registerSearchAnalyticsRoutes } from './search-analytics/search-analytics.routes.js';
import { registerImportRoutes } from './importer/import.routes.js';
import { uploadRateLimiter } from './importer/upload-rate-limit.js';
import { registerPermitFileRoutes } from './files/permit-files.routes.js';
import { registerTemplateRoutes } from './files/template.routes.js';
import { registerWizardImageRoutes } from './files/wizard-images.js';

/**
 * Every module's routes, in one list: a module plugs in here and nowhere else (a module that
 * registered another's routes would import it, and the modules would no longer depend one way:
 * docs/architecture.md). The order is the order of the API document.
 */
export async function registerModuleRoutes(app: FastifyInstance, ctx: AppContext, opts: { warmUp: boolean }): Promise<void> {
  registerHealthRoutes(app, ctx);
  registerAuthRoutes(app, ctx);
  registerPasswordChangeRoutes(app, ctx);
  registerUsersRoutes(app, ctx);
  registerDepartmentsRoutes(app, ctx);
  registerThemesCatalogRoutes(app, ctx);
  registerPermitsFilterRoutes(app, ctx);
  // Database maintenance: region, theme and permit browsing, permit deletion, snapshots, advanced
  // filtering, region administration.
  registerRegionRoutes(app, ctx);
  registerRegionThemeRoutes(app, ctx);
  registerPermitRoutes(app, ctx);
  registerAdvancedFilterRoutes(app, ctx);
  registerSnapshotRoutes(app, ctx);
  registerApprovalDepartmentRoutes(app, ctx);
  registerCheckpointRoutes(app, ctx);
  registerOperationLogRoutes(app, ctx);
  registerStatisticsRoutes(app, ctx);
  registerSearchAnalyticsRoutes(app, ctx);
  await registerSearchModule(app, ctx, opts.warmUp);
  // Workbook import with everything around it: the file archive, the template, the sample and
  // the wizard images. Upload and re-import share one counter per user.
  const uploadLimiter = uploadRateLimiter(app, ctx);
  registerImportRoutes(app, ctx, uploadLimiter);
  registerPermitFileRoutes(app, ctx, uploadLimiter);
  registerTemplateRoutes(app, ctx);
  registerWizardImageRoutes(app, ctx);
}
