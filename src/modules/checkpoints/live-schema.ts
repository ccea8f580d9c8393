import type { RawConnection } from '../../db/raw-connection.js';

export interface LiveColumn {
  name: string;
  /** The database's own type name (PostgreSQL: the udt name used in casts, e.g. int4). */
  type: string;
  /** blob / bytea: stored in a checkpoint as base64 text. */
  binary: boolean;
}

/** The columns of a table as the database has them now, in table order. */
export async function liveColumns(conn: RawConnection, table: string): Promise<LiveColumn[]> {
  const rows =
    conn.kind === 'sqlite'
      ? await conn.rows('select name, type from pragma_table_info(?) order by cid', [table])
      : // The catalogue itself: information_schema's views take ~10 ms a table here.
        await conn.rows(
          `select a.attname, t.typname from pg_attribute a join pg_type t on t.oid = a.atttypid
           where a.attrelid = to_regclass(quote_ident(current_schema()) || '.' || quote_ident(?))
             and a.attnum > 0 and not a.attisdropped order by a.attnum`,
          [table],
        );
  return rows.map(([name, type]) => ({ name: String(name), type: String(type), binary: /^(blob|bytea)$/i.test(String(type)) }));
}

/** Every table of the schema (SQLite's internal tables aside). */
export async function liveTables(conn: RawConnection): Promise<string[]> {
  const rows =
    conn.kind === 'sqlite'
      ? await conn.rows("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' order by name")
      : await conn.rows(
          `select table_name from information_schema.tables
           where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`,
        );
  return rows.map(([name]) => String(name));
}

export interface ForeignKey {
  table: string;
  column: string;
  references: string;
  /** The referenced column (SQLite leaves it out when the key points at the primary key: rowid). */
  referencedColumn: string;
}

/** Every foreign key of the schema: which column of which table points at which table. */
export async function liveForeignKeys(conn: RawConnection): Promise<ForeignKey[]> {
  if (conn.kind === 'sqlite') {
    const out: ForeignKey[] = [];
    for (const table of await liveTables(conn)) {
      const rows = await conn.rows('select "from", "table", "to" from pragma_foreign_key_list(?)', [table]);
      for (const [column, references, to] of rows) {
        out.push({ table, column: String(column), references: String(references), referencedColumn: to === null ? 'rowid' : String(to) });
      }
    }
    return out;
  }
  const rows = await conn.rows(
    `select kcu.table_name, kcu.column_name, ccu.table_name, ccu.column_name
     from information_schema.table_constraints tc
     join information_schema.key_column_usage kcu
       on kcu.constraint_name = tc.constraint_name and kcu.constraint_schema = tc.constraint_schema
     join information_schema.constraint_column_usage ccu
       on ccu.constraint_name = tc.constraint_name and ccu.constraint_schema = tc.constraint_schema
     where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = current_schema()`,
  );
  return rows.map(([table, column, references, referencedColumn]) => ({
    table: String(table),
    column: String(column),
    references: String(references),
    referencedColumn: String(referencedColumn),
  }));
}
