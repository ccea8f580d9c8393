import { COVERED_TABLES } from './checkpoint-tables.js';
import { quoteIdent, type RawConnection } from './raw-connection.js';
import { RestoreCheckFailed } from './table-restorer.js';

// PostgreSQL: a restore loads the emptied tables without their indexes and builds each index
// once afterwards, one sort instead of an insertion per row (the 1,000,000 risks of the bench:
// 7.0 s loaded with their two indexes in place, 4.5–5.3 s bare plus 0.6–0.7 s to build both).
// Transactional DDL: a rollback brings every index back; the TRUNCATE already holds the tables'
// locks, so no other transaction sees them without their indexes.

export interface DroppedIndex {
  table: string;
  /** The constraint's name (primary key, unique) or the index's. */
  name: string;
  constraint: boolean;
  definition: string;
}

/** Drops every index of the covered tables (after their foreign keys, which need the keys); answers what to build again. */
export async function dropPostgresIndexes(conn: RawConnection): Promise<DroppedIndex[]> {
  const rows = await conn.rows(
    `select i.indrelid::regclass::text, coalesce(con.conname, c.relname), con.oid is not null,
            coalesce(pg_get_constraintdef(con.oid), pg_get_indexdef(i.indexrelid))
     from pg_index i join pg_class c on c.oid = i.indexrelid
     left join pg_constraint con on con.conindid = i.indexrelid and con.contype in ('p', 'u')
     where i.indrelid = any(?::regclass[]) order by 1, 2`,
    [COVERED_TABLES.map((t) => t.name)],
  );
  const dropped = rows.map(([table, name, constraint, definition]) => ({
    table: String(table), name: String(name), constraint: Boolean(constraint), definition: String(definition),
  }));
  for (const ix of dropped) {
    await conn.run(ix.constraint ? `alter table ${ix.table} drop constraint ${quoteIdent(ix.name)}` : `drop index ${quoteIdent(ix.name)}`);
  }
  return dropped;
}

const UNIQUE_VIOLATION = '23505';

/** Builds the indexes again exactly as they were; duplicate keys in the restored rows are reported. */
export async function restorePostgresIndexes(conn: RawConnection, dropped: readonly DroppedIndex[]): Promise<void> {
  for (const ix of dropped) {
    try {
      await conn.run(ix.constraint ? `alter table ${ix.table} add constraint ${quoteIdent(ix.name)} ${ix.definition}` : ix.definition);
    } catch (err) {
      if ((err as { code?: unknown }).code === UNIQUE_VIOLATION) throw new RestoreCheckFailed([`${ix.table}: ${(err as Error).message}`]);
      throw err;
    }
  }
}
