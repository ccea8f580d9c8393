import { crashPoint } from '../../crash-point.js';
import { notFound } from '../../http/errors.js';
import { COVERED_TABLES, type CoveredTable } from './checkpoint-tables.js';
import type { TableStat } from './checkpoint-writer.js';
import { checkSqliteForeignKeys, dropPostgresConstraints, restorePostgresConstraints } from './deferred-constraints.js';
import { keepSessions, restoreKeptSessions } from './kept-sessions.js';
import { liveColumns, type LiveColumn } from './live-schema.js';
import { quoteIdent, type RawConnection } from '../../db/raw-connection.js';
import { isImageCheckpoint, withStoredImage } from './sqlite-image.js';
import { RestoreCheckFailed, restoreTable, type Expected } from './table-restorer.js';

export { RestoreCheckFailed };

export interface RestoredTable {
  table: string;
  rows: number;
}

/** The checkpoint's statistics, in the order its tables were written. */
async function checkpointStats(conn: RawConnection, checkpointId: number): Promise<TableStat[]> {
  const found = await conn.rows('select table_stats from checkpoints where id = ?', [checkpointId]);
  if (found.length === 0) throw notFound('Checkpoint not found'); // deleted meanwhile
  const [[text]] = found;
  let stats: unknown;
  try {
    stats = JSON.parse(String(text));
  } catch {
    stats = null;
  }
  const valid =
    Array.isArray(stats) &&
    stats.every((s) => s && typeof s.table === 'string' && Number.isInteger(s.rows) && Number.isInteger(s.chunks));
  if (!valid) throw new RestoreCheckFailed(['checkpoint table statistics are unreadable']);
  return stats as TableStat[];
}

async function expectedStats(conn: RawConnection, checkpointId: number): Promise<Map<string, Expected>> {
  return new Map((await checkpointStats(conn, checkpointId)).map((s) => [s.table, { rows: s.rows, chunks: s.chunks }]));
}

/**
 * Ids never go backwards: each serial sequence continues after the larger of its current value
 * and the restored rows' highest id, as SQLite's AUTOINCREMENT does, so an id is never given to
 * a second record.
 */
async function advanceSequences(conn: RawConnection): Promise<void> {
  for (const table of COVERED_TABLES) {
    if (table.key.length !== 1 || table.key[0] !== 'id') continue;
    const [[seq]] = await conn.rows('select pg_get_serial_sequence(?, ?)', [table.name, 'id']);
    if (!seq) continue;
    await conn.rows(
      `select setval(?::regclass, greatest((select coalesce(max(id), 0) from ${quoteIdent(table.name)}),
       (select last_value from ${String(seq)}), 1))`,
      [seq],
    );
  }
}

/**
 * Empties every covered table. PostgreSQL: TRUNCATE (sessions with them, since they reference
 * users; the kept ones come back afterwards). SQLite: DELETE, which SQLite turns into a truncation
 * while foreign keys are off.
 */
export async function emptyTables(conn: RawConnection): Promise<void> {
  if (conn.kind === 'postgres') {
    await conn.run(`truncate table ${[...COVERED_TABLES.map((t) => t.name), 'sessions'].map(quoteIdent).join(', ')}`);
    return;
  }
  for (const table of [...COVERED_TABLES].reverse()) await conn.run(`delete from ${quoteIdent(table.name)}`);
}

/**
 * Replaces every covered table's rows by the checkpoint's, in one transaction: all or nothing.
 * `beforeCommit` runs last inside it (the change-feed entry that must commit with the data).
 * Throws RestoreCheckFailed when the stored data does not check out; anything else is an exception.
 * A SQLite image (sqlite-image.ts) is written to a file and attached before the transaction
 * begins; the row layouts are read chunk by chunk inside it (table-restorer.ts).
 */
export async function restoreCheckpointData(
  conn: RawConnection,
  checkpointId: number,
  batchSize: number,
  beforeCommit: () => Promise<void> = async () => {},
): Promise<RestoredTable[]> {
  if (conn.kind === 'sqlite') {
    // Read before the transaction, which starts only once the image is attached; nothing else
    // runs on the connection in between.
    const stats = await checkpointStats(conn, checkpointId);
    if (await isImageCheckpoint(conn, checkpointId, stats)) {
      return withStoredImage(conn, checkpointId, stats, (load) =>
        replaceTables(conn, checkpointId, beforeCommit, (table, live, expected) => load(table.name, live, expected, batchSize)),
      );
    }
  }
  return replaceTables(conn, checkpointId, beforeCommit, (table, live, expected) =>
    restoreTable(conn, checkpointId, table, live, expected, batchSize),
  );
}

/** Fills one emptied table; answers the rows inserted. */
type TableLoader = (table: CoveredTable, live: readonly LiveColumn[], expected: Expected) => Promise<number>;

/**
 * The restore transaction, whatever the layout. Foreign keys are checked once after the load
 * (deferred-constraints.ts): on SQLite they are switched off for the transaction, which can only
 * be done outside one, and emptying the tables becomes a truncation; on PostgreSQL they are
 * dropped with the tables' indexes and built again inside it.
 */
async function replaceTables(
  conn: RawConnection,
  checkpointId: number,
  beforeCommit: () => Promise<void>,
  loadTable: TableLoader,
): Promise<RestoredTable[]> {
  if (conn.kind === 'sqlite') await conn.run('pragma foreign_keys = off');
  try {
    return await conn.transaction('write', async () => {
      const stats = await expectedStats(conn, checkpointId);
      const sessions = await keepSessions(conn);
      await emptyTables(conn);
      const dropped = conn.kind === 'postgres' ? await dropPostgresConstraints(conn) : [];
      const restored: RestoredTable[] = [];
      for (const table of COVERED_TABLES) {
        const expected = stats.get(table.name) ?? { rows: 0, chunks: 0 };
        const live = await liveColumns(conn, table.name);
        restored.push({ table: table.name, rows: await loadTable(table, live, expected) });
      }
      await crashPoint('checkpoint-restore');
      await restoreKeptSessions(conn, sessions);
      if (conn.kind === 'sqlite') await checkSqliteForeignKeys(conn);
      else {
        await restorePostgresConstraints(conn, dropped);
        await advanceSequences(conn);
      }
      await beforeCommit();
      return restored;
    });
  } finally {
    if (conn.kind === 'sqlite') await conn.run('pragma foreign_keys = on');
  }
}
