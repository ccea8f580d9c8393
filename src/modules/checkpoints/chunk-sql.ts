import type { DialectKind } from '../../db/connect.js';
import type { CoveredTable } from './checkpoint-tables.js';
import { CorruptChunkError } from './chunk-codec.js';
import type { CopiedPage, PageLimits } from './copy-out.js';
import type { LiveColumn } from './live-schema.js';
import { quoteIdent as q, SQLITE_UNBASE64, type RawConnection } from '../../db/raw-connection.js';

// The statements that move a checkpoint's rows (chunk-codec.ts has the layouts): PostgreSQL's
// pages of binary COPY, and the INSERT that restores the older `json` layout on either database.

/** Stores one chunk of a checkpoint. */
export const INSERT_CHUNK_SQL =
  'insert into checkpoint_chunks (checkpoint_id, table_name, chunk_index, row_count, content) values (?, ?, ?, ?, ?)';

/**
 * One stored chunk's content; a chunk that is gone cannot be read (CorruptChunkError), which a
 * restore reports against the chunk. PostgreSQL sends it through a binary COPY:
 * a bytea result would come as hex text, twice the bytes, encoded by the server and decoded here
 * into a string the size of the chunk (the bench's 200 chunks of risks: about 100 MB of strings).
 */
export async function readChunkContent(conn: RawConnection, chunkId: number): Promise<Buffer> {
  if (!conn.copy) {
    const found = await conn.rows('select content from checkpoint_chunks where id = ?', [chunkId]);
    if (found.length === 0) throw new CorruptChunkError('the chunk is gone');
    return found[0][0] as Buffer;
  }
  const id = Number(chunkId);
  if (!Number.isSafeInteger(id)) throw new Error('unexpected chunk id');
  const statement = `copy (select content from checkpoint_chunks where id = ${id}) to stdout (format binary)`;
  let content: Buffer | null = null;
  // One tuple of one field: field count, length, bytes.
  const take = async ({ tuples }: CopiedPage) => void (content = tuples.subarray(6, 6 + tuples.readInt32BE(2)));
  await conn.copy.out(statement, { rows: 1, bytes: Infinity }, take);
  if (!content) throw new CorruptChunkError('the chunk is gone');
  return content;
}

/**
 * PostgreSQL (the only database that copies rows; SQLite stores an image, sqlite-image.ts) writes
 * a table's rows itself in its binary COPY format (`COPY … TO STDOUT`), by far its fastest way
 * out, all in one statement: `onPage` gets them in pages of `limits`, in the order the server
 * reads them. No order is asked for: a restore loads a table's chunks with its keys dropped.
 */
export function readTablePages(
  conn: RawConnection,
  table: CoveredTable,
  columns: readonly LiveColumn[],
  limits: PageLimits,
  onPage: (page: CopiedPage) => Promise<void>,
): Promise<number> {
  const names = columns.map((c) => q(c.name)).join(', ');
  return conn.copy!.out(`copy ${q(table.name)} (${names}) to stdout (format binary)`, limits, onPage);
}

/** A target column and where its value comes from: an index into the stored row, or null (inserted as null). */
export interface ColumnSource {
  column: LiveColumn;
  from: number | null;
}

/**
 * Inserts the rows of one JSON array parameter (`[[…],[…]]`). Rows with the wrong number of
 * values are skipped by the WHERE clause, so the caller sees them as a short count.
 */
export function insertFromJsonQuery(kind: DialectKind, table: string, sources: readonly ColumnSource[], width: number): string {
  const target = `insert into ${q(table)} (${sources.map((s) => q(s.column.name)).join(', ')})`;
  if (kind === 'sqlite') {
    const values = sources.map(({ column, from }) =>
      from === null ? 'null' : column.binary ? `${SQLITE_UNBASE64}(value ->> ${from})` : `value ->> ${from}`,
    );
    return `${target} select ${values.join(', ')} from jsonb_each(cast(? as text)) where json_array_length(value) = ${width}`;
  }
  const values = sources.map(({ column, from }) =>
    from === null ? 'null' : column.binary ? `decode(r ->> ${from}, 'base64')` : `(r ->> ${from})::${q(column.type)}`,
  );
  return `${target} select ${values.join(', ')} from jsonb_array_elements(?::jsonb) r where jsonb_array_length(r) = ${width}`;
}

/**
 * The database refused stored row text as malformed (SQLite: "malformed JSON"; PostgreSQL: any
 * data exception, SQLSTATE class 22 — bad JSON, bad COPY text, a value of the wrong type): the
 * chunk cannot be read, which is reported, not thrown as an exception.
 */
export function isMalformedData(err: unknown): boolean {
  const { code, message } = err as { code?: unknown; message?: unknown };
  return /malformed JSON/i.test(String(message ?? '')) || (typeof code === 'string' && code.startsWith('22'));
}
