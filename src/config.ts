import { resolve } from 'node:path';
import { existsSync } from 'node:fs';
import { DEFAULT_PARSE_LIMITS } from './modules/importer/parser/parse-limits.js';

/** Every setting of the service, parsed and validated once at start-up. */
export interface Config {
  port: number;
  host: string;
  appPrefix: string;
  /** `/{APP_PREFIX}/api/workflow/lawrisk` */
  apiRoot: string;
  database: DatabaseTarget;
  /** Optional read-only replica used by the search index loader and read-only routes. */
  readDatabase: DatabaseTarget | null;
  dataDir: string;
  adminUsername: string;
  adminPassword: string | null;
  demoData: boolean;
  trustProxy: boolean;
  logLevel: LogLevel;
  searchRateLimit: number;
  /** Minutes between writes of the search index's snapshot when it changed; 0 turns snapshots off (docs/search-snapshot.md). */
  searchSnapshotMinutes: number;
  loginRateLimit: number;
  importMaxBytes: number;
  /** What one uploaded workbook may hold, counted before it is read (docs/import.md). */
  importMaxCells: number;
  importMaxSharedStrings: number;
  importMaxUncompressedBytes: number;
  /** Heap of the worker thread each parse runs in, in MB: past it the workbook is refused, the service keeps running. */
  importParseMemoryMb: number;
  /** Parses running at once on this instance; a further one waits up to importParseWaitMs, then gets 429. */
  importMaxParses: number;
  importParseWaitMs: number;
  /** Uploads and re-imports a minute per user; 0 turns the limit off. */
  importRateLimit: number;
  /** Bearer token that opens `/metrics` to other hosts; without one it answers loopback scrapes only. */
  metricsToken: string | null;
  /** Days the query log keeps what people asked; 0 turns it off (docs/query-log.md). */
  queryLogDays: number;
  /** The service's time zone as an offset from UTC, in minutes: where the search analytics' days begin. */
  utcOffsetMinutes: number;
}

export type DatabaseTarget = { kind: 'sqlite'; path: string; url: string } | { kind: 'postgres'; url: string };

export type LogLevel = 'fatal' | 'error' | 'warn' | 'info' | 'debug' | 'trace' | 'silent';
const LOG_LEVELS: LogLevel[] = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'];

/** A bad setting: the message names the setting and is printed as the one line before exit. */
export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

function setting(env: Env, name: string): string | undefined {
  const v = env[name];
  return v === undefined || v.trim() === '' ? undefined : v.trim();
}

function intSetting(env: Env, name: string, def: number, min: number, max: number): number {
  const raw = setting(env, name);
  if (raw === undefined) return def;
  if (!/^\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max} (got "${raw}")`);
  }
  return Number(raw);
}

function flagSetting(env: Env, name: string, def: boolean): boolean {
  const raw = setting(env, name);
  if (raw === undefined) return def;
  const v = raw.toLowerCase();
  if (['1', 'true', 'yes', 'on'].includes(v)) return true;
  if (['0', 'false', 'no', 'off'].includes(v)) return false;
  throw new ConfigError(`${name} must be 1/0, true/false, yes/no or on/off (got "${raw}")`);
}

export function parseDatabaseUrl(name: string, raw: string): DatabaseTarget {
  if (raw.startsWith('sqlite:')) {
    const path = raw.slice('sqlite:'.length).replace(/^\/\/(?=\/)/, '');
    if (!path) throw new ConfigError(`${name} must name a file after "sqlite:" (got "${raw}")`);
    return { kind: 'sqlite', path: path === ':memory:' ? path : resolve(path), url: raw };
  }
  if (/^postgres(ql)?:\/\/.+/.test(raw)) {
    try {
      new URL(raw);
    } catch {
      throw new ConfigError(`${name} is not a valid postgres:// URL`);
    }
    return { kind: 'postgres', url: raw };
  }
  throw new ConfigError(`${name} must start with "sqlite:" or "postgres://" (got "${raw.split(':')[0]}:…")`);
}

/** `+08:00`, `-05:30`, `Z`: an offset from UTC in minutes (at most 14 hours either way). */
function offsetSetting(env: Env, name: string, def: string): number {
  const raw = setting(env, name) ?? def;
  if (raw === 'Z') return 0;
  const m = /^([+-])(\d{2}):(\d{2})$/.exec(raw);
  const minutes = m ? (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3])) : NaN;
  if (!m || Number(m[3]) >= 60 || Math.abs(minutes) > 14 * 60)
    throw new ConfigError(`${name} must be an offset from UTC such as +08:00 or -05:30 (got "${raw}")`);
  return minutes;
}

