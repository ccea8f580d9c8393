import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type SqliteDatabase from 'better-sqlite3';
import type pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import type { DatabaseHandle, DialectKind } from './connect.js';
import { copyOut, type CopiedPage, type PageLimits } from '../modules/checkpoints/copy-out.js';

/**
 * One database connection held for a whole checkpoint operation, below Kysely: rows come back as
 * arrays (no per-row objects for a million rows) and statements are written once with `?`
 * placeholders for both databases. Checkpoints are the only bulk copy of the service, which is
 * why they alone work at this level.
 */
export interface RawConnection {
  kind: DialectKind;
  /** Result rows as arrays of column values, in the order of the select list. */
  rows(text: string, params?: readonly unknown[]): Promise<unknown[][]>;
  /** A statement without a result; answers the number of rows it changed. */
  run(text: string, params?: readonly unknown[]): Promise<number>;
  /**
   * `snapshot`: every read sees one consistent state (SQLite: the write lock, so no writer can
   * interleave; PostgreSQL: REPEATABLE READ). `write`: an ordinary all-or-nothing transaction.
   */
  transaction<T>(mode: 'snapshot' | 'write', fn: () => Promise<T>): Promise<T>;
  /** PostgreSQL only: the bulk paths of the COPY protocol. */
  copy?: {
    /**
     * `COPY (…) TO STDOUT (FORMAT binary)`, its rows handed on in pages (copy-out.ts), the server
     * waiting while `onPage` has not taken one; answers the number of rows.
     */
    out(text: string, limits: PageLimits, onPage: (page: CopiedPage) => Promise<void>): Promise<number>;
    /** `COPY … FROM STDIN` fed with the pieces in order; answers the number of rows copied. */
    in(text: string, pieces: Iterable<Buffer> | AsyncIterable<Buffer>): Promise<number>;
  };
  /**
   * PostgreSQL only: a second connection for the same operation, opened on first use and released
   * with the first. It reads or writes checkpoint chunks while this one copies rows, so the
   * server works on both at once; it runs outside this connection's transaction.
   */
  second?(): Promise<RawConnection>;
}

/** SQLite page cache during a checkpoint operation, in KiB (negative: a size, not a page count). */
const BULK_CACHE_SIZE = -256 * 1024;

/** Largest number of bound parameters in one statement (SQLite's default limit, PostgreSQL's protocol limit). */
export const MAX_PARAMS: Record<DialectKind, number> = { sqlite: 32_766, postgres: 65_535 };

/** SQLite has no base64: restoring an older `json` checkpoint (chunk-sql.ts) decodes blob columns with this. */
export const SQLITE_UNBASE64 = 'lawrisk_unbase64';
const withBase64 = new WeakSet<SqliteDatabase.Database>();

function registerBase64(sqlite: SqliteDatabase.Database): void {
  if (withBase64.has(sqlite)) return;
  sqlite.function(SQLITE_UNBASE64, { deterministic: true }, (v: unknown) => (v === null ? null : Buffer.from(String(v), 'base64')));
  withBase64.add(sqlite);
}

function sqliteConnection(sqlite: SqliteDatabase.Database): RawConnection {
  registerBase64(sqlite);
  // Prepared once per operation: the page and insert statements repeat hundreds of times.
  const statements = new Map<string, SqliteDatabase.Statement>();
  const prepared = (text: string) => {
    let stmt = statements.get(text);
    if (!stmt) {
      stmt = sqlite.prepare(text);
      statements.set(text, stmt);
    }
    return stmt;
  };
  return {
    kind: 'sqlite',
    rows: async (text, params = []) => prepared(text).raw(true).all(params) as unknown[][],
    run: async (text, params = []) => prepared(text).run(params).changes,
    async transaction(_mode, fn) {
      // IMMEDIATE takes the write lock up front: the copy is consistent and its own writes
      // (the chunks) can never fail to upgrade a read lock.
      sqlite.exec('BEGIN IMMEDIATE');
      try {
        const result = await fn();
        sqlite.exec('COMMIT');
        return result;
      } catch (err) {
        if (sqlite.inTransaction) sqlite.exec('ROLLBACK');
        throw err;
      }
    },
  };
}

/** PostgreSQL advisory lock key of checkpoint operations (any constant unique to this service). */
const CHECKPOINT_LOCK = 0x1a3c_4b01;

