import type { Kysely } from 'kysely';
import { isPostgres } from './schema-kit.js';

/**
 * The layout a checkpoint is stored in, which a restore checks before anything else. Checkpoints
 * already stored get theirs: on SQLite the database image (docs/checkpoints.md says which of them
 * restore); on PostgreSQL the rows cut into chunks with a header each, which is no longer read and
 * is refused.
 */
export async function up(db: Kysely<any>): Promise<void> {
  const existing = isPostgres(db) ? 'pg-row-chunks' : 'sqlite-image';
  await db.schema
    .alterTable('checkpoints')
    .addColumn('format', 'text', (c) => c.notNull().defaultTo(existing))
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.alterTable('checkpoints').dropColumn('format').execute();
}
