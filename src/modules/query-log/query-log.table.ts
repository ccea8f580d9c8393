import type { Generated } from 'kysely';

/**
 * One answered /v2 question (docs/query-log.md). What is kept is the minimum the analytics need:
 * no address, cookie or user — only, to count distinct askers, a hash of the address under a salt
 * that lives for one day.
 */
export interface QueryLogTable {
  id: Generated<number>;
  asked_at: string;
  /** The question as the engine reads it, personal data masked. */
  query: string;
  /** The region ids the filter resolved to, comma-separated; null without a filter, '' when it named no region. */
  region_ids: string | null;
  result_count: number;
  /** The first permit ids of the answer, comma-separated, best first. */
  top_permit_ids: string;
  status: 'ok' | 'no_match';
  latency_us: number;
  channel: string;
  /** The asker's address hashed under the day's salt; null when the address is unknown. */
  asker: string | null;
}

/** The salt of each day for the askers' hashes, shared by every instance and deleted once its day is over. */
export interface QueryLogSaltsTable {
  day: string;
  salt: string;
}

export interface Tables {
  query_log: QueryLogTable;
  query_log_salts: QueryLogSaltsTable;
}
