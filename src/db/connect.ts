import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import { Kysely, PostgresDialect, SqliteDialect } from 'kysely';
import type { DatabaseTarget } from '../config.js';
import type { Database } from './database.js';

export type DialectKind = 'sqlite' | 'postgres';

/** An open database: the Kysely handle plus what a few dialect-specific features need. */
export interface DatabaseHandle {
  db: Kysely<Database>;
  kind: DialectKind;
  /** The raw better-sqlite3 connection (SQLite only): VACUUM INTO, pragmas. */
  sqlite?: SqliteDatabase.Database;
  /** The pg pool (PostgreSQL only): LISTEN/NOTIFY, pool metrics. */
  pool?: pg.Pool;
  close(): Promise<void>;
}

// COUNT(*) and SUM() come back as int8, which pg returns as a string to avoid precision loss;
// every count this service makes fits comfortably in a double.
pg.types.setTypeParser(20, (v) => Number.parseInt(v, 10));

export function openSqlite(path: string): SqliteDatabase.Database {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const sqlite = new SqliteDatabase(path);
  // First: switching to WAL needs a moment of exclusive access, which another process opening
  // the same new file at the same time may hold.
  sqlite.pragma('busy_timeout = 5000');
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('foreign_keys = ON');
  // NORMAL is durable in WAL mode against application crashes (only an OS crash can lose the last commits).
  sqlite.pragma('synchronous = NORMAL');
  return sqlite;
}

export function connect(target: DatabaseTarget, opts: { poolSize?: number } = {}): DatabaseHandle {
  if (target.kind === 'sqlite') {
    const sqlite = openSqlite(target.path);
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
    return { db, kind: 'sqlite', sqlite, close: () => db.destroy() };
  }
  const pool = new pg.Pool({
    connectionString: target.url,
    max: opts.poolSize ?? 10,
    connectionTimeoutMillis: 5000,
    idleTimeoutMillis: 30_000,
  });
  // An idle client losing its connection (server restart) must not crash the process.
  pool.on('error', () => {});
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: 'postgres', pool, close: () => db.destroy() };
}
