import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestDatabase, openMigrated, testDialects, type TestDatabase } from '../../test/helpers/databases.js';
import type { DatabaseHandle } from './connect.js';
import { migrateToLatest } from './migrate.js';
import { migrations } from './migrations/index.js';
import { blankRisk } from '../../test/helpers/permit-row.js';

interface ColumnInfo {
  table: string;
  column: string;
  notNull: boolean;
}

async function describeSchema(h: DatabaseHandle): Promise<ColumnInfo[]> {
  if (h.kind === 'sqlite') {
    const tables = h.sqlite!.prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite_%' and name not like 'kysely_%'").all() as {
      name: string;
    }[];
    return tables.flatMap(({ name }) =>
      (h.sqlite!.prepare(`pragma table_info(${name})`).all() as { name: string; notnull: number; pk: number }[]).map((c) => ({
        table: name,
        column: c.name,
        notNull: c.notnull === 1 || c.pk === 1,
      })),
    );
  }
  const rows = await sql<{ table_name: string; column_name: string; is_nullable: string }>`
    select table_name, column_name, is_nullable from information_schema.columns
    where table_schema = 'public' and table_name not like 'kysely_%'`.execute(h.db);
  return rows.rows.map((r) => ({ table: r.table_name, column: r.column_name, notNull: r.is_nullable === 'NO' }));
}

const sorted = (cols: ColumnInfo[]) => cols.map((c) => `${c.table}.${c.column}${c.notNull ? ' not null' : ''}`).sort();

describe('migrations', () => {
  const handles: DatabaseHandle[] = [];
  const dbs: TestDatabase[] = [];
  beforeAll(async () => {
    for (const kind of testDialects()) {
      const db = await createTestDatabase(kind);
      dbs.push(db);
      handles.push(await openMigrated(db));
    }
  });
  afterAll(async () => {
    for (const h of handles) await h.close();
    for (const d of dbs) await d.drop();
  });

  it('create every table the interface needs', async () => {
    const tables = new Set((await describeSchema(handles[0])).map((c) => c.table));
    for (const t of [
      'regions',
      'themes',
      'region_themes',
      'permits',
      'permit_themes',
      'approval_departments',
      'permit_approval_departments',
      'risks',
      'service_departments',
      'users',
      'sessions',
      'login_failures',
      'import_sessions',
      'permit_files',
      'snapshot_batches',
      'snapshot_permits',
      'snapshot_risks',
      'checkpoints',
      'checkpoint_chunks',
      'operation_logs',
      'app_meta',
    ]) {
      expect(tables.has(t), t).toBe(true);
    }
  });

  it('produce the same tables, columns and nullability on SQLite and PostgreSQL', async () => {
    if (handles.length < 2) return;
    expect(sorted(await describeSchema(handles[1]))).toEqual(sorted(await describeSchema(handles[0])));
  });

  it('are idempotent: running them again changes nothing', async () => {
    for (const h of handles) expect(await migrateToLatest(h)).toEqual([]);
  });

  // SQLite's counterpart (several processes on one new file) is in test/instances/server-processes.test.ts:
  // one process cannot wait for a second connection of its own.
  it.runIf(testDialects().includes('postgres'))('run once when several instances start together on an empty PostgreSQL database', async () => {
    const db = await createTestDatabase('postgres');
    const starting = [db.open(), db.open(), db.open(), db.open()];
    try {
      const ran = await Promise.all(starting.map((h) => migrateToLatest(h)));
      expect(ran.filter((r) => r.length > 0)).toEqual([Object.keys(migrations)]);
      const rows = await sql<{ name: string }>`select name from kysely_migration order by name`.execute(starting[0].db);
      expect(rows.rows.map((r) => r.name)).toEqual(Object.keys(migrations).sort());
      expect(sorted(await describeSchema(starting[0]))).toEqual(sorted(await describeSchema(handles[0])));
    } finally {
      for (const h of starting) await h.close();
      await db.drop();
    }
  });

  it('enforce foreign keys on both databases', async () => {
    for (const h of handles) {
      await expect(
        h.db
          .insertInto('risks')
          .values({ permit_id: 999999, position: 1, ...blankRisk('x') })
          .execute(),
      ).rejects.toThrow();
    }
  });
});
