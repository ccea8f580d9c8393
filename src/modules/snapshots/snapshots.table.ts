import type { Generated } from 'kysely';
import type { RiskFields } from '../permits/risk.schema.js';

/** One batch = the state before one change (a delete, an import commit, a restore), of one or more permits. */
export interface SnapshotBatchesTable {
  id: Generated<number>;
  /** 'delete' | 'import' | 'restore' … */
  reason: string;
  edited_by: string;
  change_summary: string | null;
  permit_count: number;
  risk_count: number;
  created_at: string;
}

/** One permit in a batch: its record and links as JSON, enough to recreate it after a delete. */
export interface SnapshotPermitsTable {
  id: Generated<number>;
  batch_id: number;
  region_id: number;
  /** Not a foreign key: the permit may since have been deleted. */
  permit_id: number;
  permit_name: string;
  permit_code: string | null;
  permit_data: string;
  risk_count: number;
}

/** A risk as the snapshot holds it: the fields of a `risks` row (risk.schema.ts) and its position. */
export interface SnapshotRisksTable extends RiskFields {
  id: Generated<number>;
  snapshot_permit_id: number;
  position: number;
}

export interface Tables {
  snapshot_batches: SnapshotBatchesTable;
  snapshot_permits: SnapshotPermitsTable;
  snapshot_risks: SnapshotRisksTable;
}
