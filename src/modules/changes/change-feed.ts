import { PostgresAdapter, sql } from 'kysely';
import type { AppContext, DataChange } from '../../context.js';
import type { DB } from '../../db/database.js';
import { nowIso } from '../../db/dialect.js';

/** How often an instance looks for other instances' changes: well inside the 1 s freshness promise. */
export const FEED_POLL_MS = 250;
/** Feed entries older than this are pruned; an instance that was away longer rebuilds fully. */
const FEED_KEEP_MS = 60 * 60 * 1000;
const PRUNE_EVERY_MS = 5 * 60 * 1000;
/** PostgreSQL advisory lock key that orders feed entries (checkpoints 0x1a3c_4b01, catalogue 0x1a3c_4b02). */
const FEED_LOCK = 0x1a3c_4b03;

export type ChangeHandler = (change: DataChange) => Promise<void>;

/**
 * The feed of committed data changes shared through the database, so that every instance on one
 * PostgreSQL database (or processes on one SQLite file, such as the command line next to the
 * server) keeps its search index fresh. Each instance records its own changes and polls for the
 * others'. Polling (one indexed query per interval) works the same on both databases.
 */
export class ChangeFeed {
  private lastSeen = 0;
  private timer: NodeJS.Timeout | null = null;
  private polling = false;
  private lastPrune = 0;
  /** When the feed was last read successfully (ctx.now()), for /metrics. */
  private lastPolledAt = 0;

  constructor(private readonly ctx: AppContext, private readonly origin: string) {}

  /**
   * Remembers where the feed stands; call before loading state, so no later change is missed.
   * Read from the database the state is then loaded from: a read replica that lags behind has an
   * older feed position too, and the changes it has not replayed yet are then applied from the
   * primary's feed (applying a change twice is harmless: it re-reads the permits).
   */
  async mark(source: DB = this.ctx.db): Promise<void> {
    const r = await source.selectFrom('data_changes').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
    this.lastSeen = Number(r?.id ?? 0);
    this.lastPolledAt = this.ctx.now();
  }

  /** Milliseconds since the feed was last read successfully: the most this instance's index can lag. */
  get pollAgeMs(): number {
    return this.ctx.now() - this.lastPolledAt;
  }

  /**
   * Entries must become visible in id order, or a poll could see a later id, move past it, and
   * never see an earlier one committed a moment after. PostgreSQL hands out serial ids before
   * commit, so concurrent inserts are ordered by an advisory lock held until commit; SQLite
   * writes one at a time anyway.
   */
  async record(change: DataChange): Promise<void> {
    await this.ctx.db.transaction().execute(async (trx) => {
      if (trx.getExecutor().adapter instanceof PostgresAdapter) await sql`select pg_advisory_xact_lock(${FEED_LOCK})`.execute(trx);
      await trx
        .insertInto('data_changes')
        .values({
          origin: this.origin,
          kind: change.kind,
          permit_ids: change.kind === 'permits' ? JSON.stringify(change.permitIds) : null,
          created_at: nowIso(this.ctx.now),
        })
        .execute();
    });
  }

  start(handler: ChangeHandler): void {
    this.timer = setInterval(() => void this.poll(handler), FEED_POLL_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** Applies every change made elsewhere since the last poll, in order. */
  async poll(handler: ChangeHandler): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      // Away (database unreachable) for longer than entries are kept: some may be pruned unseen.
      const missedSome = this.ctx.now() - this.lastPolledAt > FEED_KEEP_MS;
      const rows = await this.ctx.db
        .selectFrom('data_changes')
        .selectAll()
        .where('id', '>', this.lastSeen)
        .orderBy('id')
        .limit(500)
        .execute();
      if (missedSome) await handler({ kind: 'all' });
      for (const row of rows) {
        if (row.origin !== this.origin) {
          await handler(row.kind === 'all' ? { kind: 'all' } : { kind: 'permits', permitIds: JSON.parse(row.permit_ids ?? '[]') });
        }
        this.lastSeen = row.id;
      }
      this.lastPolledAt = this.ctx.now();
      if (this.ctx.now() - this.lastPrune > PRUNE_EVERY_MS) {
        this.lastPrune = this.ctx.now();
        await this.ctx.db.deleteFrom('data_changes').where('created_at', '<', nowIso(() => this.ctx.now() - FEED_KEEP_MS)).execute();
      }
    } catch (err) {
      // A database outage is reported by /healthz and the routes; the feed simply tries again.
      this.ctx.log.debug({ err }, 'change feed poll failed');
    } finally {
      this.polling = false;
    }
  }
}
