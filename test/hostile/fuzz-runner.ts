import type { LightMyRequestResponse } from 'fastify';
import { dumpDifference, dumpTables, liveTableNames, watchDataChanges, type DataDump } from '../helpers/data-dump.js';
import { API } from '../helpers/test-app.js';
import type { FuzzWorld } from './fuzz-world.js';
import { hostileRequests, type CaseBudget, type HostileRequest, type RouteUnderTest } from './hostile-requests.js';
import { Random } from './random.js';
import { problemWith } from './response-check.js';

/**
 * Tables a refused request may legitimately change, or that change while it runs: the operation
 * log records every attempt (failures included, by design), sessions record when they were last
 * seen, login failures are what the per-username lockout counts, and the query log is written by
 * a timer off the request path, so the questions answered before land during later requests
 * (that a refused question is not logged is tested with the log itself). Everything else must be
 * byte for byte the same.
 */
export const ATTEMPT_TABLES = ['operation_logs', 'sessions', 'login_failures', 'query_log', 'query_log_salts'];

const SAFE = new Set(['GET', 'HEAD', 'OPTIONS']);

export interface FuzzFailure {
  seed: number;
  identity: string;
  request: HostileRequest;
  status: number;
  problem: string;
  body: string;
}

export interface FuzzReport {
  requests: number;
  byIdentity: Record<string, number>;
  failures: FuzzFailure[];
  /** The slowest requests (milliseconds, kind, method and path), for finding what makes the pass slow. */
  slowest: Array<[number, string]>;
  /** Milliseconds and requests per kind of request (the part before a colon), for tuning the budget. */
  byKind: Record<string, { ms: number; n: number }>;
}

const clip = (s: string, n = 300) => (s.length > n ? `${s.slice(0, n)}… (${s.length} characters)` : s);

export function describeFailure(f: FuzzFailure): string {
  const payload = f.request.payload === undefined ? '' : clip(Buffer.isBuffer(f.request.payload) ? f.request.payload.toString('latin1') : f.request.payload);
  return [
    `HOSTILE_SEED=${f.seed} ${f.identity} [${f.request.kind}] ${f.request.method} ${clip(f.request.url)}`,
    `  headers: ${JSON.stringify(f.request.headers)}`,
    payload ? `  payload: ${JSON.stringify(payload)}` : '',
    `  → ${f.status}: ${f.problem}`,
    `  body: ${clip(f.body, 600)}`,
  ]
    .filter(Boolean)
    .join('\n');
}

export interface Identity {
  name: string;
  /** The session cookie, renewed when a request (logout) ended it; null for anonymous. */
  cookie(): Promise<string | null>;
  /** Makes sure the identity still has its session; true when a new one had to be made. */
  renew(): Promise<boolean>;
}

/**
 * Sends every route's hostile requests as each identity, checks each answer, and compares the
 * data tables after every request that wrote a row: a refused request (4xx, a redirect) and any
 * GET must leave them exactly as they were; a successful change becomes the new reference.
 */
export async function runFuzzPass(
  world: FuzzWorld,
  identities: Identity[],
  seed: number,
  budget: (identity: string, route: RouteUnderTest) => CaseBudget,
): Promise<FuzzReport> {
  const { t } = world;
  const tables = await liveTableNames(t.dbh.db, ATTEMPT_TABLES);
  const dump = () => dumpTables(t.dbh.db, tables);
  const changes = await watchDataChanges(t.dbh, tables);
  let reference: DataDump = await dump();
  let counted = await changes();
  /** A new session for the identity is the test's doing, not a request's: the reference follows it. */
  const renew = async (identity: Identity) => {
    if (!(await identity.renew())) return;
    reference = await dump();
    counted = await changes();
  };
  const report: FuzzReport = { requests: 0, byIdentity: {}, failures: [], slowest: [], byKind: {} };
  const verbose = process.env.HOSTILE_VERBOSE === '1';
  // HOSTILE_ONLY=<part of "METHOD path"> replays one route's requests (with the printed seed).
  const only = process.env.HOSTILE_ONLY;

  for (const identity of identities) {
    report.byIdentity[identity.name] = 0;
    for (const route of world.routes) {
      if (only && !`${route.method} ${route.url}`.includes(only)) continue;
      const routeStarted = performance.now();
      const rng = Random.derive(seed, `${identity.name} ${route.method} ${route.url}`);
      for (const request of hostileRequests(route, rng, world.known, budget(identity.name, route))) {
        const cookie = await identity.cookie();
        const headers = { ...(cookie ? { cookie } : {}), ...request.headers };
        let res: LightMyRequestResponse;
        const sent = performance.now();
        try {
          res = await t.app.inject({ method: request.method as 'GET', url: request.url, headers, payload: request.payload });
        } catch (err) {
          report.failures.push({ seed, identity: identity.name, request, status: 0, problem: `inject threw ${String(err)}`, body: '' });
          continue;
        }
        report.requests++;
        const ms = performance.now() - sent;
        report.slowest.push([Math.round(ms), `${request.kind} ${request.method} ${clip(request.url, 80)}`]);
        const kind = (report.byKind[request.kind] ??= { ms: 0, n: 0 });
        kind.ms += ms;
        kind.n++;
        if (report.slowest.length > 20) report.slowest = report.slowest.sort((a, b) => b[0] - a[0]).slice(0, 10);
        report.byIdentity[identity.name]++;
        const fail = (problem: string, body = res.body) => {
          const failure = { seed, identity: identity.name, request, status: res.statusCode, problem, body };
          report.failures.push(failure);
          if (verbose) console.log(describeFailure(failure));
        };
        const problem = problemWith(res, request.url);
        if (problem) fail(problem);

        // The tables are compared only when a row was written (the counter moved) or a change was accepted.
        const count = await changes();
        const accepted = res.statusCode >= 200 && res.statusCode < 300 && !SAFE.has(request.method);
        if (count !== counted || accepted) {
          const after = await dump();
          const changed = JSON.stringify(after) !== JSON.stringify(reference);
          if (changed && !accepted) fail('data changed by a refused or read-only request', JSON.stringify(dumpDifference(reference, after)));
          reference = after;
          counted = count;
        }
        if (request.url.startsWith(`${API}/auth/`)) await renew(identity);
      }
      if (verbose) console.log(`${identity.name} ${route.method} ${route.url}: ${Math.round(performance.now() - routeStarted)} ms`);
      // A request that ended the session (a logout, a password change) must not silently turn the rest anonymous.
      await renew(identity);
    }
  }
  report.slowest = report.slowest.sort((a, b) => b[0] - a[0]).slice(0, 10);
  return report;
}
