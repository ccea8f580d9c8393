import type { Generated } from 'kysely';

export interface CheckpointsTable {
  id: Generated<number>;
  description: string;
  created_by: string;
  kind: string;
  /** JSON: [{table, rows, chunks, bytes}], one entry per covered table */
  table_stats: string;
  total_rows: number;
  size_bytes: number;
  created_at: string;
}

/** One table's rows in compressed chunks, or the pieces of a SQLite image (chunk-codec.ts, sqlite-image.ts). */
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
