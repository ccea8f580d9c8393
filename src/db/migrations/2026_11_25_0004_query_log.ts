import type { Kysely } from 'kysely';
import { createTableWithId } from './schema-kit.js';

/** The query log and the salts of its askers' hashes (docs/query-log.md). */
export async function up(db: Kysely<any>): Promise<void> {
  await createTableWithId(db, 'query_log')
    .addColumn('asked_at', 'text', (c) => c.notNull())
    .addColumn('query', 'text', (c) => c.notNull())
    .addColumn('region_ids', 'text')
    .addColumn('result_count', 'integer', (c) => c.notNull())
    .addColumn('top_permit_ids', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('latency_us', 'integer', (c) => c.notNull())
    .addColumn('channel', 'text', (c) => c.notNull())
    .addColumn('asker', 'text')
    .execute();
  // The one index: every answered question writes to this table, and each index is paid for on
  // that path; the analytics (an administrator now and then) scan the time range instead.
  await db.schema.createIndex('query_log_asked_idx').on('query_log').column('asked_at').execute();
  await db.schema
    .createTable('query_log_salts')
    .addColumn('day', 'text', (c) => c.primaryKey())
    .addColumn('salt', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('query_log_salts').ifExists().execute();
  await db.schema.dropTable('query_log').ifExists().execute();
}
