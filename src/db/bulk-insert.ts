import type { Insertable, Kysely } from 'kysely';
import type { DatabaseHandle } from './connect.js';
import type { Database, Executor } from './database.js';
import { chunked, INSERT_CHUNK } from './batch.js';

type TableWithId = { [T in keyof Database]: Database[T] extends { id: unknown } ? T : never }[keyof Database];

/** Inserts rows (all of one shape) into one table inside the caller's transaction; answers their new ids, in row order. */
export type BulkInsert = <T extends TableWithId>(table: T, rows: Array<Insertable<Database[T]>>) => Promise<number[]>;

/**
 * The fastest way each database takes many rows of an import, on the transaction `trx`.
 *
 * SQLite: one prepared single-row statement run for each row, on the raw connection. SQLite has
 * one connection, so this is the transaction's own connection, and the loop is synchronous, so
 * nothing else runs on it meanwhile. It takes about half the time of Kysely's multi-row
 * statements, which are built, compiled and bound anew for every chunk; each row's id is its
 * statement's last insert rowid.
 *
 * PostgreSQL: multi-row INSERT … RETURNING id in chunks; PostgreSQL returns the ids of a VALUES
 * list in its order (as ORMs that fill in bulk-created keys rely on).
 */
export function bulkInserter(dbh: DatabaseHandle, trx: Executor): BulkInsert {
  const sqlite = dbh.sqlite;
  if (sqlite) {
    return async (table, rows) => {
      if (rows.length === 0) return [];
      if (!sqlite.inTransaction) throw new Error('bulk insert outside a transaction');
      const columns = Object.keys(rows[0]);
      const stmt = sqlite.prepare(insertSql(table, columns, 1));
      const values = new Array<unknown>(columns.length);
      return rows.map((row) => {
        const r = row as Record<string, unknown>;
        // better-sqlite3 refuses undefined; an absent value is stored as NULL.
        for (let i = 0; i < columns.length; i++) values[i] = r[columns[i]] ?? null;
        return Number(stmt.run(values).lastInsertRowid);
      });
    };
  }
  // The rows were checked against their table by BulkInsert's signature; the generic table
  // type is more than Kysely's builder can narrow.
  const db = trx as unknown as Kysely<Record<string, Record<string, unknown> & { id: number }>>;
  return async (table, rows) => {
    const ids: number[] = [];
    for (const part of chunked(rows, INSERT_CHUNK)) {
      for (const r of await db
        .insertInto(table)
        .values(part as Array<Record<string, unknown>>)
        .returning('id')
        .execute())
        ids.push(r.id);
    }
    return ids;
  };
}

/** `insert into "table" ("a", "b") values (?, ?), …` for `rows` rows. */
function insertSql(table: string, columns: string[], rows: number): string {
  const tuple = `(${columns.map(() => '?').join(', ')})`;
  return `insert into "${table}" (${columns.map((c) => `"${c}"`).join(', ')}) values ${Array(rows).fill(tuple).join(', ')}`;
}

/** Rows per statement when appending on SQLite: about half the time per row of one-row statements. */
const APPEND_ROWS = 50;

/**
 * Appends rows (all of one shape) whose ids nobody needs, inside the caller's transaction `trx`:
 * on SQLite, prepared statements of APPEND_ROWS rows each on the raw connection (the
 * transaction's own, see bulkInserter); on PostgreSQL, multi-row statements in chunks.
 */
export async function bulkAppend<T extends keyof Database>(dbh: DatabaseHandle, trx: Executor, table: T, rows: Array<Insertable<Database[T]>>): Promise<void> {
  if (rows.length === 0) return;
  const sqlite = dbh.sqlite;
  if (!sqlite) {
    for (const part of chunked(rows, INSERT_CHUNK)) await trx.insertInto(table).values(part).execute();
    return;
  }
  if (!sqlite.inTransaction) throw new Error('bulk append outside a transaction');
  const columns = Object.keys(rows[0]);
  const insert = (n: number) => sqlite.prepare(insertSql(table, columns, n));
  const full = rows.length >= APPEND_ROWS ? insert(APPEND_ROWS) : null;
  const values: unknown[] = [];
  for (let i = 0; i < rows.length; i++) {
    const r = rows[i] as Record<string, unknown>;
    for (const c of columns) values.push(r[c] ?? null);
    if (full && values.length === APPEND_ROWS * columns.length) {
      full.run(values);
      values.length = 0;
    }
  }
  if (values.length > 0) insert(values.length / columns.length).run(values);
}
