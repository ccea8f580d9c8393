import type { AppContext, DataChange } from '../../context.js';
import { nowIso } from '../../db/dialect.js';

/** How often an instance looks for other instances' changes: well inside the 1 s freshness promise. */
export const FEED_POLL_MS = 250;
/** Feed entries older than this are pruned; an instance that was away longer rebuilds fully. */
const FEED_KEEP_MS = 60 * 60 * 1000;
const PRUNE_EVERY_MS = 5 * 60 * 1000;

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

  constructor(private readonly ctx: AppContext, private readonly origin: string) {}

  /** Remembers where the feed stands; call before loading state, so no later change is missed. */
  async mark(): Promise<void> {
    const r = await this.ctx.db.selectFrom('data_changes').select((eb) => eb.fn.max('id').as('id')).executeTakeFirst();
    this.lastSeen = Number(r?.id ?? 0);
  }

  async record(change: DataChange): Promise<void> {
    await this.ctx.db
      .insertInto('data_changes')
      .values({
        origin: this.origin,
        kind: change.kind,
        permit_ids: change.kind === 'permits' ? JSON.stringify(change.permitIds) : null,
        created_at: nowIso(this.ctx.now),
      })
      .execute();
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
      const rows = await this.ctx.db
        .selectFrom('data_changes')
        .selectAll()
        .where('id', '>', this.lastSeen)
        .orderBy('id')
        .limit(500)
        .execute();
      for (const row of rows) {
        if (row.origin !== this.origin) {
          await handler(row.kind === 'all' ? { kind: 'all' } : { kind: 'permits', permitIds: JSON.parse(row.permit_ids ?? '[]') });
        }
        this.lastSeen = row.id;
      }
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
