import { PostgresAdapter, type Kysely } from 'kysely';

/** The administrators' synonyms, expansions, aliases and curation of search (docs/search-lexicon.md). */
export async function up(db: Kysely<any>): Promise<void> {
  const pg = db.getExecutor().adapter instanceof PostgresAdapter;
  const table = db.schema.createTable('search_lexicon');
  await (pg ? table.addColumn('id', 'serial', (c) => c.primaryKey()) : table.addColumn('id', 'integer', (c) => c.primaryKey().autoIncrement()))
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
