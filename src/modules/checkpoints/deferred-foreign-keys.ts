import { COVERED_TABLES } from './checkpoint-tables.js';
import { liveForeignKeys } from './live-schema.js';
import { quoteIdent, type RawConnection } from './raw-connection.js';
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

export interface DroppedForeignKey {
  table: string;
  name: string;
  definition: string;
}

/**
 * PostgreSQL: drops the foreign keys touching covered tables inside the restore transaction
 * (transactional DDL: a rollback brings them back) and answers what to add back. The tables are
 * already locked by the TRUNCATE, so no other transaction sees them without their keys.
 */
export async function dropPostgresForeignKeys(conn: RawConnection): Promise<DroppedForeignKey[]> {
  const names = [...covered];
  const rows = await conn.rows(
    `select conrelid::regclass::text, conname, pg_get_constraintdef(oid) from pg_constraint
     where contype = 'f' and (conrelid = any(?::regclass[]) or confrelid = any(?::regclass[])) order by 1, 2`,
    [names, names],
  );
  const dropped = rows.map(([table, name, definition]) => ({ table: String(table), name: String(name), definition: String(definition) }));
  for (const fk of dropped) await conn.run(`alter table ${fk.table} drop constraint ${quoteIdent(fk.name)}`);
  return dropped;
}

const FOREIGN_KEY_VIOLATION = '23503';

/** Adds the keys back exactly as they were; PostgreSQL validates each with one query. */
export async function restorePostgresForeignKeys(conn: RawConnection, dropped: readonly DroppedForeignKey[]): Promise<void> {
  for (const fk of dropped) {
    try {
      await conn.run(`alter table ${fk.table} add constraint ${quoteIdent(fk.name)} ${fk.definition}`);
    } catch (err) {
      if ((err as { code?: unknown }).code === FOREIGN_KEY_VIOLATION) throw new RestoreCheckFailed([`${fk.table}: ${(err as Error).message}`]);
      throw err;
    }
  }
}
