import { Migrator, type Kysely } from 'kysely';
import { migrations } from './migrations/index.js';

function migratorFor(db: Kysely<any>): Migrator {
  return new Migrator({ db, provider: { getMigrations: async () => migrations } });
}

/**
 * Brings the schema up to date. Kysely's migrator takes a lock (a row lock on PostgreSQL),
 * so instances starting at the same moment run each migration once.
 */
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = migratorFor(db);
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** The migrations not yet applied to this database (all of them on an empty one), in order. */
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  return (await migratorFor(db).getMigrations()).filter((m) => m.executedAt === undefined).map((m) => m.name);
}