function postgresConnection(client: pg.PoolClient, state: { broken: boolean }): RawConnection {
  const numbered = new Map<string, string>();
  const toPg = (text: string) => {
    let out = numbered.get(text);
    if (out === undefined) {
      let n = 0;
      out = text.replace(/\?/g, () => `$${++n}`);
      numbered.set(text, out);
    }
    return out;
  };
  // Callers overlap reads with compression and storing, so statements may be issued while one is
  // running: they are queued here, in order, rather than handed to the client all at once (a COPY
  // in progress must not see another statement slip in).
  let tail: Promise<unknown> = Promise.resolve();
  const serial = <T>(run: () => Promise<T>): Promise<T> => {
    const result = tail.then(run);
    tail = result.catch(() => {});
    return result;
  };
  const query = <R extends pg.QueryResultRow>(config: pg.QueryConfig) => serial(() => client.query<R>(config));
  return {
    kind: 'postgres',
    rows: async (text, params = []) =>
      (await query({ text: toPg(text), values: params as unknown[], rowMode: 'array' } as pg.QueryConfig)).rows as unknown[][],
    run: async (text, params = []) => (await query({ text: toPg(text), values: params as unknown[] })).rowCount ?? 0,
    copy: {
      out: (text, limits, onPage) => serial(() => copyOut(client, text, limits, onPage)),
      in: (text, pieces) =>
        serial(async () => {
          const stream = client.query(copyFrom(text));
          await pipeline(Readable.from(pieces), stream);
          return stream.rowCount;
        }),
    },
    async transaction(mode, fn) {
      await query({ text: mode === 'snapshot' ? 'BEGIN ISOLATION LEVEL REPEATABLE READ' : 'BEGIN' });
      try {
        const result = await fn();
        await query({ text: 'COMMIT' });
        return result;
      } catch (err) {
        // A failed ROLLBACK means the connection itself is gone: it must not go back to the pool.
        await query({ text: 'ROLLBACK' }).catch(() => {
          state.broken = true;
        });
        throw err;
      }
    },
  };
}

interface Pooled {
  conn: RawConnection;
  /** Back to the pool, unless the connection broke (or `broken` says so): then it is dropped. */
  release(broken?: boolean): void;
}

async function pooledConnection(pool: pg.Pool): Promise<Pooled> {
  const client = await pool.connect();
  const state = { broken: false };
  return { conn: postgresConnection(client, state), release: (broken = false) => client.release(state.broken || broken) };
}

/**
 * Runs `fn` on one connection of its own. On SQLite that is the single connection, taken through
 * Kysely so every other query of the process waits for it instead of slipping into our
 * transaction; on PostgreSQL a pooled client.
 */
export async function withRawConnection<T>(dbh: DatabaseHandle, fn: (conn: RawConnection) => Promise<T>): Promise<T> {
  if (dbh.kind === 'sqlite') {
    const sqlite = dbh.sqlite!;
    return dbh.db.connection().execute(async () => {
      // A bulk copy through the default 2 MB page cache rereads index pages from the OS over and
      // over; a larger cache for the operation's duration keeps them in memory.
      const cacheSize = sqlite.pragma('cache_size', { simple: true }) as number;
      sqlite.pragma(`cache_size = ${BULK_CACHE_SIZE}`);
      try {
        return await fn(sqliteConnection(sqlite));
      } finally {
        sqlite.pragma(`cache_size = ${cacheSize}`);
      }
    });
  }
  const main = await pooledConnection(dbh.pool!);
  const opened: { second?: Promise<Pooled> } = {};
  main.conn.second = async () => (await (opened.second ??= pooledConnection(dbh.pool!))).conn;
  let unlocked = false;
  try {
    // One checkpoint operation at a time across every instance, taken before any snapshot: a
    // copy never starts from a state a running restore is about to replace (a restore empties
    // tables with TRUNCATE, which older snapshots would see as empty).
    await main.conn.run('select pg_advisory_lock(?)', [CHECKPOINT_LOCK]);
    try {
      return await fn(main.conn);
    } finally {
      unlocked = await main.conn.run('select pg_advisory_unlock(?)', [CHECKPOINT_LOCK]).then(() => true, () => false);
    }
  } finally {
    // A connection that may still hold the lock must not go back to the pool.
    main.release(!unlocked);
    (await opened.second?.catch(() => null))?.release();
  }
}

/** `"name"`: identifiers come from the fixed table list and the live schema, quoted for both databases. */
export const quoteIdent = (name: string) => `"${name.replace(/"/g, '""')}"`;
