import { createHash } from 'node:crypto';
import { sql, type Kysely } from 'kysely';
import type { DatabaseHandle } from '../../src/db/connect.js';
import type { Database, Executor } from '../../src/db/database.js';

/** A table's rows as sorted JSON lines; binary columns as their length and SHA-1, so a dump stays small. */
export type DataDump = Record<string, string[]>;

function rowText(row: Record<string, unknown>): string {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(row)) {
    out[k] = Buffer.isBuffer(v) ? `bytes:${v.length}:${createHash('sha1').update(v).digest('hex')}` : v;
  }
  return JSON.stringify(out);
}

/** The rows of the given tables. */
export async function dumpTables(db: Executor, tables: readonly string[]): Promise<DataDump> {
  const out: DataDump = {};
  for (const t of tables) {
    const rows = await db
      .selectFrom(t as 'regions')
      .selectAll()
      .execute();
    out[t] = rows.map((r) => rowText(r as Record<string, unknown>)).sort();
  }
  return out;
}

/** Every table of the live schema (Kysely's migration bookkeeping aside) except the ones named. */
export async function liveTableNames(db: Kysely<Database>, except: readonly string[] = []): Promise<string[]> {
  const tables = await db.introspection.getTables();
  return tables
    .map((t) => t.name)
    .filter((name) => !except.includes(name))
    .sort();
}

/** The tables whose contents differ between two dumps, with the rows only one side has (for a failure message). */
export function dumpDifference(before: DataDump, after: DataDump): Record<string, { removed: string[]; added: string[] }> {
  const diff: Record<string, { removed: string[]; added: string[] }> = {};
  for (const t of new Set([...Object.keys(before), ...Object.keys(after)])) {
    const a = new Set(before[t] ?? []);
    const b = new Set(after[t] ?? []);
    const removed = [...a].filter((r) => !b.has(r));
    const added = [...b].filter((r) => !a.has(r));
    if (removed.length > 0 || added.length > 0) diff[t] = { removed, added };
  }
  return diff;
}

/**
 * A cheap "did anything change?" over the given tables: triggers count every inserted, updated or
 * deleted row, so a caller dumps the tables only when the count moved. SQLite: temporary triggers
 * on the test's own connection (the schema is untouched). PostgreSQL: a counter table and triggers
 * in the test database.
 */
export async function watchDataChanges(dbh: DatabaseHandle, tables: readonly string[]): Promise<() => Promise<number>> {
  if (dbh.kind === 'sqlite') {
    const sqlite = dbh.sqlite!;
    sqlite.exec(
      'create temp table if not exists test_change_counter (n integer not null); delete from temp.test_change_counter; insert into temp.test_change_counter values (0);',
    );
    for (const t of tables) {
      for (const event of ['insert', 'update', 'delete']) {
        sqlite.exec(
          `create temp trigger if not exists "test_count_${t}_${event}" after ${event} on main."${t}" ` +
            'begin update test_change_counter set n = n + 1; end;',
        );
      }
    }
    const read = sqlite.prepare('select n from temp.test_change_counter');
    return async () => (read.get() as { n: number }).n;
  }
  await sql`create table if not exists test_change_counter (n bigint not null)`.execute(dbh.db);
  await sql`delete from test_change_counter`.execute(dbh.db);
  await sql`insert into test_change_counter values (0)`.execute(dbh.db);
  await sql`create or replace function test_count_change() returns trigger language plpgsql as
    $$ begin update test_change_counter set n = n + 1; return null; end $$`.execute(dbh.db);
  for (const t of tables) {
    await sql`create or replace trigger ${sql.id(`test_count_${t}`)} after insert or update or delete on ${sql.table(t)}
      for each row execute function test_count_change()`.execute(dbh.db);
    await sql`create or replace trigger ${sql.id(`test_count_${t}_truncate`)} after truncate on ${sql.table(t)}
      for each statement execute function test_count_change()`.execute(dbh.db);
  }
  return async () => Number((await sql<{ n: number }>`select n from test_change_counter`.execute(dbh.db)).rows[0].n);
}
