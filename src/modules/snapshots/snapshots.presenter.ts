import type { Static } from '@sinclair/typebox';
import { recordIdText } from '../../http/record-id.js';
import type { SnapshotEntry, SnapshotRestoreResult } from './snapshots.openapi.js';
import type { listSnapshotEntries } from './snapshots.repository.js';

type SnapshotEntryRow = Awaited<ReturnType<typeof listSnapshotEntries>>['rows'][number];
export type RestoreResult = Static<typeof SnapshotRestoreResult>;

/** One permit of one snapshot batch, as the list shows it. */
export function presentSnapshotEntry(r: SnapshotEntryRow): Static<typeof SnapshotEntry> {
  return {
    batch_id: String(r.batch_id),
    region_id: String(r.region_id),
    region_name: r.region_name,
    permit_id: String(r.permit_id),
    permit_name: r.permit_name,
    permit_code: r.permit_code,
    edited_by: r.edited_by,
    change_summary: r.change_summary,
    reason: r.reason,
    created_at: r.created_at,
    risk_count: r.risk_count,
  };
}

/** A restored batch: its permits, and the batch that saved what they were just before (none when there was nothing to save). */
export function presentRestoredBatch(batchId: number, permitIds: number[], savedBatchId: number | null, riskCount: number): RestoreResult {
  return { batch_id: String(batchId), restored_permits: permitIds.map(String), new_snapshot_batch_id: recordIdText(savedBatchId), risk_count: riskCount };
}
