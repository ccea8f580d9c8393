import { PostgresAdapter, type Kysely } from 'kysely';

// What the migrations share. A migration runs once per database, so nothing here may change in a
// way that would change what an applied migration creates.

export const isPostgres = (db: Kysely<any>): boolean => db.getExecutor().adapter instanceof PostgresAdapter;

/** A new table whose first column is an auto-increment integer primary key `id`, as each database writes one. */
export function createTableWithId(db: Kysely<any>, name: string) {
  const table = db.schema.createTable(name);
  return isPostgres(db) ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement());
}
