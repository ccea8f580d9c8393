// @ts-expect-error autocannon ships no type declarations
import autocannon from 'autocannon';
import { loadQueries } from '../search/corpus.js';

/** The parts of autocannon's result the benches print. */
export interface LoadResult {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

export interface LoadOptions {
  url: string;
  connections: number;
  /** Seconds. */
  duration: number;
  [option: string]: unknown;
}

export function runLoad(opts: LoadOptions): Promise<LoadResult> {
  return new Promise((resolve, reject) => {
    autocannon(opts, (err: Error | null, res: LoadResult) => (err ? reject(err) : resolve(res)));
  });
}

/** What browsers and HTTP client libraries send: /v2 answers them gzip-compressed. */
export const ACCEPT_GZIP: Record<string, string> = { 'accept-encoding': 'gzip' };

/**
 * The labelled dev queries as prebuilt `POST /v2` requests (autocannon cycles them on every
 * connection), so the client does as little work per request as for `/test-simple`. `headers`
 * adds to each (say `accept-encoding`).
 */
export function devQueryRequests(headers: Record<string, string> = {}): { method: string; headers: Record<string, string>; body: string }[] {
  return loadQueries().map((q) => ({
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(q.region ? { query: q.query, region: q.region } : { query: q.query }),
  }));
}

/** Any error, timeout or non-2xx answer. */
export const failures = (r: LoadResult) => r.errors + r.timeouts + r.non2xx;

export const loadLine = (name: string, r: LoadResult) =>
  `${name.padEnd(14)} ${r.requests.average.toFixed(0).padStart(7)} req/s  p50 ${String(r.latency.p50).padStart(4)} ms  ` +
  `p99 ${String(r.latency.p99).padStart(4)} ms  errors ${r.errors}  timeouts ${r.timeouts}  non-2xx ${r.non2xx}`;
