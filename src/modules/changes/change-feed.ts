import { sql, type CompiledQuery } from 'kysely';
import type { AppContext, DataChange } from '../../context.js';
import type { DB, Executor } from '../../db/database.js';
import { nowIso } from '../../db/dialect.js';

/** How often an instance looks for other instances' changes: well inside the 1 s freshness promise. */
export const FEED_POLL_MS = 250;
/** Feed entries older than this are pruned; an instance that was away longer rebuilds fully. */
const FEED_KEEP_MS = 60 * 60 * 1000;
/**
 * An instance that could not read the feed for this long (its database connection was lost, the
 * process was suspended) may have missed entries other instances have pruned since: it rebuilds
 * its index rather than trust the feed. Half the retention, so clocks that differ between
 * instances do not matter.
 */
export const FEED_REBUILD_AFTER_MS = FEED_KEEP_MS / 2;
const PRUNE_EVERY_MS = 5 * 60 * 1000;

/**
 * PostgreSQL transaction lock held from writing a feed entry until its commit. Entries are then
 * numbered in commit order: a poller never sees a later entry while an earlier one can still
 * commit, so moving past an id never skips a change (SQLite's single writer gives the same).
 * Advisory lock keys: checkpoints 0x1a3c_4b01, catalogue 0x1a3c_4b02, feed 0x1a3c_4b03.
 */
const FEED_LOCK = 0x1a3c_4b03;

/** Entries read at once. */
const FEED_BATCH = 500;

export type ChangeHandler = (change: DataChange) => Promise<void>;

function changeOf(row: { kind: string; permit_ids: string | null }): DataChange {
  return row.kind === 'all' || row.kind === 'lexicon' ? { kind: row.kind } : { kind: 'permits', permitIds: JSON.parse(row.permit_ids ?? '[]') as number[] };
}

function feedEntry(ctx: AppContext, change: DataChange) {
  return {
    origin: ctx.instanceId,
    kind: change.kind,
    permit_ids: change.kind === 'permits' ? JSON.stringify(change.permitIds) : null,
    created_at: nowIso(ctx.now),
  };
}

/**
 * Writes a change into the feed inside the transaction that makes it, as its last statement: the
 * entry commits or vanishes with the data, so no crash between the commit and the announcement
 * can leave the other instances' search indexes behind.
 */
export async function recordChange(ctx: AppContext, trx: Executor, change: DataChange): Promise<void> {
  for (const statement of changeStatements(ctx, change)) await trx.executeQuery(statement);
}

/** recordChange's statements, also for a transaction run on a driver connection of its own (a checkpoint restore). */
export function changeStatements(ctx: AppContext, change: DataChange): CompiledQuery[] {
  const lock = ctx.dbh.kind === 'postgres' ? [sql`select pg_advisory_xact_lock(${FEED_LOCK})`.compile(ctx.db)] : [];
  return [...lock, ctx.db.insertInto('data_changes').values(feedEntry(ctx, change)).compile()];
}

/**
 * The feed of committed data changes shared through the database, so that every instance on one
 * PostgreSQL database (or processes on one SQLite file, such as the command line next to the
 * server) keeps its search index fresh. Each write records its change in its own transaction
 * (recordChange); each instance polls for the others'. Polling (one indexed query per interval)
 * works the same on both databases.
 */
export class ChangeFeed {
  private lastSeen = 0;
  private timer: NodeJS.Timeout | null = null;
  private polling = false;
  private lastPrune = 0;
  /** When the feed was last read successfully. */
  private lastRead = 0;

  constructor(private readonly ctx: AppContext) {}

  /**
   * Remembers where the feed stands; call before loading state, so no later change is missed.
   * Read from the database the state is then loaded from: a read replica that lags behind has an
   * older feed position too, and the changes it has not replayed yet are then applied from the
   * primary's feed (applying a change twice is harmless: it re-reads the permits).
   */
  async mark(source: DB = this.ctx.db): Promise<void> {
    this.lastSeen = await this.latest(source);
    this.lastRead = this.ctx.now();
  }

  /** The last entry this instance has taken into account: its index holds every change up to it. */
  get position(): number {
    return this.lastSeen;
  }

  /** The newest entry of the feed. */
  async latest(source: DB = this.ctx.db): Promise<number> {
    const r = await source
      .selectFrom('data_changes')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirst();
    return Number(r?.id ?? 0);
  }

  /**
   * The largest id the feed ever gave an entry, pruned or not (SQLite's AUTOINCREMENT counter,
   * PostgreSQL's sequence): a position above it belongs to another database.
   */
  async highWater(): Promise<number> {
    const { rows } =
      this.ctx.dbh.kind === 'postgres'
        ? await sql<{ n: string | number | null }>`select pg_sequence_last_value(pg_get_serial_sequence('data_changes', 'id')::regclass) as n`.execute(
            this.ctx.db,
          )
        : await sql<{ n: string | number | null }>`select seq as n from sqlite_sequence where name = 'data_changes'`.execute(this.ctx.db);
    return Number(rows[0]?.n ?? 0);
  }

  /**
   * Applies every entry after `position`, whoever made it, until none is left: the changes made
   * since a snapshot of the index was taken at `position` (docs/search-snapshot.md). Answers how
   * many were applied.
   */
  async replayFrom(position: number, handler: ChangeHandler): Promise<number> {
    this.lastSeen = position;
    let applied = 0;
    for (;;) {
      const rows = await this.nextEntries();
      for (const row of rows) {
        await handler(changeOf(row));
        this.lastSeen = row.id;
        applied++;
      }
      this.lastRead = this.ctx.now();
      if (rows.length < FEED_BATCH) return applied;
    }
  }

  /** Milliseconds since the feed was last read successfully: the most this instance's index can lag. */
  get pollAgeMs(): number {
    return this.ctx.now() - this.lastRead;
  }

  start(handler: ChangeHandler): void {
    this.timer = setInterval(() => void this.poll(handler), FEED_POLL_MS);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The entries after the last one taken into account, oldest first, a batch at a time. */
  private nextEntries() {
    return this.ctx.db.selectFrom('data_changes').selectAll().where('id', '>', this.lastSeen).orderBy('id').limit(FEED_BATCH).execute();
  }

  /** Applies every change made elsewhere since the last poll, in order. */
  async poll(handler: ChangeHandler): Promise<void> {
    if (this.polling) return;
    this.polling = true;
    try {
      const rows = await this.nextEntries();
      if (this.ctx.now() - this.lastRead > FEED_REBUILD_AFTER_MS) await handler({ kind: 'all' });
      this.lastRead = this.ctx.now();
      for (const row of rows) {
        if (row.origin !== this.ctx.instanceId) {
          await handler(changeOf(row));
        }
        this.lastSeen = row.id;
      }
      if (this.ctx.now() - this.lastPrune > PRUNE_EVERY_MS) {
        this.lastPrune = this.ctx.now();
        await this.ctx.db
          .deleteFrom('data_changes')
          .where(
            'created_at',
            '<',
            nowIso(() => this.ctx.now() - FEED_KEEP_MS),
          )
          .execute();
      }
    } catch (err) {
      // A database outage is reported by /healthz and the routes; the feed simply tries again.
      this.ctx.log.debug({ err }, 'change feed poll failed');
    } finally {
      this.polling = false;
    }
  }
}
