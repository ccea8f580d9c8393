import { sql, type SelectQueryBuilder } from 'kysely';
import type { Database, Executor } from '../../db/database.js';
import { toCount } from '../../db/dialect.js';
import { serviceDaySql } from '../query-log/query-log.repository.js';

/** Which entries of the query log the analytics look at. */
export interface LogFilter {
  /** ISO instants: from inclusive, to exclusive. */
  fromIso: string;
  toIso: string;
  /** Questions whose region filter held this region id. */
  regionId: number | null;
  channel: string | null;
}

/** A second asked within this many seconds by the same asker is a rephrasing of the first. */
export const REFINE_SECONDS = 60;

type LogQuery = SelectQueryBuilder<Database, 'query_log', object>;

function filtered(db: Executor, f: LogFilter): LogQuery {
  let q = db.selectFrom('query_log').where('asked_at', '>=', f.fromIso).where('asked_at', '<', f.toIso) as LogQuery;
  if (f.channel) q = q.where('channel', '=', f.channel);
  if (f.regionId !== null) {
    const id = String(f.regionId);
    q = q.where((eb) =>
      eb.or([eb('region_ids', '=', id), eb('region_ids', 'like', `${id},%`), eb('region_ids', 'like', `%,${id}`), eb('region_ids', 'like', `%,${id},%`)]),
    );
  }
  return q;
}

const noMatchCount = sql<number>`sum(case when status = 'no_match' then 1 else 0 end)`;

export async function logTotals(db: Executor, f: LogFilter) {
  const row = await filtered(db, f)
    .select((eb) => [eb.fn.countAll<number>().as('n'), eb.fn.count<number>('asker').distinct().as('askers'), noMatchCount.as('no_match')])
    .executeTakeFirstOrThrow();
  return { questions: toCount(row.n), askers: toCount(row.askers), noMatch: toCount(row.no_match) };
}

/** The questions asked most, or (noMatchOnly) those answered with nothing most often. */
export async function topQuestions(db: Executor, f: LogFilter, limit: number, noMatchOnly: boolean) {
  const rows = await filtered(db, f)
    .$if(noMatchOnly, (q) => q.where('status', '=', 'no_match'))
    .select((eb) => [
      'query',
      eb.fn.countAll<number>().as('n'),
      eb.fn.count<number>('asker').distinct().as('askers'),
      noMatchCount.as('no_match'),
      eb.fn.max('asked_at').as('last'),
    ])
    .groupBy('query')
    .orderBy('n', 'desc')
    .orderBy('query')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ query: r.query, count: toCount(r.n), askers: toCount(r.askers), noMatch: toCount(r.no_match), lastAskedAt: String(r.last) }));
}

/** Questions per day of the service's time zone (`offsetMinutes` from UTC) and channel, with how many were answered with nothing. */
export async function dailyCounts(db: Executor, f: LogFilter, offsetMinutes: number, postgres: boolean) {
  const day = serviceDaySql(offsetMinutes, postgres);
  const rows = await filtered(db, f)
    .select((eb) => [day.as('day'), 'channel', eb.fn.countAll<number>().as('n'), noMatchCount.as('no_match')])
    .groupBy([day, 'channel'])
    .execute();
  return rows.map((r) => ({ day: r.day, channel: r.channel, count: toCount(r.n), noMatch: toCount(r.no_match) }));
}

/**
 * Questions the same asker asked again in other words within REFINE_SECONDS: the pair (what was
 * asked, what was asked next) and how often, most frequent first. The later time is compared as
 * text in the log's own ISO format, computed by each database.
 */
export async function refinedQuestions(db: Executor, f: LogFilter, limit: number, postgres: boolean) {
  const soon = postgres
    ? sql<string>`to_char((asked_at::timestamptz + interval '${sql.raw(String(REFINE_SECONDS))} seconds') at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`
    : sql<string>`strftime('%Y-%m-%dT%H:%M:%fZ', asked_at, '+${sql.raw(String(REFINE_SECONDS))} seconds')`;
  const sequence = filtered(db, f)
    .where('asker', 'is not', null)
    .select([
      'query',
      soon.as('soon'),
      sql<string | null>`lead(query) over (partition by asker order by asked_at, id)`.as('next_query'),
      sql<string | null>`lead(asked_at) over (partition by asker order by asked_at, id)`.as('next_at'),
    ]);
  const rows = await db
    .selectFrom(sequence.as('s'))
    .select((eb) => ['s.query', 's.next_query', eb.fn.countAll<number>().as('n')])
    .where('s.next_query', 'is not', null)
    .whereRef('s.next_query', '<>', 's.query')
    .whereRef('s.next_at', '<=', 's.soon')
    .groupBy(['s.query', 's.next_query'])
    .orderBy('n', 'desc')
    .orderBy('s.query')
    .limit(limit)
    .execute();
  return rows.map((r) => ({ query: r.query, refinedTo: String(r.next_query), count: toCount(r.n) }));
}

/** The slowest answers. */
export async function slowQuestions(db: Executor, f: LogFilter, limit: number) {
  return filtered(db, f)
    .select(['query', 'latency_us', 'asked_at', 'result_count', 'channel'])
    .orderBy('latency_us', 'desc')
    .orderBy('id')
    .limit(limit)
    .execute();
}
