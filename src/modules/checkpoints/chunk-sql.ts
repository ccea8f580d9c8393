import type { DialectKind } from '../../db/connect.js';
import type { CoveredTable } from './checkpoint-tables.js';
import type { LiveColumn } from './live-schema.js';
import { quoteIdent as q, SQLITE_BASE64 } from './raw-connection.js';

// The two statements that move a checkpoint's rows, written for each database: the database
// itself turns rows into JSON lines and JSON lines back into rows (chunk-codec.ts for the layout).

/**
 * One page of a table as `[row lines joined by ",\n", row count]`, in key order, starting after
 * the given key (keyset paging: `?` per key column) or at the beginning.
 */
export function pageQuery(kind: DialectKind, table: CoveredTable, columns: readonly LiveColumn[], after: boolean, limit: number): string {
  const order = table.key.map(q).join(', ');
  const key = table.key.length === 1 ? q(table.key[0]) : `(${order})`;
  const params = table.key.length === 1 ? '?' : `(${table.key.map(() => '?').join(', ')})`;
  const page = `select ${columns.map((c) => q(c.name)).join(', ')} from ${q(table.name)}${after ? ` where ${key} > ${params}` : ''}
    order by ${order} limit ${limit}`;
  if (kind === 'sqlite') {
    const values = columns.map((c) => (c.binary ? `${SQLITE_BASE64.encode}(${q(c.name)})` : q(c.name))).join(', ');
    // As a blob: the text reaches JavaScript as bytes, ready for gzip, never decoded into a string.
    return `select cast(group_concat(json_array(${values}), ',' || char(10) order by ${order}) as blob), count(*) from (${page})`;
  }
  const values = columns.map((c) => (c.binary ? `translate(encode(${q(c.name)}, 'base64'), E'\\n', '')` : q(c.name))).join(', ');
  return `select string_agg(json_build_array(${values})::text, E',\\n' order by ${order}), count(*) from (${page}) p`;
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

/** The database's words for "this parameter was not valid JSON". */
export function isMalformedJson(err: unknown): boolean {
  const e = err as { message?: string; code?: string };
  return /malformed JSON|invalid input syntax for type json/i.test(e.message ?? '');
}
