import type { DialectKind } from '../../db/connect.js';
import { copyValue, type ChunkFormat } from './chunk-codec.js';
import type { CoveredTable } from './checkpoint-tables.js';
import type { LiveColumn } from './live-schema.js';
import { quoteIdent as q, SQLITE_BASE64, type RawConnection } from './raw-connection.js';

// The statements that move a checkpoint's rows, for each database (chunk-codec.ts has the layout).

/** One page of a table: its rows in the chunk format's text, how many, and the key to continue after. */
export interface Page {
  lines: Buffer | string;
  count: number;
  lastKey: unknown[];
}

/** Reads a table page by page in key order (keyset paging): `read(null)` first, then `read(page.lastKey)`. */
export interface PageReader {
  read(after: unknown[] | null): Promise<Page | null>;
}

function pageSelect(table: CoveredTable, select: string, after: boolean, limit: number): string {
  const order = table.key.map(q).join(', ');
  const single = table.key.length === 1;
  const key = single ? order : `(${order})`;
  const params = single ? '?' : `(${table.key.map(() => '?').join(', ')})`;
  return `select ${select} from ${q(table.name)}${after ? ` where ${key} > ${params}` : ''} order by ${order} limit ${limit}`;
}

/**
 * SQLite writes the JSON lines itself (its JSON functions are C and fast) and hands them over as
 * one blob per page: no row ever becomes a JavaScript value. With a one-column key it also
 * returns the page's highest key, and the lines stay in scan order (ordering them inside the
 * aggregate would sort every page again, for nothing: a restore does not care about row order);
 * with a composite key the lines are ordered and the key is read from the last one.
 */
function sqlitePages(conn: RawConnection, table: CoveredTable, columns: readonly LiveColumn[], limit: number): PageReader {
  const single = table.key.length === 1;
  const values = columns.map((c) => (c.binary ? `${SQLITE_BASE64.encode}(${q(c.name)})` : q(c.name))).join(', ');
  const ordered = single ? '' : ` order by ${table.key.map(q).join(', ')}`;
  const query = (after: boolean) =>
    `select cast(group_concat(json_array(${values}), ',' || char(10)${ordered}) as blob), count(*), ${single ? `max(${q(table.key[0])})` : 'null'}
     from (${pageSelect(table, columns.map((c) => q(c.name)).join(', '), after, limit)})`;
  const [first, next] = [query(false), query(true)];
  const keyAt = table.key.map((k) => columns.findIndex((c) => c.name === k));
  return {
    async read(after) {
      const [[lines, count, max]] = await conn.rows(after ? next : first, after ?? []);
      if (Number(count) === 0) return null;
      const text = lines as Buffer;
      const last = single ? [max] : (JSON.parse(text.toString('utf8', text.lastIndexOf('\n') + 1)) as unknown[]);
      return { lines: text, count: Number(count), lastKey: single ? last : keyAt.map((i) => last[i]) };
    },
  };
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

const NL = 0x0a;

/**
 * PostgreSQL writes the rows itself in its COPY text format (`COPY (select …) TO STDOUT`), by
 * far its fastest way out: a page is one COPY of the next rows in key order. COPY takes no
 * parameters, so the key to continue after goes in as a literal, read back from the page's last
 * line.
 */
function postgresPages(conn: RawConnection, table: CoveredTable, columns: readonly LiveColumn[], limit: number): PageReader {
  const copy = conn.copy!;
  const names = columns.map((c) => q(c.name)).join(', ');
  const keyColumns = table.key.map((k) => columns.find((c) => c.name === k)!);
  const keyAt = table.key.map((k) => columns.findIndex((c) => c.name === k));
  const order = table.key.map(q).join(', ');
  const statement = (after: unknown[] | null) => {
    let where = '';
    if (after) {
      const values = after.map((v, i) => literal(v, keyColumns[i]));
      where = after.length === 1 ? ` where ${order} > ${values[0]}` : ` where (${order}) > (${values.join(', ')})`;
    }
    return `copy (select ${names} from ${q(table.name)}${where} order by ${order} limit ${limit}) to stdout`;
  };
  return {
    async read(after) {
      const lines = await copy.out(statement(after));
      if (lines.length === 0) return null;
      let count = 0;
      for (let at = lines.indexOf(NL); at >= 0; at = lines.indexOf(NL, at + 1)) count++;
      const lastStart = lines.lastIndexOf(NL, lines.length - 2) + 1;
      const last = lines.toString('utf8', lastStart, lines.length - 1).split('\t');
      return { lines, count, lastKey: keyAt.map((i) => copyValue(last[i])) };
    },
  };
}

/** The layout each database writes its chunks in (chunk-codec.ts). */
export const chunkFormatOf = (kind: DialectKind): ChunkFormat => (kind === 'sqlite' ? 'json' : 'copy');

export function pageReader(conn: RawConnection, table: CoveredTable, columns: readonly LiveColumn[], limit: number): PageReader {
  return conn.kind === 'sqlite' ? sqlitePages(conn, table, columns, limit) : postgresPages(conn, table, columns, limit);
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
      from === null ? 'null' : column.binary ? `${SQLITE_BASE64.decode}(value ->> ${from})` : `value ->> ${from}`,
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
