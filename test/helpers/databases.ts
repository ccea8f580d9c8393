import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { inject } from 'vitest';
import { connect, type DatabaseHandle, type DialectKind } from '../../src/db/connect.js';
import { migrateToLatest } from '../../src/db/migrate.js';

/** The dialects database-facing suites run on: SQLite always, PostgreSQL when the global setup provided one. */
export function testDialects(): DialectKind[] {
  return inject('pgAdminUrl') ? ['sqlite', 'postgres'] : ['sqlite'];
}

export interface TestDatabase {
  kind: DialectKind;
  /** The connection URL (sqlite:<file> or postgres://…) so a second app or process can open it too. */
  url: string;
  dataDir: string;
  open(): DatabaseHandle;
  drop(): Promise<void>;
}

/** A fresh, empty database of the given kind (a new SQLite file, or a new PostgreSQL database). */
export async function createTestDatabase(kind: DialectKind): Promise<TestDatabase> {
  const dataDir = mkdtempSync(join(tmpdir(), 'lawrisk-test-'));
  if (kind === 'sqlite') {
    const path = join(dataDir, 'test.db');
    return {
      kind,
      url: `sqlite:${path}`,
      dataDir,
      open: () => connect({ kind: 'sqlite', path, url: `sqlite:${path}` }),
      drop: async () => rmSync(dataDir, { recursive: true, force: true }),
    };
  }
  const adminUrl = inject('pgAdminUrl');
  if (!adminUrl) throw new Error('PostgreSQL is not available to the tests');
  const name = `lawrisk_t_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const target = { kind: 'postgres' as const, url: url.toString() };
  return {
    kind,
    url: target.url,
    dataDir,
    open: () => connect(target, { poolSize: 5 }),
    drop: async () => {
      const c = new pg.Client({ connectionString: adminUrl });
      await c.connect();
      await c.query(`drop database if exists ${name} with (force)`);
      await c.end();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A migrated database handle for repository-level tests. */
export async function openMigrated(db: TestDatabase): Promise<DatabaseHandle> {
  const h = db.open();
  await migrateToLatest(h);
  return h;
}
