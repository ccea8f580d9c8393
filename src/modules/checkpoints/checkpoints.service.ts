import type { Static } from '@sinclair/typebox';
import { dataChanged, type AppContext } from '../../context.js';
import { nowIso } from '../../db/dialect.js';
import { AppError, notFound } from '../../http/errors.js';
import { parseRecordId } from '../../http/record-id.js';
import { recordChangeRaw } from '../changes/change-feed.js';
import { restoreCheckpointData, RestoreCheckFailed, type RestoredTable } from './checkpoint-restorer.js';
import { writeCheckpoint, type CheckpointKind, type TableStat } from './checkpoint-writer.js';
import { deleteCheckpointRow, findCheckpointRow, listCheckpointRows, type CheckpointRow } from './checkpoints.repository.js';
import { withRawConnection, type RawConnection } from '../../db/raw-connection.js';
import type { Checkpoint, CheckpointRestoreResult } from './checkpoints.openapi.js';

/** Restore batch size (interface 4.8): 100..10000, anything else becomes 1000. */
export const BATCH_SIZE = { def: 1000, min: 100, max: 10_000, outOfRange: 'default' } as const;

/** A checkpoint as the API shows it (ids as strings, as every id of the interface). */
function presentCheckpoint(row: CheckpointRow): Static<typeof Checkpoint> {
  let stats: TableStat[] = [];
  try {
    stats = JSON.parse(row.table_stats) as TableStat[];
  } catch {
    stats = [];
  }
  return {
    checkpoint_id: String(row.id),
    id: String(row.id),
    description: row.description,
    created_by: row.created_by,
    kind: row.kind as CheckpointKind, // written by checkpoint-writer only
    created_at: row.created_at,
    total_rows: row.total_rows,
    size_bytes: row.size_bytes,
    table_stats: stats.map((s) => ({ table: s.table, rows: s.rows, chunks: s.chunks, bytes: s.bytes })),
    tables: stats.length,
  };
}

export type CheckpointView = Static<typeof Checkpoint>;

/** Path ids: anything that is not an id within the integer range names no checkpoint (404, never a 500). */
function parseCheckpointId(raw: string): number {
  const id = parseRecordId(raw);
  if (id === null) throw notFound('Checkpoint not found');
  return id;
}

function snapshot(ctx: AppContext, conn: RawConnection, description: string, createdBy: string, kind: CheckpointKind) {
  return writeCheckpoint(conn, { description, createdBy, kind, createdAt: nowIso(ctx.now) });
}

export async function createCheckpoint(ctx: AppContext, description: string, createdBy: string): Promise<CheckpointView> {
  const id = await ctx.metrics.time('checkpoint_create', () =>
    withRawConnection(ctx.dbh, (conn) => snapshot(ctx, conn, description, createdBy, 'manual')));
  return presentCheckpoint((await findCheckpointRow(ctx.db, id))!);
}

export async function listCheckpoints(ctx: AppContext): Promise<CheckpointView[]> {
  return (await listCheckpointRows(ctx.db)).map(presentCheckpoint);
}

export async function deleteCheckpoint(ctx: AppContext, rawId: string): Promise<void> {
  if (!(await deleteCheckpointRow(ctx.db, parseCheckpointId(rawId)))) throw notFound('Checkpoint not found');
}

export interface RestoreOptions {
  autoBackup: boolean;
  batchSize: number;
  operator: string;
}

export type RestoreResult = Static<typeof CheckpointRestoreResult>;

/** The two failure bodies of interface 4.8: a restore that reported errors, and an exception. */
function restoreFailure(err: unknown, backupId: number | null): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof RestoreCheckFailed) {
    const message = 'Checkpoint restore reported errors; the database was left unchanged';
    const data: Record<string, unknown> = { errors: err.errors, auto_backup_available: backupId === null ? null : String(backupId) };
    if (backupId !== null) data.recovery_suggestion = `可从自动备份检查点 ${backupId} 恢复`;
    return new AppError(500, message, {}, { success: false, message, data });
  }
  const cause = err instanceof Error ? err.message : String(err);
  const message = `Restore failed: ${cause}`;
  const errorType = err instanceof Error ? err.constructor.name : typeof err;
  return new AppError(500, message, {}, { success: false, message, data: { error_type: errorType, auto_backup_available: null } });
}

/**
 * Interface 4.8 restore: an automatic backup checkpoint first (when asked), then every covered
 * table replaced in one transaction. On SQLite both run on the one connection without letting
 * another query in between; a failure of the restore leaves the database as it was.
 */
export async function restoreCheckpoint(ctx: AppContext, rawId: string, opts: RestoreOptions): Promise<RestoreResult> {
  const id = parseCheckpointId(rawId);
  if (!(await findCheckpointRow(ctx.db, id))) throw notFound('Checkpoint not found');
  let backupId: number | null = null;
  let tables: RestoredTable[];
  try {
    tables = await ctx.metrics.time('checkpoint_restore', () =>
      withRawConnection(ctx.dbh, async (conn) => {
        if (opts.autoBackup) {
          backupId = await snapshot(ctx, conn, `Auto backup before restoring checkpoint ${id}`, opts.operator, 'auto_backup');
        }
        return restoreCheckpointData(conn, id, opts.batchSize, () => recordChangeRaw(ctx, conn, { kind: 'all' }));
      }),
    );
  } catch (err) {
    if (!(err instanceof AppError)) ctx.log.error({ err, checkpointId: id }, 'checkpoint restore failed');
    throw restoreFailure(err, backupId);
  }
  await dataChanged(ctx, { kind: 'all' });
  return {
    checkpoint_id: String(id),
    tables_restored: tables.length,
    total_rows: tables.reduce((n, t) => n + t.rows, 0),
    auto_backup: backupId === null ? null : String(backupId),
    table_details: tables,
  };
}

/** Operation-log summaries (the routes and the command line write the same). */
export function describeCheckpointCreated(c: CheckpointView): string {
  return `创建检查点 ${c.checkpoint_id}（${c.total_rows} 行）`;
}

export function describeRestore(r: RestoreResult, batchSize: number): string {
  const backup = r.auto_backup ? `，自动备份为检查点 ${r.auto_backup}` : '';
  return `从检查点 ${r.checkpoint_id} 恢复 ${r.total_rows} 行（每批 ${batchSize} 行）${backup}`;
}
