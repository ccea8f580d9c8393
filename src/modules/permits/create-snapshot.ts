// Saving a permit's state belongs with the permits: each change of one (delete, edit, import,
// restore) saves it first. The snapshots module lists the batches and restores them, through the
// permits' repository.
import type { Selectable } from 'kysely';
import type { Executor } from '../../db/database.js';
import { chunked, ID_CHUNK } from '../../db/batch.js';
import type { PermitsTable } from './permits.table.js';
import { groupBy } from './permit-payload.js';
import { countRisksOfPermits, listApprovalDepartmentNames, permitRecordOf } from './permits.repository.js';

/** What a snapshot keeps of a permit besides its risks: enough to recreate it after a delete. */
export interface PermitSnapshotData {
  permit: Omit<Selectable<PermitsTable>, 'updated_at'>;
  theme_ids: number[];
  approval_departments: string[];
}

export interface SnapshotRequest {
  reason: string;
  editedBy: string;
  changeSummary: string | null;
  permitIds: number[];
  now: string;
}

/**
 * Saves the current state of the given permits (record, theme and department links, risk list)
 * as one batch, inside the caller's transaction. Returns the batch id, or null when none of the
 * permits exists (nothing to save). Risks are copied with INSERT … SELECT, so large batches stay
 * in the database.
 */
export async function createSnapshotBatch(trx: Executor, req: SnapshotRequest): Promise<number | null> {
  const existing: Array<Selectable<PermitsTable>> = [];
  for (const part of chunked([...new Set(req.permitIds)], ID_CHUNK)) {
    existing.push(...(await trx.selectFrom('permits').selectAll().where('id', 'in', part).execute()));
  }
  // Permits that do not exist (yet, or any more) have no state to save: no empty batches.
  if (existing.length === 0) return null;
  const batch = await trx
    .insertInto('snapshot_batches')
    .values({ reason: req.reason, edited_by: req.editedBy, change_summary: req.changeSummary, permit_count: 0, risk_count: 0, created_at: req.now })
    .returning('id')
    .executeTakeFirstOrThrow();

  let permitCount = 0;
  let riskCount = 0;
  for (const permits of chunked(existing, ID_CHUNK)) {
    const part = permits.map((p) => p.id);
    const themesOf = groupBy(
      await trx.selectFrom('permit_themes').select(['permit_id', 'theme_id']).where('permit_id', 'in', part).execute(),
      (t) => t.permit_id,
    );
    const deptsOf = groupBy(await listApprovalDepartmentNames(trx, part), (d) => d.permit_id);
    const riskCountOf = await countRisksOfPermits(trx, part);

    const rows = permits.map((p) => {
      const data: PermitSnapshotData = {
        permit: permitRecordOf(p),
        theme_ids: (themesOf.get(p.id) ?? []).map((t) => t.theme_id),
        approval_departments: (deptsOf.get(p.id) ?? []).map((d) => d.name),
      };
      return {
        batch_id: batch.id,
        region_id: p.region_id,
        permit_id: p.id,
        permit_name: p.name,
        permit_code: p.code,
        permit_data: JSON.stringify(data),
        risk_count: riskCountOf.get(p.id) ?? 0,
      };
    });
    await trx.insertInto('snapshot_permits').values(rows).execute();
    await trx
      .insertInto('snapshot_risks')
      .columns(['snapshot_permit_id', 'position', 'risk_type', 'title', 'description', 'legal_basis', 'consequence', 'prevention', 'level'])
      .expression((eb) =>
        eb
          .selectFrom('risks as r')
          .innerJoin('snapshot_permits as sp', (j) => j.onRef('sp.permit_id', '=', 'r.permit_id').on('sp.batch_id', '=', batch.id))
          .select(['sp.id', 'r.position', 'r.risk_type', 'r.title', 'r.description', 'r.legal_basis', 'r.consequence', 'r.prevention', 'r.level'])
          .where('r.permit_id', 'in', part),
      )
      .execute();
    permitCount += rows.length;
    riskCount += rows.reduce((s, r) => s + r.risk_count, 0);
  }
  await trx.updateTable('snapshot_batches').set({ permit_count: permitCount, risk_count: riskCount }).where('id', '=', batch.id).execute();
  return batch.id;
}
