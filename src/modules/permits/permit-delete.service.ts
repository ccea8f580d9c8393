import type { AppContext } from '../../context.js';
import { crashPoint } from '../../crash-point.js';
import { nowIso } from '../../db/dialect.js';
import { badRequest, notFound } from '../../http/errors.js';
import type { RegionScope } from '../auth/data-scope.js';
import { writeChange } from '../changes/change-transaction.js';
import { requireRegionForChange } from '../regions/regions.service.js';
import { createSnapshotBatch } from './create-snapshot.js';
import { findPermitByToken, matchTheme, PERMIT_NOT_FOUND, permitThemeRefs } from './permit-lookup.js';
import { presentDeletedPermit, type DeletePermitResult } from './permits.presenter.js';
import { deletePermitRow } from './permits.repository.js';

export interface DeletePermitRequest {
  region?: string;
  permit?: string;
  theme?: string;
  editedBy: string;
  changeSummary: string | null;
}

export const NO_THEME_MESSAGE = '未找到许可所属主题,无法删除';

/**
 * DELETE /admin/permits: saves the permit (record, links, risks) as one snapshot batch and
 * deletes it, in one transaction, so a deletion never exists without its snapshot.
 */
export async function deletePermit(ctx: AppContext, scope: RegionScope, req: DeletePermitRequest): Promise<DeletePermitResult> {
  if (!req.region || !req.permit) throw badRequest('region_id 和 permit_id 均为必填');
  const { region, permit } = req;
  return writeChange(
    ctx,
    async (trx) => {
      const regionRow = await requireRegionForChange(trx, region, scope);
      const row = await findPermitByToken(trx, regionRow.id, permit);
      if (!row) throw notFound(PERMIT_NOT_FOUND);
      // A given theme must be one of the permit's; a blank one is resolved from the permit.
      const themes = await permitThemeRefs(trx, row);
      const theme = req.theme ? matchTheme(themes, req.theme) : (themes[0] ?? null);
      if (!theme) throw badRequest(NO_THEME_MESSAGE);

      const batchId = await createSnapshotBatch(trx, {
        reason: 'delete',
        editedBy: req.editedBy,
        changeSummary: req.changeSummary,
        permitIds: [row.id],
        now: nowIso(ctx.now),
      });
      const batch = await trx.selectFrom('snapshot_batches').select('risk_count').where('id', '=', batchId!).executeTakeFirstOrThrow();
      await crashPoint('permit-delete');
      if (!(await deletePermitRow(trx, row.id))) throw notFound(PERMIT_NOT_FOUND);
      return presentDeletedPermit(row, theme, batchId!, batch.risk_count);
    },
    (result) => ({ kind: 'permits', permitIds: [Number(result.permit_id)] }),
    { catalogueLock: true },
  );
}