export function loadConfig(env: Env = process.env): Config {
  const appPrefix = setting(env, 'APP_PREFIX') ?? 'app';
  if (!/^[A-Za-z0-9_-]{1,64}$/.test(appPrefix)) {
    throw new ConfigError(`APP_PREFIX must be one path segment of letters, digits, "-" or "_" (got "${appPrefix}")`);
  }
  const host = setting(env, 'HOST') ?? '127.0.0.1';
  if (/[\s/]/.test(host)) throw new ConfigError(`HOST must be a host name or address (got "${host}")`);

  const database = parseDatabaseUrl('DATABASE_URL', setting(env, 'DATABASE_URL') ?? 'sqlite:./data/lawrisk.db');
  const readUrl = setting(env, 'DATABASE_READ_URL');
  const readDatabase = readUrl ? parseDatabaseUrl('DATABASE_READ_URL', readUrl) : null;

  const logLevel = (setting(env, 'LOG_LEVEL') ?? 'info').toLowerCase() as LogLevel;
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')} (got "${logLevel}")`);
  }

  const adminUsername = (setting(env, 'ADMIN_USERNAME') ?? 'admin').toLowerCase();
  if (!/^[a-z0-9_.@-]{1,64}$/.test(adminUsername)) {
    throw new ConfigError(`ADMIN_USERNAME must be 1-64 letters, digits or _.@- (got "${adminUsername}")`);
  }
  const adminPassword = env.ADMIN_PASSWORD ? env.ADMIN_PASSWORD : null;
  if (adminPassword !== null && adminPassword.length < 8) {
    throw new ConfigError('ADMIN_PASSWORD must be at least 8 characters');
  }

  const metricsToken = setting(env, 'METRICS_TOKEN') ?? null;
  if (metricsToken !== null && !/^[\x21-\x7e]{16,256}$/.test(metricsToken)) {
    throw new ConfigError('METRICS_TOKEN must be 16-256 printable characters without spaces');
  }

  // DEMO_DATA defaults on only for an embedded database that does not exist yet.
  const newEmbedded = database.kind === 'sqlite' && (database.path === ':memory:' || !existsSync(database.path));

  return {
    port: intSetting(env, 'PORT', 8080, 0, 65535),
    host,
    appPrefix,
    apiRoot: `/${appPrefix}/api/workflow/lawrisk`,
    database,
    readDatabase,
    dataDir: resolve(setting(env, 'DATA_DIR') ?? './data'),
    adminUsername,
    adminPassword,
    demoData: flagSetting(env, 'DEMO_DATA', newEmbedded),
    trustProxy: flagSetting(env, 'TRUST_PROXY', false),
    logLevel,
    searchRateLimit: intSetting(env, 'SEARCH_RATE_LIMIT', 1200, 0, 10_000_000),
    searchSnapshotMinutes: intSetting(env, 'SEARCH_SNAPSHOT_MINUTES', 10, 0, 24 * 60),
    loginRateLimit: intSetting(env, 'LOGIN_RATE_LIMIT', 60, 0, 10_000_000),
    importMaxBytes: intSetting(env, 'IMPORT_MAX_BYTES', 20 * 1024 * 1024, 1024, 1024 * 1024 * 1024),
    importMaxCells: intSetting(env, 'IMPORT_MAX_CELLS', DEFAULT_PARSE_LIMITS.maxCells, 1, 100_000_000),
    importMaxSharedStrings: intSetting(env, 'IMPORT_MAX_SHARED_STRINGS', DEFAULT_PARSE_LIMITS.maxSharedStrings, 1, 100_000_000),
    importMaxUncompressedBytes: intSetting(env, 'IMPORT_MAX_UNCOMPRESSED_BYTES', DEFAULT_PARSE_LIMITS.maxUncompressedBytes, 1024 * 1024, 4 * 1024 ** 3),
    // Twice what a workbook at the default cell and shared-string limits needs (docs/import.md).
    importParseMemoryMb: intSetting(env, 'IMPORT_PARSE_MEMORY_MB', 384, 32, 64 * 1024),
    importMaxParses: intSetting(env, 'IMPORT_MAX_PARSES', 2, 1, 64),
    importParseWaitMs: intSetting(env, 'IMPORT_PARSE_WAIT_MS', 5000, 0, 600_000),
    importRateLimit: intSetting(env, 'IMPORT_RATE_LIMIT', 10, 0, 10_000_000),
    metricsToken,
    queryLogDays: intSetting(env, 'QUERY_LOG_DAYS', 90, 0, 3650),
    utcOffsetMinutes: offsetSetting(env, 'UTC_OFFSET', '+08:00'),
  };
}
