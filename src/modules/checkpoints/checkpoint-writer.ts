import { CHUNK_ROWS, encodeChunk } from './chunk-codec.js';
import { COVERED_TABLES, type CoveredTable } from './checkpoint-tables.js';
import { InFlight } from './in-flight.js';
import { liveColumns } from './live-schema.js';
import { quoteIdent, type RawConnection } from './raw-connection.js';

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

const INSERT_CHUNK_SQL =
  'insert into checkpoint_chunks (checkpoint_id, table_name, chunk_index, row_count, content) values (?, ?, ?, ?, ?)';

/** The two page queries of a table: the first page, and the page after a given key (keyset paging). */
function pageQueries(table: CoveredTable, columns: string[]) {
  const select = `select ${columns.map(quoteIdent).join(', ')} from ${quoteIdent(table.name)}`;
  const order = ` order by ${table.key.map(quoteIdent).join(', ')} limit ${CHUNK_ROWS}`;
  const key = table.key.length === 1 ? quoteIdent(table.key[0]) : `(${table.key.map(quoteIdent).join(', ')})`;
  const after = table.key.length === 1 ? '?' : `(${table.key.map(() => '?').join(', ')})`;
  return { first: select + order, next: `${select} where ${key} > ${after}${order}` };
}

async function copyTable(conn: RawConnection, checkpointId: number, table: CoveredTable, pending: InFlight): Promise<TableStat> {
  const live = await liveColumns(conn, table.name);
  const columns = live.map((c) => c.name);
  const binary = live.filter((c) => c.binary).map((c) => c.name);
  const keyIndexes = table.key.map((k) => columns.indexOf(k));
  const queries = pageQueries(table, columns);
  const stat: TableStat = { table: table.name, rows: 0, chunks: 0, bytes: 0 };
  let after: unknown[] | null = null;
  for (;;) {
    const rows = await conn.rows(after ? queries.next : queries.first, after ?? []);
    if (rows.length === 0) break;
    const lastRow = rows[rows.length - 1];
    after = keyIndexes.map((i) => lastRow[i]);
    const index = stat.chunks++;
    stat.rows += rows.length;
    await pending.add(
      encodeChunk({ columns, binary, rows }).then(async (content) => {
        stat.bytes += content.length;
        await conn.run(INSERT_CHUNK_SQL, [checkpointId, table.name, index, rows.length, content]);
      }),
    );
    if (rows.length < CHUNK_ROWS) break;
  }
  return stat;
}

/**
 * Copies every covered table into a new checkpoint, inside one snapshot transaction: the copy is
 * one consistent state of the database, and a failure leaves no partial checkpoint behind.
 * Answers the new checkpoint's id.
 */
export async function writeCheckpoint(conn: RawConnection, draft: CheckpointDraft): Promise<number> {
  return conn.transaction('snapshot', async () => {
    const [[rawId]] = await conn.rows(
      `insert into checkpoints (description, created_by, kind, table_stats, total_rows, size_bytes, created_at)
       values (?, ?, ?, '[]', 0, 0, ?) returning id`,
      [draft.description, draft.createdBy, draft.kind, draft.createdAt],
    );
    const id = Number(rawId);
    const pending = new InFlight(IN_FLIGHT);
    const stats: TableStat[] = [];
    try {
      for (const table of COVERED_TABLES) stats.push(await copyTable(conn, id, table, pending));
      await pending.drain();
    } catch (err) {
      await pending.settle();
      throw err;
    }
    const totalRows = stats.reduce((n, s) => n + s.rows, 0);
    const sizeBytes = stats.reduce((n, s) => n + s.bytes, 0);
    await conn.run('update checkpoints set table_stats = ?, total_rows = ?, size_bytes = ? where id = ?', [
      JSON.stringify(stats),
      totalRows,
      sizeBytes,
      id,
    ]);
    return id;
  });
}
