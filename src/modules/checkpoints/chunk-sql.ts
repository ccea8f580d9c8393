import type { DialectKind } from '../../db/connect.js';
import type { CoveredTable } from './checkpoint-tables.js';
import type { LiveColumn } from './live-schema.js';
import { quoteIdent as q, SQLITE_BASE64 } from './raw-connection.js';

// The two statements that move a checkpoint's rows, written for each database: the database
// itself turns rows into JSON lines and JSON lines back into rows (chunk-codec.ts for the layout).

/**
 * One page of a table as `[row lines joined by ",\n", row count, last key]`, starting after the
 * given key (keyset paging: `?` per key column) or at the beginning. With a one-column key the
 * database returns the page's highest key and the lines come in scan order (ordering them inside
 * the aggregate would sort every page again, for nothing: a restore does not care about the order
 * of rows). With a composite key the lines are ordered and the last key is `null`: the caller
 * reads it from the last line.
 */
export function pageQuery(kind: DialectKind, table: CoveredTable, columns: readonly LiveColumn[], after: boolean, limit: number): string {
  const order = table.key.map(q).join(', ');
  const single = table.key.length === 1;
  const key = single ? q(table.key[0]) : `(${order})`;
  const params = single ? '?' : `(${table.key.map(() => '?').join(', ')})`;
  const page = `select ${columns.map((c) => q(c.name)).join(', ')} from ${q(table.name)}${after ? ` where ${key} > ${params}` : ''}
    order by ${order} limit ${limit}`;
  const ordered = single ? '' : ` order by ${order}`;
  const last = single ? `max(${key})` : 'null';
  if (kind === 'sqlite') {
    const values = columns.map((c) => (c.binary ? `${SQLITE_BASE64.encode}(${q(c.name)})` : q(c.name))).join(', ');
    // As a blob: the text reaches JavaScript as bytes, ready for gzip, never decoded into a string.
    return `select cast(group_concat(json_array(${values}), ',' || char(10)${ordered}) as blob), count(*), ${last} from (${page})`;
  }
  const values = columns.map((c) => (c.binary ? `translate(encode(${q(c.name)}, 'base64'), E'\\n', '')` : q(c.name))).join(', ');
  return `select string_agg(json_build_array(${values})::text, E',\\n'${ordered}), count(*), ${last} from (${page}) p`;
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
  return /malformed JSON|invalid input syntax for type json/i.test(String((err as { message?: unknown }).message ?? ''));
}

/** A stored row pointing at a row the checkpoint does not hold. */
export function isForeignKeyViolation(err: unknown): boolean {
  const code = String((err as { code?: unknown }).code ?? '');
  return code === '23503' || code === 'SQLITE_CONSTRAINT_FOREIGNKEY';
}
