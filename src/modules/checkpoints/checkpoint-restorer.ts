import { notFound } from '../../http/errors.js';
import { CorruptChunkError, decodeChunk, type ChunkData } from './chunk-codec.js';
import { COVERED_TABLES, type CoveredTable } from './checkpoint-tables.js';
import type { TableStat } from './checkpoint-writer.js';
import { keepSessions, restoreKeptSessions } from './kept-sessions.js';
import { liveColumns } from './live-schema.js';
import { quoteIdent, type RawConnection } from './raw-connection.js';
import { RowInserter, SelfReferences } from './row-inserter.js';

/** A restore that found the checkpoint's data unusable: answered as a failed restore, after the rollback. */
export class RestoreCheckFailed extends Error {
  override name = 'RestoreCheckFailed';
  constructor(readonly errors: string[]) {
    super(errors.join('; '));
  }
}

export interface RestoredTable {
  table: string;
  rows: number;
}

type Expected = Pick<TableStat, 'rows' | 'chunks'>;

async function expectedStats(conn: RawConnection, checkpointId: number): Promise<Map<string, Expected>> {
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
  return new Map((stats as TableStat[]).map((s) => [s.table, { rows: s.rows, chunks: s.chunks }]));
}

/** The chunk's rows limited to columns the table still has (a checkpoint may predate a schema change). */
function fitToTable(data: ChunkData, live: Set<string>): { columns: string[]; rows: unknown[][] } {
  const keep = data.columns.map((c, i) => (live.has(c) ? i : -1)).filter((i) => i >= 0);
  if (keep.length === data.columns.length) return data;
  return { columns: keep.map((i) => data.columns[i]), rows: data.rows.map((r) => keep.map((i) => r[i])) };
}

async function restoreTable(
  conn: RawConnection,
  checkpointId: number,
  table: CoveredTable,
  expected: Expected,
  batchSize: number,
): Promise<RestoredTable> {
  const fail = (problem: string): never => {
    throw new RestoreCheckFailed([`${table.name}: ${problem}`]);
  };
  const chunks = await conn.rows(
    'select id, row_count from checkpoint_chunks where checkpoint_id = ? and table_name = ? order by chunk_index',
    [checkpointId, table.name],
  );
  if (chunks.length !== expected.chunks) fail(`${chunks.length} chunks stored, ${expected.chunks} expected`);
  const live = new Set((await liveColumns(conn, table.name)).map((c) => c.name));
  const selfRefs = new SelfReferences(table.name, table.key, table.selfRefs ?? []);
  // The next chunk is read and decompressed while the current one is inserted.
  const load = (i: number) => {
    const p = conn.rows('select content from checkpoint_chunks where id = ?', [chunks[i][0]]).then(([[c]]) => decodeChunk(c as Buffer));
    p.catch(() => {});
    return p;
  };
  let inserter: RowInserter | null = null;
  let inserted = 0;
  let next = chunks.length > 0 ? load(0) : null;
  for (let i = 0; i < chunks.length; i++) {
    let data: ChunkData;
    try {
      data = await next!;
    } catch (err) {
      if (err instanceof CorruptChunkError) fail(`chunk ${i} cannot be decoded (${err.message})`);
      throw err;
    }
    next = i + 1 < chunks.length ? load(i + 1) : null;
    if (data.rows.length !== Number(chunks[i][1])) fail(`chunk ${i} holds ${data.rows.length} rows, ${chunks[i][1]} recorded`);
    const fitted = fitToTable(data, live);
    selfRefs.holdBack(fitted.columns, fitted.rows);
    inserter ??= new RowInserter(conn, table.name, fitted.columns, batchSize);
    await inserter.insert(fitted.rows);
    inserted += fitted.rows.length;
  }
  await selfRefs.apply(conn);
  const [[count]] = await conn.rows(`select count(*) from ${quoteIdent(table.name)}`);
  if (inserted !== expected.rows || Number(count) !== expected.rows) {
    fail(`${Number(count)} rows restored, ${expected.rows} expected`);
  }
  return { table: table.name, rows: inserted };
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
 * Replaces every covered table's rows by the checkpoint's, in one transaction: all or nothing.
 * Throws RestoreCheckFailed when the stored data does not check out; anything else is an exception.
 */
export async function restoreCheckpointData(
  conn: RawConnection,
  checkpointId: number,
  batchSize: number,
): Promise<RestoredTable[]> {
  return conn.transaction('write', async () => {
    const stats = await expectedStats(conn, checkpointId);
    if (conn.kind === 'postgres') {
      // Writers wait until the restore is done instead of interleaving with it; readers carry on.
      await conn.run(`lock table ${COVERED_TABLES.map((t) => quoteIdent(t.name)).join(', ')} in exclusive mode`);
    }
    const sessions = await keepSessions(conn);
    for (const table of [...COVERED_TABLES].reverse()) await conn.run(`delete from ${quoteIdent(table.name)}`);
    const restored: RestoredTable[] = [];
    for (const table of COVERED_TABLES) {
      const expected = stats.get(table.name) ?? { rows: 0, chunks: 0 };
      restored.push(await restoreTable(conn, checkpointId, table, expected, batchSize));
    }
    await restoreKeptSessions(conn, sessions);
    if (conn.kind === 'postgres') await advanceSequences(conn);
    return restored;
  });
}
