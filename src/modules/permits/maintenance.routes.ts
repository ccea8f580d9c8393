import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerApprovalDepartmentRoutes } from '../approval-departments/approval-departments.routes.js';
import { registerRegionRoutes } from '../regions/regions.routes.js';
import { registerSnapshotRoutes } from '../snapshots/snapshots.routes.js';
import { registerRegionThemeRoutes } from '../themes/region-themes.routes.js';
import { registerAdvancedFilterRoutes } from './advanced-filter.routes.js';
import { registerPermitRoutes } from './permits.routes.js';

/**
 * Database maintenance (interface 4.6, the snapshots of 4.8, 4.9): region, theme and permit
 * browsing, permit deletion, snapshots, advanced filtering, region administration.
 */
export function registerMaintenanceRoutes(app: FastifyInstance, ctx: AppContext): void {
  registerRegionRoutes(app, ctx);
  registerRegionThemeRoutes(app, ctx);
  registerPermitRoutes(app, ctx);
  registerAdvancedFilterRoutes(app, ctx);
  registerSnapshotRoutes(app, ctx);
  registerApprovalDepartmentRoutes(app, ctx);
}
