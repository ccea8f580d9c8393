import { createHmac, randomBytes } from 'node:crypto';
import type { Insertable } from 'kysely';
import type { AppContext } from '../../context.js';
import { maskPersonalData } from './mask-personal.js';
import { DAY_MS, dayText, serviceDay } from './service-day.js';
import { insertQueryLogRows, pruneQueryLog, saltOfDay } from './query-log.repository.js';
import type { QueryLogTable } from './query-log.table.js';

/** Where a question was asked: the public page, the search console, an assistant's tool, or the API itself. */
export const CHANNELS = ['page', 'console', 'assistant', 'api'] as const;
export type Channel = (typeof CHANNELS)[number];

/** One answered question as the search route hands it over. */
export interface AskedQuestion {
  query: string;
  /** The region ids the filter resolved to; null without a filter. */
  regionIds: string[] | null;
  resultCount: number;
  topPermitIds: string[];
  latencyUs: number;
  channel: Channel;
  /** The client's address: hashed under the day's salt when written, never stored. */
  address: string | undefined;
}

interface Pending {
  question: AskedQuestion;
  askedAt: number;
}

/**
 * Entries are written at least this often, and as soon as this many wait: under heavy load a
 * write (one transaction, one commit, which SQLite makes durable on the request thread) carries
 * this many, so that commits stay few.
 */
const FLUSH_EVERY_MS = 1000;
const FLUSH_AT = 2000;
/** Most entries held while the database does not take them; later ones are dropped (and counted). */
const MAX_WAITING = 20_000;
/** How many of the answer's permits an entry keeps. */
const TOP_KEPT = 5;

/** Most log forms and asker hashes remembered: questions and askers come back again and again. */
const REMEMBERED = 10_000;

function remembered(map: Map<string, string>, key: string, make: () => string): string {
  let value = map.get(key);
  if (value === undefined) {
    if (map.size >= REMEMBERED) map.clear();
    value = make();
    map.set(key, value);
  }
  return value;
}

/**
 * The query log (docs/query-log.md): every answered /v2 question is queued in memory by the
 * request and written to the database in batches off the request path; the retention is
 * enforced by a daily prune. Nothing is recorded when `QUERY_LOG_DAYS` is 0.
 */
export class QueryLog {
  private waiting: Pending[] = [];
  private writing: Promise<void> = Promise.resolve();
  private salts = new Map<string, string>();
  private forms = new Map<string, string>();
  /** Hashes by day and address: the only place an address stays in memory, until the daily prune. */
  private hashes = new Map<string, string>();
  private timers: NodeJS.Timeout[] = [];
  /** A write is queued on `writing` and has not started: the entries arriving meanwhile go with it. */
  private writeQueued = false;

  /** `normalize`: how the search reads a question (simplified, folded), applied between masked parts. */
  constructor(
    private readonly ctx: AppContext,
    private readonly normalize: (text: string) => string,
  ) {}

  get enabled(): boolean {
    return this.ctx.config.queryLogDays > 0;
  }

  /**
   * Starts the periodic writes, and the prunes: one at once (a lowered retention applies at
   * start), then one just after each midnight of the service's day, so that a day's salt is
   * deleted as soon as the day is over.
   */
  start(): void {
    this.timers.push(setInterval(() => void this.flush(), FLUSH_EVERY_MS).unref());
    const pruneAfterMidnight = () => {
      const now = this.ctx.now();
      const untilMidnight = serviceDay(now, this.ctx.config.utcOffsetMinutes) + DAY_MS - this.ctx.config.utcOffsetMinutes * 60_000 - now + 1000;
      this.timers.push(
        setTimeout(() => {
          void this.prune().catch(this.failed('prune'));
          pruneAfterMidnight();
        }, untilMidnight).unref(),
      );
    };
    pruneAfterMidnight();
    void this.prune().catch(this.failed('prune'));
  }

  /** Stops the timers, waits for the prune or write under way, and writes what is waiting. */
  async stop(): Promise<void> {
    for (const t of this.timers) clearTimeout(t);
    this.timers = [];
    await this.flush();
  }

