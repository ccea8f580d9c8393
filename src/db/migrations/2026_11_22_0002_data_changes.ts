import type { Kysely } from 'kysely';
import { createTableWithId } from './schema-kit.js';

/** The feed of data changes every instance follows to keep its search index fresh. */
export async function up(db: Kysely<any>): Promise<void> {
  await createTableWithId(db, 'data_changes')
    .addColumn('origin', 'text', (c) => c.notNull())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('permit_ids', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('data_changes_created_idx').on('data_changes').column('created_at').execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('data_changes').ifExists().execute();
}
