import type { Static } from '@sinclair/typebox';
import { dataChanged, type AppContext } from '../../context.js';
import { nowIso } from '../../db/dialect.js';
import { AppError, notFound } from '../../http/errors.js';
import { parseRecordId } from '../../http/record-id.js';
import { changeStatements } from '../changes/change-feed.js';
import { parseStats, RestoreCheckFailed, type CheckpointKind, type CheckpointRow, type CheckpointStore } from './checkpoint-store.js';
import type { Checkpoint, CheckpointRestoreResult } from './checkpoints.openapi.js';
import { PostgresCheckpointStore } from './postgres-checkpoint-store.js';
import { SqliteCheckpointStore } from './sqlite-checkpoint-store.js';

export const BATCH_SIZE = { def: 1000, min: 100, max: 10_000, outOfRange: 'default' } as const;

export type CheckpointView = Static<typeof Checkpoint>;
export type RestoreResult = Static<typeof CheckpointRestoreResult>;
export type RestoreOptions = { autoBackup: boolean; batchSize: number; operator: string };

const storeOf = (ctx: AppContext): CheckpointStore => (ctx.dbh.kind === 'sqlite' ? new SqliteCheckpointStore(ctx.dbh) : new PostgresCheckpointStore(ctx.dbh));

/** A checkpoint as the API shows it (ids as strings, as every id of the interface). */
function presentCheckpoint(row: CheckpointRow): CheckpointView {
  const stats = parseStats(row.table_stats) ?? [];
  return {
    checkpoint_id: String(row.id),
    id: String(row.id),
    description: row.description,
    created_by: row.created_by,
    kind: row.kind as CheckpointKind, // written by the stores only
    created_at: row.created_at,
    total_rows: row.total_rows,
    size_bytes: row.size_bytes,
    table_stats: stats.map((s) => ({ table: s.table, rows: s.rows, chunks: s.chunks, bytes: s.bytes })),
    tables: stats.length,
  };
}

/** Path ids: anything that is not an id within the integer range names no checkpoint (404, never a 500). */
function parseCheckpointId(raw: string): number {
  const id = parseRecordId(raw);
  if (id === null) throw notFound('Checkpoint not found');
  return id;
}

const findCheckpoint = (ctx: AppContext, id: number) => ctx.db.selectFrom('checkpoints').selectAll().where('id', '=', id).executeTakeFirst();

export async function createCheckpoint(ctx: AppContext, description: string, createdBy: string): Promise<CheckpointView> {
  const draft = { description, createdBy, kind: 'manual' as const, createdAt: nowIso(ctx.now) };
  const id = await ctx.metrics.time('checkpoint_create', () => storeOf(ctx).create(draft));
  return presentCheckpoint((await findCheckpoint(ctx, id))!);
}

export async function listCheckpoints(ctx: AppContext): Promise<CheckpointView[]> {
  return (await storeOf(ctx).list()).map(presentCheckpoint);
}

export async function deleteCheckpoint(ctx: AppContext, rawId: string): Promise<void> {
  if (!(await storeOf(ctx).delete(parseCheckpointId(rawId)))) throw notFound('Checkpoint not found');
}

/** The two failure bodies of a restore: one whose stored data did not check out, and an exception. */
function restoreFailure(err: unknown, backupId: number | null): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof RestoreCheckFailed) {
    const message = 'Checkpoint restore reported errors; the database was left unchanged';
    const data: Record<string, unknown> = { errors: err.errors, auto_backup_available: backupId === null ? null : String(backupId) };
    if (backupId !== null) data.recovery_suggestion = `可从自动备份检查点 ${backupId} 恢复`;
    return new AppError(500, message, {}, { success: false, message, data });
  }
  const message = `Restore failed: ${err instanceof Error ? err.message : String(err)}`;
  const errorType = err instanceof Error ? err.constructor.name : typeof err;
  return new AppError(500, message, {}, { success: false, message, data: { error_type: errorType, auto_backup_available: null } });
}

/**
 * The checkpoint checked (unknown: 404; another format or chunks missing: refused), then an
 * automatic backup checkpoint (when asked), committed on its own, then every covered
 * table replaced in one transaction, with nothing of another operation in between; a failure of
 * the restore leaves the database as it was.
 */
export async function restoreCheckpoint(ctx: AppContext, rawId: string, opts: RestoreOptions): Promise<RestoreResult> {
  const id = parseCheckpointId(rawId);
  let backupId: number | null = null;
  const tables = await ctx.metrics
    .time('checkpoint_restore', () =>
      storeOf(ctx).restore(id, {
        batchSize: opts.batchSize,
        backup: opts.autoBackup
          ? { description: `Auto backup before restoring checkpoint ${id}`, createdBy: opts.operator, kind: 'auto_backup', createdAt: nowIso(ctx.now) }
          : null,
        onBackup: (backup) => void (backupId = backup),
        beforeCommit: () => changeStatements(ctx, { kind: 'all' }),
      }),
    )
    .catch((err: unknown) => {
      if (!(err instanceof AppError)) ctx.log.error({ err, checkpointId: id }, 'checkpoint restore failed');
      throw restoreFailure(err, backupId);
    });
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
