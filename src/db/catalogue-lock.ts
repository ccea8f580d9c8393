import { PostgresAdapter, sql, type Transaction } from 'kysely';
import { conflict, errorCode } from '../http/errors.js';
import type { Database, DB } from './database.js';

/** PostgreSQL advisory lock key of catalogue changes (checkpoints use 0x1a3c_4b01, the change feed 0x1a3c_4b03). */
const CATALOGUE_LOCK = 0x1a3c_4b02;
/** How long a catalogue change waits on PostgreSQL for the one running before it is refused. */
const PG_LOCK_WAIT_MS = 30_000;

export const CATALOGUE_BUSY = '其他操作正在修改许可数据，请稍后重试';

/**
 * A transaction for changes that read permits and then write what they computed from them (an
 * import commit plans against the stored permits; a deletion and a snapshot restore save the
 * permits before changing them). Such changes run one at a time across every instance and
 * process, and each reads the state the previous one left: two overlapping commits end as one
 * serial order, never as a mix of both.
 *
 * - PostgreSQL: a transaction-level advisory lock, waited for up to 30 s.
 * - SQLite: the database's write lock taken by the first statement (a write that changes
 *   nothing), before anything is read. A deferred transaction would read first and then fail to
 *   upgrade once another process had written; waiting follows the connection's busy timeout.
 *
 * When the lock cannot be had in time the change is refused with 409 and nothing is written.
 */
export function catalogueTransaction<T>(db: DB, fn: (trx: Transaction<Database>) => Promise<T>): Promise<T> {
  return db.transaction().execute(async (trx) => {
    await takeCatalogueLock(trx);
    return fn(trx);
  });
}

async function takeCatalogueLock(trx: Transaction<Database>): Promise<void> {
  const pg = trx.getExecutor().adapter instanceof PostgresAdapter;
  try {
    if (pg) {
      // lock_timeout for this transaction only (set_config(..., true)), set before the wait starts.
      await sql`select set_config('lock_timeout', ${`${PG_LOCK_WAIT_MS}ms`}, true)`.execute(trx);
      await sql`select pg_advisory_xact_lock(${CATALOGUE_LOCK})`.execute(trx);
    } else {
      await sql`delete from permits where 1 = 0`.execute(trx);
    }
  } catch (err) {
    const code = errorCode(err);
    if (code === '55P03' || code === 'SQLITE_BUSY') throw conflict(CATALOGUE_BUSY);
    throw err;
  }
}
