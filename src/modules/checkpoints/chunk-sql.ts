import type { DialectKind } from '../../db/connect.js';
import type { CoveredTable } from './checkpoint-tables.js';
import { decodeTuple } from './copy-binary.js';
import type { LiveColumn } from './live-schema.js';
import { quoteIdent as q, SQLITE_UNBASE64, type RawConnection } from './raw-connection.js';

// The statements that move a checkpoint's rows (chunk-codec.ts has the layouts): PostgreSQL's
// pages of binary COPY, and the INSERT that restores the older `json` layout on either database.

/** Stores one chunk of a checkpoint. */
export const INSERT_CHUNK_SQL =
  'insert into checkpoint_chunks (checkpoint_id, table_name, chunk_index, row_count, content) values (?, ?, ?, ?, ?)';

/**
 * One stored chunk's content, or null when it is gone. PostgreSQL sends it through a binary COPY:
 * a bytea result would come as hex text, twice the bytes, encoded by the server and decoded here
 * into a string the size of the chunk (the bench's 200 chunks of risks: about 100 MB of strings).
 */
export async function readChunkContent(conn: RawConnection, chunkId: number): Promise<Buffer | null> {
  if (!conn.copy) {
    const found = await conn.rows('select content from checkpoint_chunks where id = ?', [chunkId]);
    return found.length === 0 ? null : (found[0][0] as Buffer);
  }
  const id = Number(chunkId);
  if (!Number.isSafeInteger(id)) throw new Error('unexpected chunk id');
  const statement = `copy (select content from checkpoint_chunks where id = ${id}) to stdout (format binary)`;
  const { data, rows } = await conn.copy.out(statement, true);
  if (rows === 0) return null;
  // One tuple of one field: field count, length, bytes.
  return data.subarray(6, 6 + data.readInt32BE(2));
}

/** One page of a table: its rows as binary COPY tuples, how many, and the key to continue after. */
export interface Page {
  tuples: Buffer;
  count: number;
  lastKey: unknown[];
  /** Done with `tuples`: its buffer may collect a later page. */
  release(): void;
}

/** Reads a table page by page in key order (keyset paging): `read(null)` first, then `read(page.lastKey)`. */
export interface PageReader {
  read(after: unknown[] | null): Promise<Page | null>;
}

/** A key value as an SQL literal (COPY takes no parameters): integers as numbers, the rest quoted. */
function literal(value: unknown, column: LiveColumn): string {
  const text = String(value);
  if (/^int[248]$/.test(column.type)) {
    if (!/^-?\d+$/.test(text)) throw new Error(`unexpected ${column.name} key value`);
    return text;
  }
  return `E'${text.replace(/\\/g, '\\\\').replace(/'/g, "''")}'`;
}

/** Page buffers kept for reuse: as many as pages can be in flight at once, and then some. */
const MAX_SPARE_PAGES = 8;

/**
 * PostgreSQL (the only database that copies rows; SQLite stores an image, sqlite-image.ts) writes
 * the rows itself in its binary COPY format (`COPY (select …) TO STDOUT`), by far its fastest way
 * out: a page is one COPY of the next rows in key order. COPY takes no parameters, so the key to
 * continue after goes in as a literal, read back from the page's last tuple.
 */
export function pageReader(conn: RawConnection, table: CoveredTable, columns: readonly LiveColumn[], limit: number): PageReader {
  const copy = conn.copy!;
  const names = columns.map((c) => q(c.name)).join(', ');
  const keyColumns = table.key.map((k) => columns.find((c) => c.name === k)!);
  const keyAt = table.key.map((k) => columns.findIndex((c) => c.name === k));
  // The last tuple is read for its key fields only.
  const keyTypes = columns.map((c, i) => (keyAt.includes(i) ? c.type : null));
  const order = table.key.map(q).join(', ');
  const statement = (after: unknown[] | null) => {
    let where = '';
    if (after) {
      const values = after.map((v, i) => literal(v, keyColumns[i]));
      where = after.length === 1 ? ` where ${order} > ${values[0]}` : ` where (${order}) > (${values.join(', ')})`;
    }
    return `copy (select ${names} from ${q(table.name)}${where} order by ${order} limit ${limit}) to stdout (format binary)`;
  };
  // Page buffers are used again once released: a table's hundreds of megabytes are not allocated
  // anew, page after page, each allocation pressing the garbage collector to run. A new one is
  // allocated at about the size of the last page.
  const spare: Buffer[] = [];
  let sizeHint = 0;
  return {
    async read(after) {
      const into = { storage: spare.pop(), sizeHint: sizeHint + (sizeHint >> 4) };
      const { data, storage, rows, lastRowAt } = await copy.out(statement(after), true, into);
      sizeHint = data.length;
      if (rows === 0) return null;
      const last = decodeTuple(data, lastRowAt, keyTypes);
      const release = () => void (spare.length < MAX_SPARE_PAGES && spare.push(storage));
      return { tuples: data, count: rows, lastKey: keyAt.map((i) => last[i]), release };
    },
  };
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
