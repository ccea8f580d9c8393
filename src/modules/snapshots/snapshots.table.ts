import type { Generated } from 'kysely';

/** One batch = the state of one permit's risk list (and the permit itself) before a change. */
export interface SnapshotBatchesTable {
  id: Generated<number>;
  region_id: number;
  /** Not a foreign key: the permit may since have been deleted. */
  permit_id: number;
  permit_name: string;
  permit_code: string | null;
  /** The permit record and its theme/department links as JSON, to recreate a deleted permit. */
  permit_data: string;
  reason: string;
  edited_by: string;
  change_summary: string | null;
  risk_count: number;
  created_at: string;
}

export interface SnapshotRisksTable {
  id: Generated<number>;
  batch_id: number;
  position: number;
  risk_type: string | null;
  title: string;
  description: string | null;
  legal_basis: string | null;
  consequence: string | null;
  prevention: string | null;
  level: string | null;
}

export interface Tables {
  snapshot_batches: SnapshotBatchesTable;
  snapshot_risks: SnapshotRisksTable;
}
