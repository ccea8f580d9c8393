import type { Insertable } from 'kysely';
import { bulkAppend } from '../../db/bulk-insert.js';
import type { DatabaseHandle } from '../../db/connect.js';
import type { Executor } from '../../db/database.js';
import { toCount } from '../../db/dialect.js';
import type { QueryLogTable } from './query-log.table.js';

/** One transaction and the fastest insert each database has: the log is written as often as people ask. */
export async function insertQueryLogRows(dbh: DatabaseHandle, rows: Insertable<QueryLogTable>[]): Promise<void> {
  await dbh.db.transaction().execute((trx) => bulkAppend(dbh, trx, 'query_log', rows));
}

/** The salt of a day: the one some instance stored first, else `fresh`, stored now. */
export async function saltOfDay(db: Executor, day: string, fresh: string): Promise<string> {
  await db
    .insertInto('query_log_salts')
    .values({ day, salt: fresh })
    .onConflict((oc) => oc.column('day').doNothing())
    .execute();
  const row = await db.selectFrom('query_log_salts').select('salt').where('day', '=', day).executeTakeFirstOrThrow();
  return row.salt;
}

/** Deletes the entries asked before `keepFrom` and the salts of the days before `today`; answers how many entries went. */
export async function pruneQueryLog(db: Executor, keepFrom: string, today: string): Promise<number> {
  const gone = await db.deleteFrom('query_log').where('asked_at', '<', keepFrom).executeTakeFirst();
  await db.deleteFrom('query_log_salts').where('day', '<', today).execute();
  return Number(gone.numDeletedRows);
}

/**
 * The questions answered with permits that at least `minAskers` different people asked since
 * `fromIso`, most asked first: what one person typed alone is never shown to anyone else.
 */
export async function popularQuestions(db: Executor, fromIso: string, minAskers: number, limit: number): Promise<{ query: string; count: number }[]> {
  const rows = await db
    .selectFrom('query_log')
    .where('asked_at', '>=', fromIso)
    .where('status', '=', 'ok')
    .select((eb) => ['query', eb.fn.countAll<number>().as('n')])
    .groupBy('query')
    .having((eb) => eb.fn.count('asker').distinct(), '>=', minAskers)
    .orderBy('n', 'desc')
    .orderBy('query')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ query: r.query, count: toCount(r.n) }));
}
