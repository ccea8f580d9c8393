import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, openMigrated, testDialects, type TestDatabase } from '../../../test/helpers/databases.js';
import type { DatabaseHandle } from '../../db/connect.js';
import { COVERED_TABLES, EXCLUDED_TABLES, isBookkeepingTable } from './checkpoint-tables.js';

interface ForeignKey {
  table: string;
  column: string;
  references: string;
}

/** Rows of a catalogue query as arrays, on either database. */
async function rows(dbh: DatabaseHandle, text: string, params: unknown[] = []): Promise<unknown[][]> {
  if (dbh.kind === 'sqlite')
    return dbh
      .sqlite!.prepare(text)
      .raw(true)
      .all(...params) as unknown[][];
  let n = 0;
  return (await dbh.pool!.query({ text: text.replace(/\?/g, () => `$${++n}`), values: params, rowMode: 'array' })).rows;
}

async function liveTables(dbh: DatabaseHandle): Promise<string[]> {
  const found =
    dbh.kind === 'sqlite'
      ? await rows(dbh, "select name from sqlite_master where type = 'table' and name not like 'sqlite_%'")
      : await rows(dbh, "select table_name from information_schema.tables where table_schema = current_schema() and table_type = 'BASE TABLE'");
  return found.map(([name]) => String(name));
}

async function liveForeignKeys(dbh: DatabaseHandle): Promise<ForeignKey[]> {
  if (dbh.kind === 'sqlite') {
    const found: ForeignKey[] = [];
    for (const table of await liveTables(dbh)) {
      for (const [column, references] of await rows(dbh, 'select "from", "table" from pragma_foreign_key_list(?)', [table])) {
        found.push({ table, column: String(column), references: String(references) });
      }
    }
    return found;
  }
  const found = await rows(
    dbh,
    `select kcu.table_name, kcu.column_name, ccu.table_name from information_schema.table_constraints tc
        join information_schema.key_column_usage kcu on kcu.constraint_name = tc.constraint_name and kcu.constraint_schema = tc.constraint_schema
        join information_schema.constraint_column_usage ccu on ccu.constraint_name = tc.constraint_name and ccu.constraint_schema = tc.constraint_schema
        where tc.constraint_type = 'FOREIGN KEY' and tc.table_schema = current_schema()`,
  );
  return found.map(([table, column, references]) => ({ table: String(table), column: String(column), references: String(references) }));
}

describe.each(testDialects())('checkpoint table list against the live schema on %s', (dialect) => {
  let database: TestDatabase;
  let dbh: DatabaseHandle;
  let tables: string[];
  let foreignKeys: ForeignKey[];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    dbh = await openMigrated(database);
    [tables, foreignKeys] = [await liveTables(dbh), await liveForeignKeys(dbh)];
  });
  afterAll(async () => {
    await dbh?.close();
    await database?.drop();
  });

  const covered = COVERED_TABLES.map((t) => t.name);

  it('covers or explicitly excludes every table, and names no table that does not exist', () => {
    const unaccounted = tables.filter((t) => !covered.includes(t) && !EXCLUDED_TABLES.includes(t) && !isBookkeepingTable(t));
    expect(unaccounted, 'add the new table to COVERED_TABLES (in foreign-key order) or to EXCLUDED_TABLES').toEqual([]);
    for (const name of [...covered, ...EXCLUDED_TABLES]) expect(tables, name).toContain(name);
    expect(covered.filter((t) => EXCLUDED_TABLES.includes(t))).toEqual([]);
    expect(new Set(covered).size).toBe(covered.length);
  });

  it('lists parents before children, and declares every self-reference', () => {
    for (const fk of foreignKeys.filter((f) => covered.includes(f.table))) {
      const table = COVERED_TABLES.find((t) => t.name === fk.table)!;
      if (fk.references === fk.table) {
        expect(table.selfRefs ?? [], `${fk.table}.${fk.column}`).toContain(fk.column);
        continue;
      }
      expect(covered, `${fk.table}.${fk.column} references ${fk.references}, which a checkpoint must cover`).toContain(fk.references);
      expect(covered.indexOf(fk.references), `${fk.references} must come before ${fk.table}`).toBeLessThan(covered.indexOf(fk.table));
    }
  });

  it('leaves only sessions pointing into covered tables from outside (they are kept across a restore)', () => {
    const inbound = foreignKeys.filter((f) => !covered.includes(f.table) && covered.includes(f.references));
    expect(inbound.map((f) => `${f.table}.${f.column}->${f.references}`)).toEqual(['sessions.user_id->users']);
  });

  it('gives every covered table its primary key as the paging key', async () => {
    for (const table of COVERED_TABLES) {
      const columns = (
        dbh.kind === 'sqlite'
          ? await rows(dbh, 'select name from pragma_table_info(?)', [table.name])
          : await rows(dbh, 'select column_name from information_schema.columns where table_schema = current_schema() and table_name = ?', [table.name])
      ).map(([n]) => n);
      for (const k of [...table.key, ...(table.selfRefs ?? [])]) expect(columns, `${table.name}.${k}`).toContain(k);
      const pk =
        dbh.kind === 'sqlite'
          ? (await rows(dbh, 'select name from pragma_table_info(?) where pk > 0 order by pk', [table.name])).map(([n]) => n)
          : (
              await rows(
                dbh,
                `select a.attname from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
                 where i.indrelid = ?::regclass and i.indisprimary order by array_position(i.indkey, a.attnum)`,
                [table.name],
              )
            ).map(([n]) => n);
      expect(pk, table.name).toEqual([...table.key]);
    }
  });
});
