import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import SqliteDatabase from 'better-sqlite3';
import pg from 'pg';
import {
  Kysely,
  PostgresDialect,
  SqliteDialect,
  SqliteDriver,
  type DatabaseConnection,
  type Driver,
  type SqliteDatabase as KyselySqliteDatabase,
} from 'kysely';
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
  // FULL: every commit is on the disk before it is acknowledged, so it survives a power cut, an
  // operating-system crash or a disk the kernel takes read-only, not only a process crash (NORMAL
  // would lose the commits since the last checkpoint there). It costs a disk flush per commit, which
  // only administration pays, never a search (docs/reliability.md).
  sqlite.pragma('synchronous = FULL');
  return sqlite;
}

/** Prepared statements Kysely's SQLite connection keeps, by SQL text (least recently used dropped). */
const STATEMENT_CACHE = 256;

/**
 * The database as Kysely's SQLite dialect sees it, with its prepared statements kept. Kysely
 * prepares every query anew, and preparing is a good part of a query's cost: a 400-row insert
 * (3,600 placeholders) is compiled again for every chunk of an import without this. Kysely runs
 * one query at a time on its one connection and reads each result whole (nothing here streams),
 * so a statement is never busy when it is handed out again.
 */
function withStatementCache(sqlite: SqliteDatabase.Database): KyselySqliteDatabase {
  const cache = new Map<string, SqliteDatabase.Statement>();
  const prepare = (text: string) => {
    let stmt = cache.get(text);
    if (stmt) cache.delete(text);
    else {
      stmt = sqlite.prepare(text);
      if (cache.size >= STATEMENT_CACHE) cache.delete(cache.keys().next().value!);
    }
    cache.set(text, stmt);
    return stmt;
  };
  return { prepare, close: () => sqlite.close() };
}

/**
 * SQLite ends a transaction by itself on some errors (a full disk, a failed write): Kysely's
 * ROLLBACK then fails with "no transaction is active" and would replace the real error, which
 * is what the user must be told about (src/http/db-errors.ts). Rolls back only an open transaction.
 */
class SqliteDriverKeepingErrors extends SqliteDriver {
  constructor(private readonly sqlite: SqliteDatabase.Database) {
    super({ database: withStatementCache(sqlite) });
  }

  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.sqlite.inTransaction) await super.rollbackTransaction(connection);
  }
}

class SqliteDialectKeepingErrors extends SqliteDialect {
  constructor(private readonly sqlite: SqliteDatabase.Database) {
    super({ database: sqlite });
  }

  override createDriver(): Driver {
    return new SqliteDriverKeepingErrors(this.sqlite);
  }
}

export function connect(target: DatabaseTarget, opts: { poolSize?: number } = {}): DatabaseHandle {
  if (target.kind === 'sqlite') {
    const sqlite = openSqlite(target.path);
    const db = new Kysely<Database>({ dialect: new SqliteDialectKeepingErrors(sqlite) });
    return { db, kind: 'sqlite', sqlite, close: () => db.destroy() };
  }
  const pool = new pg.Pool({ connectionString: target.url, max: opts.poolSize ?? 10, connectionTimeoutMillis: 5000, idleTimeoutMillis: 30_000 });
  // A client losing its connection (server restart, network) reports it as an 'error' event, and
  // an event nobody listens to ends the process. Idle clients report to the pool; a client in use
  // (a transaction in progress) reports to itself, besides failing its query. Either way the
  // request gets its 503 and the pool drops the client once it is released.
  pool.on('error', () => {});
  pool.on('connect', (client) => client.on('error', () => {}));
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  return { db, kind: 'postgres', pool, close: () => db.destroy() };
}
