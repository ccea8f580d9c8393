/**
 * Search throughput over HTTP against the real server (demo catalogue), next to /test-simple
 * measured in the same run on the same server:
 *   npx tsx bench/search/http.ts [--connections 50] [--seconds 10]
 * Target: /v2 throughput ≥ 50% of /test-simple's, with zero errors.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
// @ts-expect-error autocannon ships no type declarations
import autocannon from 'autocannon';
import { loadCorpus, loadQueries } from './corpus.js';
import { startServer } from '../../test/helpers/server-process.js';

const API = '/app/api/workflow/lawrisk';
const arg = (name: string, def: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : def;
};
const connections = arg('connections', 50);
const seconds = arg('seconds', 10);

interface Result {
  requests: { average: number };
  latency: { p50: number; p99: number };
  errors: number;
  timeouts: number;
  non2xx: number;
}

function run(opts: Record<string, unknown>): Promise<Result> {
  return new Promise((resolve, reject) => {
    autocannon({ connections, duration: seconds, ...opts }, (err: Error | null, res: Result) => (err ? reject(err) : resolve(res)));
  });
}

const line = (name: string, r: Result) =>
  `${name.padEnd(12)} ${r.requests.average.toFixed(0).padStart(7)} req/s  p50 ${String(r.latency.p50).padStart(4)} ms  p99 ${String(r.latency.p99).padStart(4)} ms  errors ${r.errors}  timeouts ${r.timeouts}  non-2xx ${r.non2xx}`;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'lawrisk-bench-'));
  const server = await startServer({
    DATA_DIR: dir, DATABASE_URL: `sqlite:${join(dir, 'bench.db')}`, DEMO_DATA: '1', ADMIN_PASSWORD: 'Bench-Admin-Pass-1',
    SEARCH_RATE_LIMIT: '0', LOG_LEVEL: 'warn',
  });
  try {
    const bodies = loadQueries().map((q) => JSON.stringify(q.region ? { query: q.query, region: q.region } : { query: q.query }));
    console.log(`${connections} connections, ${seconds} s each, ${bodies.length} queries cycled`);
    const simple = await run({ url: `${server.base}${API}/test-simple` });
    // Requests built once, as for /test-simple, so that the client's own work is the same.
    const search = await run({
      url: `${server.base}${API}/v2`,
      requests: bodies.map((body) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body })),
    });
    // More distinct questions than the answer cache holds, cycled in order across all connections
    // (so built per request): every request misses.
    const corpus = loadCorpus();
    const texts = [...new Set(corpus.permits.flatMap((p) => [p.name, ...p.risks.map((r) => r.title)]))];
    const filters = [null, ...corpus.regions.map((r) => r.code)];
    const distinct = texts.flatMap((q) => filters.map((region) => JSON.stringify(region ? { query: q, region } : { query: q })));
    let nextDistinct = 0;
    const uncached = await run({
      url: `${server.base}${API}/v2`,
      requests: [{
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        setupRequest: (req: Record<string, unknown>) => ({ ...req, body: distinct[nextDistinct++ % distinct.length] }),
      }],
    });
    console.log(line('/test-simple', simple));
    console.log(line('/v2', search));
    console.log(line('/v2 uncached', uncached) + `  (${distinct.length} distinct queries)`);
    console.log(`ratio /v2 ÷ /test-simple: ${(search.requests.average / simple.requests.average).toFixed(2)} (target ≥ 0.50); uncached ${(uncached.requests.average / simple.requests.average).toFixed(2)}`);
  } finally {
    await server.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
