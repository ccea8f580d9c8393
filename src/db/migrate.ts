import { inspect } from 'node:util';
import type SqliteDatabase from 'better-sqlite3';
import { Kysely, Migrator } from 'kysely';
import type { DatabaseHandle } from './connect.js';
import { migrations } from './migrations/index.js';

/** How long a process starting on a SQLite file waits for another one that is migrating it. */
const SQLITE_MIGRATION_WAIT_MS = 60_000;

function migratorFor(db: Kysely<any>): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

async function runMigrator(db: Kysely<any>): Promise<string[]> {
  const migrator = migratorFor(db);
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(inspect(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The migrations not yet applied to this database (all of them on an empty one), in order. */
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  return (await migratorFor(db).getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name);
}

/**
 * Kysely's migration lock assumes SQLite has one connection; several processes on one file
 * (two servers, the command line next to a server) would all see the migrations pending and run
 * them twice. The whole run is one IMMEDIATE transaction instead: the first process takes the
 * write lock, the others wait for it and then find nothing left to do. SQLite's DDL is
 * transactional, so a failed migration also leaves the file as it was.
 */
async function migrateSqlite(db: Kysely<any>, sqlite: SqliteDatabase.Database): Promise<string[]> {
  const busyTimeout = sqlite.pragma('busy_timeout', { simple: true }) as number;
  sqlite.pragma(`busy_timeout = ${SQLITE_MIGRATION_WAIT_MS}`);
  try {
    sqlite.exec('BEGIN IMMEDIATE');
  } finally {
    sqlite.pragma(`busy_timeout = ${busyTimeout}`);
  }
  try {
    const done = await runMigrator(db);
    sqlite.exec('COMMIT');
    return done;
  } catch (err) {
    if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
    throw err;
  }
}

/**
 * Brings the schema up to date and answers the migrations it ran. Instances starting at the same
 * moment run each migration once: on PostgreSQL Kysely's migrator holds an advisory lock; on
 * SQLite the run is one IMMEDIATE transaction (give the handle, so its raw connection is known).
 */
export async function migrateToLatest(target: Kysely<any> | DatabaseHandle): Promise<string[]> {
  if (target instanceof Kysely) return runMigrator(target);
  return target.sqlite ? migrateSqlite(target.db, target.sqlite) : runMigrator(target.db);
}
