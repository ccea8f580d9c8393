import { BINARY_CHUNK_ROWS, CHUNK_ROWS, chunkHeader, compressChunk } from './chunk-codec.js';
import { INSERT_CHUNK_SQL, pageReader } from './chunk-sql.js';
import { COVERED_TABLES, type CoveredTable } from './checkpoint-tables.js';
import { InFlight } from './in-flight.js';
import { liveColumns } from './live-schema.js';
import type { RawConnection } from './raw-connection.js';
import { withTablesImage } from './sqlite-image.js';

export type CheckpointKind = 'manual' | 'auto_backup';

/** Per covered table: rows copied, chunks stored, compressed bytes. Stored as the checkpoint's `table_stats`. */
export interface TableStat {
  table: string;
  rows: number;
  chunks: number;
  bytes: number;
}

export interface CheckpointDraft {
  description: string;
  createdBy: string;
  kind: CheckpointKind;
  createdAt: string;
}

/** Chunks compressing or being stored at the same time (a few, to use the thread pool without piling up memory). */
const IN_FLIGHT = 4;

/** PostgreSQL: one table's rows, page after page, as `copy` chunks (chunk-codec.ts). */
async function copyTable(conn: RawConnection, checkpointId: number, table: CoveredTable, pending: InFlight): Promise<TableStat> {
  const columns = await liveColumns(conn, table.name);
  const header = chunkHeader('copy', columns.map((c) => c.name), columns.filter((c) => c.binary).map((c) => c.name));
  const limit = columns.some((c) => c.binary) ? BINARY_CHUNK_ROWS : CHUNK_ROWS;
  const pages = pageReader(conn, table, columns, limit);
  const stat: TableStat = { table: table.name, rows: 0, chunks: 0, bytes: 0 };
  for (let page = await pages.read(null); page; page = page.count < limit ? null : await pages.read(page.lastKey)) {
    const { lines, count } = page;
    const index = stat.chunks++;
    stat.rows += count;
    await pending.add(
      compressChunk(header, lines).then(async (content) => {
        stat.bytes += content.length;
        await conn.run(INSERT_CHUNK_SQL, [checkpointId, table.name, index, count, content]);
      }),
    );
  }
  return stat;
}

async function insertCheckpoint(conn: RawConnection, draft: CheckpointDraft): Promise<number> {
  const [[id]] = await conn.rows(
    `insert into checkpoints (description, created_by, kind, table_stats, total_rows, size_bytes, created_at)
     values (?, ?, ?, '[]', 0, 0, ?) returning id`,
    [draft.description, draft.createdBy, draft.kind, draft.createdAt],
  );
  return Number(id);
}

async function recordStats(conn: RawConnection, id: number, stats: readonly TableStat[]): Promise<void> {
  const totalRows = stats.reduce((n, s) => n + s.rows, 0);
  const sizeBytes = stats.reduce((n, s) => n + s.bytes, 0);
  await conn.run('update checkpoints set table_stats = ?, total_rows = ?, size_bytes = ? where id = ?', [
    JSON.stringify(stats),
    totalRows,
    sizeBytes,
    id,
  ]);
}

/**
 * Copies every covered table into a new checkpoint as one consistent state of the database; a
 * failure leaves no partial checkpoint behind. SQLite stores a database image (sqlite-image.ts):
 * the copy runs in one snapshot transaction, the storing in a second. PostgreSQL copies and
 * stores each table's pages of rows inside one snapshot transaction. Answers the new id.
 */
export async function writeCheckpoint(conn: RawConnection, draft: CheckpointDraft): Promise<number> {
  if (conn.kind === 'sqlite') {
    return withTablesImage(conn, (store) =>
      conn.transaction('write', async () => {
        const id = await insertCheckpoint(conn, draft);
        await recordStats(conn, id, await store(id));
        return id;
      }),
    );
  }
  return conn.transaction('snapshot', async () => {
    const id = await insertCheckpoint(conn, draft);
    const pending = new InFlight(IN_FLIGHT);
    const stats: TableStat[] = [];
    try {
      for (const table of COVERED_TABLES) stats.push(await copyTable(conn, id, table, pending));
      await pending.drain();
    } catch (err) {
      await pending.settle();
      throw err;
    }
    await recordStats(conn, id, stats);
    return id;
  });
}
