import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { badRequest } from '../../http/errors.js';
import { asInput, readString } from '../../http/readers.js';
import { regionScope } from '../auth/data-scope.js';
import { presentRegion } from '../regions/regions.presenter.js';
import { requireVisibleRegion } from '../regions/regions.service.js';
import { listRegionThemeOptions } from './region-themes.repository.js';
import { themeDocs } from './themes.openapi.js';

/** GET /admin/themes: the theme options of one region (4.6). */
export function registerRegionThemeRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get(`${ctx.config.apiRoot}/admin/themes`, { config: { failureExtra: { data: {} }, doc: themeDocs.ofRegion } }, async (req) => {
    const token = readString(asInput(req.query), 'region', 'region_id');
    if (!token) throw badRequest('region is required');
    const region = await requireVisibleRegion(ctx.readDb, token, regionScope(req.user));
    const themes = await listRegionThemeOptions(ctx.readDb, region.id);
    return { success: true, data: { region: token, region_info: presentRegion(region), themes } };
  });
}
