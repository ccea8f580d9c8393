import { COVERED_TABLES } from './checkpoint-tables.js';
import { liveForeignKeys } from './live-schema.js';
import { quoteIdent, type RawConnection } from '../../db/raw-connection.js';
import { RestoreCheckFailed } from './table-restorer.js';

// A restore checks foreign keys once for the whole database after loading, instead of row by row:
// on both databases the per-row check costs more than the load itself. Only keys that touch a
// covered table are concerned; nothing else changes during a restore.

const covered = new Set(COVERED_TABLES.map((t) => t.name));

/**
 * SQLite: foreign keys are off for the whole restore transaction (restoreCheckpointData), so this
 * finds rows pointing at missing rows with one anti-join per key before the commit.
 */
export async function checkSqliteForeignKeys(conn: RawConnection): Promise<void> {
  const errors: string[] = [];
  for (const fk of await liveForeignKeys(conn)) {
    if (!covered.has(fk.table) && !covered.has(fk.references)) continue;
    const [child, column, parent, key] = [fk.table, fk.column, fk.references, fk.referencedColumn].map(quoteIdent);
    const [[n]] = await conn.rows(
      `select count(*) from ${child} c left join ${parent} p on p.${key} = c.${column} where c.${column} is not null and p.${key} is null`,
    );
    if (Number(n) > 0) errors.push(`${fk.table}.${fk.column}: ${Number(n)} rows reference missing ${fk.references} rows`);
  }
  if (errors.length > 0) throw new RestoreCheckFailed(errors);
}

/** A foreign key, key constraint or index dropped for the load, with what builds it again. */
export interface Dropped {
  table: string;
  /** The constraint's name, or the index's. */
  name: string;
  constraint: boolean;
  definition: string;
}

/**
 * PostgreSQL: drops, inside the restore transaction, the foreign keys touching covered tables and
 * then every index of the covered tables (primary keys and unique constraints included), and
 * answers what to build again, in the order to build it. The load then goes into bare tables and
 * each index is built once afterwards, one sort instead of an insertion per row (the bench's
 * 1,000,000 risks: 7.0 s loaded with their two indexes in place, 4.5–5.3 s bare plus 0.6–0.7 s to
 * build both). Transactional DDL: a rollback brings everything back; the TRUNCATE already holds
 * the tables' locks, so no other transaction sees them without their keys.
 */
export async function dropPostgresConstraints(conn: RawConnection): Promise<Dropped[]> {
  const names = [...covered];
  const keys = await conn.rows(
    `select conrelid::regclass::text, conname, true, pg_get_constraintdef(oid) from pg_constraint
     where contype = 'f' and (conrelid = any(?::regclass[]) or confrelid = any(?::regclass[])) order by 1, 2`,
    [names, names],
  );
  // After the foreign keys, which need the keys they reference.
  const indexes = await conn.rows(
    `select i.indrelid::regclass::text, coalesce(con.conname, c.relname), con.oid is not null,
            coalesce(pg_get_constraintdef(con.oid), pg_get_indexdef(i.indexrelid))
     from pg_index i join pg_class c on c.oid = i.indexrelid
     left join pg_constraint con on con.conindid = i.indexrelid and con.contype in ('p', 'u')
     where i.indrelid = any(?::regclass[]) order by 1, 2`,
    [names],
  );
  const read = (rows: unknown[][]) =>
    rows.map(([table, name, constraint, definition]) => ({
      table: String(table), name: String(name), constraint: Boolean(constraint), definition: String(definition),
    }));
  const [droppedKeys, droppedIndexes] = [read(keys), read(indexes)];
  for (const d of [...droppedKeys, ...droppedIndexes]) {
    await conn.run(d.constraint ? `alter table ${d.table} drop constraint ${quoteIdent(d.name)}` : `drop index ${quoteIdent(d.name)}`);
  }
  return [...droppedIndexes, ...droppedKeys];
}

/** Rows the load brought that a rebuilt index or key refuses: duplicate keys, references to missing rows. */
const VIOLATIONS = new Set(['23505', '23503']);

/** Builds everything again exactly as it was; PostgreSQL validates each with one pass over its table. */
export async function restorePostgresConstraints(conn: RawConnection, dropped: readonly Dropped[]): Promise<void> {
  for (const d of dropped) {
    try {
      await conn.run(d.constraint ? `alter table ${d.table} add constraint ${quoteIdent(d.name)} ${d.definition}` : d.definition);
    } catch (err) {
      if (VIOLATIONS.has(String((err as { code?: unknown }).code))) throw new RestoreCheckFailed([`${d.table}: ${(err as Error).message}`]);
      throw err;
    }
  }
}
