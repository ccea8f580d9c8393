import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context.js';
import { adminChange } from '../../http/guards.js';
import { asInput, readNullableString } from '../../http/readers.js';
import { regionScope } from '../auth/data-scope.js';
import { parseRecordId } from '../../http/record-id.js';
import { regionDocs } from './regions.openapi.js';
import { createRegion, deleteRegion, listRegionsFor, updateRegion, type RegionInput } from './regions.service.js';

function regionInput(req: FastifyRequest): RegionInput {
  const body = asInput(req.body);
  return { name: readNullableString(body, 'name'), code: readNullableString(body, 'code') };
}

const operation = adminChange('region');

const regionIdOf = (req: FastifyRequest) => parseRecordId((req.params as { region_id?: string }).region_id);

/** Region browsing and administration (docs/maintenance.md, docs/import.md). */
export function registerRegionRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { apiRoot } = ctx.config;

  app.get(`${apiRoot}/admin/regions`, { config: { doc: regionDocs.list } }, async (req) => ({
    success: true,
    data: { regions: await listRegionsFor(ctx.readDb, regionScope(req.user)) },
  }));

  app.post(`${apiRoot}/admin/regions`, { config: operation('create', '新建区域', regionDocs.create) }, async (req) => {
    const region = await createRegion(ctx, regionInput(req));
    Object.assign(req.operation, { targetId: region.id, targetName: region.name, summary: `新建区域 ${region.name}` });
    return { success: true, data: { region } };
  });

  app.patch(`${apiRoot}/admin/regions/:region_id`, { config: operation('update', '修改区域', regionDocs.update) }, async (req) => {
    req.operation.targetId = regionIdOf(req);
    const region = await updateRegion(ctx, regionIdOf(req), regionInput(req));
    Object.assign(req.operation, { targetName: region.name, summary: `修改区域 ${region.name}` });
    return { success: true, data: { region } };
  });

  app.delete(`${apiRoot}/admin/regions/:region_id`, { config: operation('delete', '删除区域', regionDocs.remove) }, async (req) => {
    req.operation.targetId = regionIdOf(req);
    const result = await deleteRegion(ctx, regionIdOf(req));
    Object.assign(req.operation, { targetName: result.region.name, summary: `删除区域 ${result.region.name}` });
    return { success: true, data: result };
  });
}
