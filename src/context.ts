import type { FastifyBaseLogger } from 'fastify';
import type { Config } from './config.js';
import { crashPoint } from './crash-point.js';
import type { DatabaseHandle } from './db/connect.js';
import type { DB } from './db/database.js';
import type { ParseSlots } from './modules/importer/parse-slots.js';
import type { ParseWorkers } from './modules/importer/parse-workers.js';
import type { ParsedWorkbookCache } from './modules/importer/parsed-workbook-cache.js';
import type { AppMetrics } from './modules/metrics/app-metrics.js';
import type { SearchDoc } from './modules/search/engine/types.js';

/**
 * What services need from the running application, built once by buildApp and passed down
 * explicitly (services never reach for globals).
 */
export interface AppContext {
  config: Config;
  dbh: DatabaseHandle;
  db: DB;
  /** Read-only database for search loading and read-only routes (the primary when no replica is set). */
  readDb: DB;
  /** The current request's logger while a request is handled (its lines carry the request id), else the app's. */
  log: FastifyBaseLogger;
  /** This instance's metrics, scraped at /metrics. */
  metrics: AppMetrics;
  /** Milliseconds since the epoch; replaced in tests that need to move time. */
  now: () => number;
  /** This process among the instances sharing the database: the origin of its change-feed entries. */
  instanceId: string;
  /** The parsed workbook of the import session worked with last (importer/parsed-workbook-cache.ts). */
  parsedWorkbooks: ParsedWorkbookCache;
  /** The workbook parses running on this instance, at most IMPORT_MAX_PARSES (importer/parse-slots.ts). */
  parseSlots: ParseSlots;
  /** The worker threads workbooks are parsed in, each heap capped at IMPORT_PARSE_MEMORY_MB (importer/parse-workers.ts). */
  parseWorkers: ParseWorkers;
  /** Hooks run after any committed change of searchable data (wired by the search module). */
  onDataChanged: Array<(change: DataChange) => void | Promise<void>>;
  /** What this instance still waits for before it can answer (the search index loading), in Chinese; none when ready (/readyz). */
  notReadyReasons: Array<() => string | null>;
}

export type DataChange =
  | {
      kind: 'permits';
      permitIds: number[];
      /**
       * Makes the current search documents of some of these permits from what the writer has at
       * hand (an import's new permits): this instance's index takes them instead of reading them
       * back. Called after the commit, and only by a process that has an index; never written to
       * the change feed (other instances read the permits).
       */
      docs?: () => SearchDoc[];
    }
  | { kind: 'all' }
  /** The administrators' search lexicon changed (docs/search-lexicon.md): the index reloads it, no rebuild. */
  | { kind: 'lexicon' };

/**
 * Tells this instance's listeners (its search index) that committed data changed. Never throws.
 * Other instances learn of it from the change-feed entry committed with the data
 * (modules/changes/change-transaction.ts).
 */
export async function dataChanged(ctx: AppContext, change: DataChange): Promise<void> {
  await crashPoint('data-changed');
  for (const listener of ctx.onDataChanged) {
    try {
      await listener(change);
    } catch (err) {
      ctx.log.error({ err }, 'data change listener failed');
    }
  }
}
