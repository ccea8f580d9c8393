import type { Kysely } from 'kysely';
import { createTableWithId } from './schema-kit.js';

/** The administrators' synonyms, expansions, aliases and curation of search (docs/search-lexicon.md). */
export async function up(db: Kysely<any>): Promise<void> {
  await createTableWithId(db, 'search_lexicon')
    .addColumn('kind', 'text', (c) => c.notNull())
    // No foreign key: an entry of a region that is gone applies to nothing and stays listed.
    .addColumn('region_id', 'integer')
    .addColumn('body', 'text', (c) => c.notNull())
    .addColumn('note', 'text')
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_by', 'text')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('search_lexicon').ifExists().execute();
}
