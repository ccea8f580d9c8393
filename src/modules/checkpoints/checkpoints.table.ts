import type { Generated } from 'kysely';

export interface CheckpointsTable {
  id: Generated<number>;
  description: string;
  created_by: string;
  kind: string;
  /** The stored layout, one per database: a store restores only its own (checkpoint-store.ts). */
  format: string;
  /** JSON: [{table, rows, chunks, bytes}] (PostgreSQL: with the stored columns and types), one entry per covered table */
  table_stats: string;
  total_rows: number;
  size_bytes: number;
  created_at: string;
}

/**
 * A compressed piece of one table's data: of its binary COPY (PostgreSQL) or of its pages in a
 * database image (SQLite). `row_count` is not used: the rows are counted per table in `table_stats`.
 */
export interface CheckpointChunksTable {
  id: Generated<number>;
  checkpoint_id: number;
  table_name: string;
  chunk_index: number;
  row_count: number;
  content: Buffer;
}

export interface Tables {
  checkpoints: CheckpointsTable;
  checkpoint_chunks: CheckpointChunksTable;
}
