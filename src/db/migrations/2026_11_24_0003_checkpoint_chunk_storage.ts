import { sql, type Kysely } from 'kysely';
import { isPostgres } from './schema-kit.js';

/**
 * PostgreSQL: checkpoint chunks are compressed already, so the server is told not to try
 * compressing them again (STORAGE EXTERNAL: kept out of line, uncompressed). Its own attempt gains
 * nothing and makes storing them several times slower (bench/checkpoint.ts). SQLite has no such
 * setting.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter table checkpoint_chunks alter column content set storage external`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!isPostgres(db)) return;
  await sql`alter table checkpoint_chunks alter column content set storage extended`.execute(db);
}
