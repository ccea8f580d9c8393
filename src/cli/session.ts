import { existsSync } from 'node:fs';
import { randomUUID } from 'node:crypto';
import { loadConfig, type Config, type LogLevel } from '../config.js';
import type { AppContext, DataChange } from '../context.js';
import { connect } from '../db/connect.js';
import { pendingMigrations } from '../db/migrate.js';
import { recordChange } from '../modules/changes/change-feed.js';
import { AppMetrics } from '../modules/metrics/app-metrics.js';
import { CliError, EXIT } from './errors.js';
import type { CliIo } from './io.js';
import { cliLogger } from './logger.js';
import { cliOperator, type CliOperator } from './operator.js';
import { ParseSlots } from '../modules/importer/parse-slots.js';
import { ParseWorkers } from '../modules/importer/parse-workers.js';
import { ParsedWorkbookCache } from '../modules/importer/parsed-workbook-cache.js';

/** A command's connection to the service's database, with what services expect around it. */
export interface CliSession {
  config: Config;
  ctx: AppContext;
  operator: CliOperator;
  /**
   * Puts a change in the shared change feed, so every running instance's search index follows
   * it (within a second). Unlike the services' dataChanged, a failure here is the command's failure.
   */
  announce(change: DataChange): Promise<void>;
  close(): Promise<void>;
}

export interface OpenOptions {
  /** Only `migrate` may start a new SQLite file or work on a schema that is not up to date. */
  migrating?: boolean;
}

/** Settings as the service reads them; the command line logs warnings only unless LOG_LEVEL says otherwise. */
export function cliConfig(io: CliIo): { config: Config; logLevel: LogLevel } {
  const config = loadConfig(io.env);
  return { config, logLevel: io.env.LOG_LEVEL?.trim() ? config.logLevel : 'warn' };
}

/**
 * Opens DATABASE_URL. A SQLite file that does not exist is refused (a typo in the path must not
 * quietly start an empty database), and so is a schema behind this version: commands other than
 * `migrate` never change the schema under running instances.
 */
export async function openSession(io: CliIo, opts: OpenOptions = {}): Promise<CliSession> {
  const { config, logLevel } = cliConfig(io);
  const target = config.database;
  if (target.kind === 'sqlite' && target.path !== ':memory:' && !existsSync(target.path) && !opts.migrating) {
    throw new CliError(`no database file at ${target.path} (set DATABASE_URL, or create it with "lawrisk migrate")`, EXIT.unavailable);
  }
  const dbh = connect(config.database, { poolSize: 4 });
  try {
    if (!opts.migrating) {
      const pending = await pendingMigrations(dbh.db);
      if (pending.length > 0) {
        throw new CliError(`the database schema is not up to date (${pending.length} pending migrations): run "lawrisk migrate" first`);
      }
    }
  } catch (err) {
    await dbh.close();
    throw err;
  }
  const ctx: AppContext = {
    config,
    dbh,
    db: dbh.db,
    readDb: dbh.db,
    log: cliLogger(io.stderr, logLevel),
    now: Date.now,
    onDataChanged: [],
    notReadyReasons: [],
    parsedWorkbooks: new ParsedWorkbookCache(),
    parseSlots: new ParseSlots(config.importMaxParses, config.importParseWaitMs),
    parseWorkers: new ParseWorkers(config.importParseMemoryMb),
    // Services write their changes to the feed themselves, in their own transactions.
    instanceId: `cli:${randomUUID()}`,
    // Durations the services record; a command's own process has no /metrics to show them.
    metrics: new AppMetrics(),
  };
  return {
    config,
    ctx,
    operator: cliOperator(io.env),
    announce: (change) => ctx.db.transaction().execute((trx) => recordChange(ctx, trx, change)),
    close: async () => {
      await ctx.parseWorkers.close();
      await dbh.close();
    },
  };
}

/** Runs `work` on an open session and always closes it. */
export async function withSession<T>(io: CliIo, opts: OpenOptions, work: (s: CliSession) => Promise<T>): Promise<T> {
  const session = await openSession(io, opts);
  try {
    return await work(session);
  } finally {
    await session.close();
  }
}
