import { PostgresAdapter, sql, type Kysely } from 'kysely';

/**
 * PostgreSQL: checkpoint chunks are gzip already, so the server is told not to try compressing
 * them again (STORAGE EXTERNAL: kept out of line, uncompressed). Its own attempt fails on every
 * chunk and tripled the cost of storing one (the bench's 200 chunks of 255 KB: 1.1 s of server
 * time against 0.35 s). SQLite has no such setting.
 */
export async function up(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table checkpoint_chunks alter column content set storage external`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  if (!(db.getExecutor().adapter instanceof PostgresAdapter)) return;
  await sql`alter table checkpoint_chunks alter column content set storage extended`.execute(db);
}
