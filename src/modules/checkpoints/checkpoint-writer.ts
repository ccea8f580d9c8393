import { CHUNK_LIMITS, chunkHeader, compressChunk } from './chunk-codec.js';
import { INSERT_CHUNK_SQL, readTablePages } from './chunk-sql.js';
import { COVERED_TABLES, type CoveredTable } from './checkpoint-tables.js';
import { InFlight } from './in-flight.js';
import { liveColumns } from './live-schema.js';
import type { RawConnection } from '../../db/raw-connection.js';
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

/**
 * PostgreSQL: one table's rows, page after page, as `copy-binary` chunks (chunk-codec.ts), read
 * by `reader` and stored by `writer`; the reader's server waits while `pending` is full.
 */
async function copyTable(
  reader: RawConnection,
  writer: RawConnection,
  checkpointId: number,
  table: CoveredTable,
  pending: InFlight,
): Promise<TableStat> {
  const columns = await liveColumns(reader, table.name);
  const blobs = columns.filter((c) => c.binary).map((c) => c.name);
  const header = chunkHeader('copy-binary', columns.map((c) => c.name), blobs, columns.map((c) => c.type));
  const stat: TableStat = { table: table.name, rows: 0, chunks: 0, bytes: 0 };
  await readTablePages(reader, table, columns, CHUNK_LIMITS, ({ tuples, rows, release }) => {
    const index = stat.chunks++;
    stat.rows += rows;
    return pending.add(
      compressChunk(header, tuples).then(async (content) => {
        release();
        stat.bytes += content.length;
        await writer.run(INSERT_CHUNK_SQL, [checkpointId, table.name, index, rows, content]);
      }),
    );
  });
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
 * failure leaves no partial checkpoint behind. Answers the new id.
 *
 * SQLite stores a database image (sqlite-image.ts): the copy runs in one snapshot transaction,
 * the storing in a second. PostgreSQL reads each table's pages of rows in one snapshot
 * transaction while a second connection stores them in a transaction of its own, committed once
 * everything is read: the server reads and writes at the same time.
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
  const writer = await conn.second!();
  return conn.transaction('snapshot', () =>
    writer.transaction('write', async () => {
      const id = await insertCheckpoint(writer, draft);
      const pending = new InFlight(IN_FLIGHT);
      const stats: TableStat[] = [];
      try {
        for (const table of COVERED_TABLES) stats.push(await copyTable(conn, writer, id, table, pending));
        await pending.drain();
      } catch (err) {
        await pending.settle();
        throw err;
      }
      await recordStats(writer, id, stats);
      return id;
    }),
  );
}