  /** Queues one question; never waits and never throws. */
  record(question: AskedQuestion): void {
    if (!this.enabled) return;
    if (this.waiting.length >= MAX_WAITING) {
      this.ctx.metrics.queryLogDropped.inc();
      return;
    }
    this.waiting.push({ question, askedAt: this.ctx.now() });
    if (this.waiting.length >= FLUSH_AT) void this.flush();
  }

  /** Writes every question queued so far. Writes and prunes run one at a time, in order. */
  flush(): Promise<void> {
    if (this.writeQueued) return this.writing;
    this.writeQueued = true;
    return this.then(() => {
      this.writeQueued = false;
      return this.write();
    });
  }

  /** Deletes the entries older than the retention (all of them when the log is off) and the salts of past days; answers how many entries went. */
  prune(): Promise<number> {
    let gone = 0;
    return this.then(async () => {
      const now = this.ctx.now();
      const keepFrom = new Date(now - this.ctx.config.queryLogDays * DAY_MS).toISOString();
      const today = this.dayOf(now);
      for (const day of this.salts.keys()) if (day < today) this.salts.delete(day);
      this.hashes.clear();
      gone = await pruneQueryLog(this.ctx.db, keepFrom, today);
    }).then(() => gone);
  }

  /** Chains work after the write or prune under way; a failure is the caller's to report, the chain goes on. */
  private then(work: () => Promise<void>): Promise<void> {
    const done = this.writing.then(work);
    this.writing = done.catch(() => undefined);
    return done;
  }

  private async write(): Promise<void> {
    const batch = this.waiting;
    if (batch.length === 0) return;
    this.waiting = [];
    try {
      const rows: Insertable<QueryLogTable>[] = [];
      // Many questions share a millisecond: its text form is made once.
      let lastMs = -1;
      let askedAt = '';
      let day = '';
      for (const { question, askedAt: ms } of batch) {
        if (ms !== lastMs) {
          askedAt = new Date((lastMs = ms)).toISOString();
          day = this.dayOf(ms);
          if (!this.salts.has(day)) this.salts.set(day, await saltOfDay(this.ctx.db, day, randomBytes(16).toString('base64url')));
        }
        rows.push(this.row(question, askedAt, day));
      }
      await insertQueryLogRows(this.ctx.dbh, rows);
    } catch (err) {
      this.ctx.metrics.queryLogDropped.inc(batch.length);
      this.failed('write')(err);
    }
  }

  /** The service's day (UTC_OFFSET) of a time: the analytics' days, and the life of a salt. */
  private dayOf(ms: number): string {
    return dayText(serviceDay(ms, this.ctx.config.utcOffsetMinutes));
  }

  /** An entry as stored; the salt of its day is at hand. */
  private row(q: AskedQuestion, askedAt: string, day: string): Insertable<QueryLogTable> {
    return {
      asked_at: askedAt,
      query: remembered(this.forms, q.query, () => this.logForm(q.query)),
      region_ids: q.regionIds === null ? null : q.regionIds.join(','),
      result_count: q.resultCount,
      top_permit_ids: q.topPermitIds.slice(0, TOP_KEPT).join(','),
      status: q.resultCount > 0 ? 'ok' : 'no_match',
      latency_us: q.latencyUs,
      channel: q.channel,
      asker: q.address ? this.asker(day, q.address) : null,
    };
  }

  /** The question as stored: masked, then normalised between the masks, spaces collapsed. */
  private logForm(query: string): string {
    return maskPersonalData(query, this.normalize).toLowerCase().replace(/\s+/g, ' ').trim();
  }

  private asker(day: string, address: string): string {
    const salt = this.salts.get(day)!;
    return remembered(this.hashes, `${day} ${address}`, () => createHmac('sha256', salt).update(address).digest('base64url').slice(0, 16));
  }

  private failed(what: string) {
    return (err: unknown) => this.ctx.log.error({ err }, `query log ${what} failed`);
  }
}

/** The channel a request names (header `x-lawrisk-channel` or parameter `channel`); the API when none or another. */
export function channelOf(header: string | string[] | undefined, param: unknown): Channel {
  const named = typeof param === 'string' ? param : Array.isArray(header) ? header[0] : header;
  const value = (named ?? '').trim().toLowerCase();
  return (CHANNELS as readonly string[]).includes(value) ? (value as Channel) : 'api';
}
