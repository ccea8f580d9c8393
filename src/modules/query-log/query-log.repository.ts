import { sql, type Insertable, type RawBuilder } from 'kysely';
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

/** The day of the service's time zone (`offsetMinutes` from UTC) an entry was asked on, as YYYY-MM-DD: the day of its asker's salt. */
export function serviceDaySql(offsetMinutes: number, postgres: boolean): RawBuilder<string> {
  const shift = sql.raw(`${offsetMinutes} minutes`);
  return postgres
    ? sql<string>`to_char((asked_at::timestamptz + interval '${shift}') at time zone 'UTC', 'YYYY-MM-DD')`
    : sql<string>`strftime('%Y-%m-%d', asked_at, '${shift}')`;
}

export interface PopularQuestion {
  query: string;
  /** Different askers summed over the days (an asker is known for one day only). */
  askers: number;
  /** The first permit ids of one of its answers, comma-separated. */
  topPermitIds: string;
}

/**
 * The questions answered with permits that at least `minAskers` different people asked on one
 * day of the service since `fromIso`, most askers first. An asker's hash lives for one day, so
 * only within a day are different hashes different people: one person asking on many days never
 * counts as many.
 */
export async function popularQuestions(
  db: Executor,
  q: { fromIso: string; minAskers: number; limit: number; offsetMinutes: number; postgres: boolean },
): Promise<PopularQuestion[]> {
  const day = serviceDaySql(q.offsetMinutes, q.postgres);
  const perDay = db
    .selectFrom('query_log')
    .where('asked_at', '>=', q.fromIso)
    .where('status', '=', 'ok')
    .select((eb) => ['query', eb.fn.count<number>('asker').distinct().as('askers'), eb.fn.min('top_permit_ids').as('top')])
    .groupBy(['query', day]);
  const rows = await db
    .selectFrom(perDay.as('d'))
    .select((eb) => ['d.query', eb.fn.sum<number>('d.askers').as('askers'), eb.fn.min('d.top').as('top')])
    .groupBy('d.query')
    .having((eb) => eb.fn.max('d.askers'), '>=', q.minAskers)
    .orderBy('askers', 'desc')
    .orderBy('d.query')
    .limit(q.limit)
    .execute();
  return rows.map((r) => ({ query: r.query, askers: toCount(r.askers), topPermitIds: String(r.top ?? '') }));
}
