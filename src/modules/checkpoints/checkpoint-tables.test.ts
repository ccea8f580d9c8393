import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, openMigrated, testDialects, type TestDatabase } from '../../../test/helpers/databases.js';
import type { DatabaseHandle } from '../../db/connect.js';
import { COVERED_TABLES, EXCLUDED_TABLES, isBookkeepingTable } from './checkpoint-tables.js';
import { liveColumns, liveForeignKeys, liveTables, type ForeignKey } from './live-schema.js';
import { withRawConnection } from '../../db/raw-connection.js';

describe.each(testDialects())('checkpoint table list against the live schema on %s', (dialect) => {
  let database: TestDatabase;
  let dbh: DatabaseHandle;
  let tables: string[];
  let foreignKeys: ForeignKey[];

  beforeAll(async () => {
    database = await createTestDatabase(dialect);
    dbh = await openMigrated(database);
    [tables, foreignKeys] = await withRawConnection(dbh, async (conn) => [await liveTables(conn), await liveForeignKeys(conn)]);
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
    await withRawConnection(dbh, async (conn) => {
      for (const table of COVERED_TABLES) {
        const columns = (await liveColumns(conn, table.name)).map((c) => c.name);
        for (const k of [...table.key, ...(table.selfRefs ?? [])]) expect(columns, `${table.name}.${k}`).toContain(k);
        const pk =
          conn.kind === 'sqlite'
            ? (await conn.rows('select name from pragma_table_info(?) where pk > 0 order by pk', [table.name])).map(([n]) => n)
            : (
                await conn.rows(
                  `select a.attname from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
                   where i.indrelid = ?::regclass and i.indisprimary order by array_position(i.indkey, a.attnum)`,
                  [table.name],
                )
              ).map(([n]) => n);
        expect(pk, table.name).toEqual([...table.key]);
      }
    });
  });
});
