import type { AppContext } from '../../context.js';
import type { Executor } from '../../db/database.js';
import { nowIso } from '../../db/dialect.js';
import { badRequest, notFound } from '../../http/errors.js';
import { assertInScope, inScope, type RegionScope } from '../auth/data-scope.js';
import { writeChange } from '../changes/change-transaction.js';
import { ensureApprovalDepartmentIds } from '../approval-departments/approval-departments.repository.js';
import { findCodeHolder, findPermitById, replacePermitLinks, writePermitRecord } from '../permits/permits.repository.js';
import { findRegionById } from '../regions/regions.repository.js';
import { createSnapshotBatch, type PermitSnapshotData } from '../permits/create-snapshot.js';
import { presentRestoredBatch, type RestoreResult } from './snapshots.presenter.js';
import { findSnapshotBatch, listBatchPermits, putBackBatchRisks } from './snapshots.repository.js';

export const BATCH_NOT_FOUND = '快照批次不存在';

/** Puts one permit's record and links back as the snapshot has them. */
async function restorePermit(trx: Executor, data: PermitSnapshotData, now: string): Promise<void> {
  const p = data.permit;
  if (!(await findRegionById(trx, p.region_id))) throw badRequest(`无法恢复许可事项“${p.name}”：所属区域已被删除`);
  if (p.code) {
    const holder = await findCodeHolder(trx, p.region_id, p.code, p.id);
    if (holder) throw badRequest(`无法恢复许可事项“${p.name}”：该区域已有事项编码为 ${p.code} 的许可事项“${holder.name}”（ID ${holder.id}）`);
  }
  // The archived workbook may have been deleted since; the permit then simply has none.
  const file = p.source_file_id === null ? undefined : await trx.selectFrom('permit_files').select('id').where('id', '=', p.source_file_id).executeTakeFirst();
  await writePermitRecord(trx, { ...p, source_file_id: file ? p.source_file_id : null }, now);
  // Themes deleted from the catalogue since cannot be linked again.
  const themes = data.theme_ids.length === 0 ? [] : await trx.selectFrom('themes').select('id').where('id', 'in', data.theme_ids).execute();
  const kept = new Set(themes.map((t) => t.id));
  const deptIds = await ensureApprovalDepartmentIds(trx, data.approval_departments);
  const departments = data.approval_departments.flatMap((n) => deptIds.get(n.trim()) ?? []);
  await replacePermitLinks(
    trx,
    p.id,
    data.theme_ids.filter((id) => kept.has(id)),
    departments,
  );
}

/**
 * Restores every permit of a batch as it was (recreated under its own id when it has been
 * deleted), after saving their current state as a new batch, all in one transaction.
 */
export async function restoreSnapshotBatch(
  ctx: AppContext,
  scope: RegionScope,
  batchId: number | null,
  req: { editedBy: string; changeSummary: string | null },
): Promise<RestoreResult> {
  return writeChange(
    ctx,
    async (trx) => {
      const batch = batchId === null ? undefined : await findSnapshotBatch(trx, batchId);
      if (!batch) throw notFound(BATCH_NOT_FOUND);
      const entries = await listBatchPermits(trx, batch.id);
      // A batch wholly outside the user's regions does not exist for it; a mixed one is refused.
      if (entries.length > 0 && !entries.some((e) => inScope(scope, e.region_id))) throw notFound(BATCH_NOT_FOUND);
      for (const e of entries) {
        assertInScope(scope, e.region_id);
        const current = await findPermitById(trx, e.permit_id);
        if (current) assertInScope(scope, current.region_id);
      }
      const now = nowIso(ctx.now);
      const permitIds = entries.map((e) => e.permit_id);
      const saved = await createSnapshotBatch(trx, { reason: 'restore', editedBy: req.editedBy, changeSummary: req.changeSummary, permitIds, now });
      for (const e of entries) await restorePermit(trx, JSON.parse(e.permit_data) as PermitSnapshotData, now);
      const riskCount = await putBackBatchRisks(trx, batch.id, permitIds);
      return presentRestoredBatch(batch.id, permitIds, saved, riskCount);
    },
    (result) => ({ kind: 'permits', permitIds: result.restored_permits.map(Number) }),
    { catalogueLock: true },
  );
}
