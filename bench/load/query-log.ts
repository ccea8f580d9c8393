/**
 * The query log's cost: autocannon against `POST /v2` (the labelled dev queries, cycled: most
 * answers come from the cache, where the log's share of the work is largest) on two freshly
 * started real servers with the demo catalogue, one with the log off (QUERY_LOG_DAYS=0) and one
 * with it on, measured in turns (off, on, off, on …) so that a drift of the machine touches both.
 *
 *   npx tsx bench/load/query-log.ts [--connections 50] [--seconds 15] [--rounds 4]
 *
 * Target: throughput with the log on ≥ 0.95 × off; zero errors, timeouts and non-2xx answers.
 */
import Database from 'better-sqlite3';
import { cpus, loadavg } from 'node:os';
import { ACCEPT_GZIP, devQueryRequests, failures, loadLine, runLoad, type LoadResult } from './autocannon.js';
import { startBenchServer, type BenchServer } from './bench-server.js';
import { numberOption } from './cli.js';

const connections = numberOption('connections', 50);
const seconds = numberOption('seconds', 15);
const rounds = numberOption('rounds', 4);

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
console.log(`${connections} connections, ${rounds} × ${seconds} s per setting; ${cpus().length} CPUs, load average ${load()}`);
const off = await startBenchServer('demo', undefined, { QUERY_LOG_DAYS: '0' });
const on = await startBenchServer('demo', undefined, { QUERY_LOG_DAYS: '90' });
const requests = devQueryRequests(ACCEPT_GZIP);
const results: Record<'off' | 'on', LoadResult[]> = { off: [], on: [] };
let failed = 0;
try {
  const run = async (server: BenchServer) => runLoad({ url: `${server.api}/v2`, connections, duration: seconds, requests });
  // A first pass on each warms the caches and the JIT; it is not counted.
  await run(off);
  await run(on);
  for (let r = 0; r < rounds; r++) {
    for (const [name, server] of [
      ['off', off],
      ['on', on],
    ] as const) {
      const result = await run(server);
      results[name].push(result);
      failed += failures(result);
      console.log(loadLine(`log ${name}`, result));
    }
  }
  await new Promise((resolve) => setTimeout(resolve, 1500));
} finally {
  await off.dispose();
  await on.stop();
}
const logged = new Database(on.dbPath, { readonly: true }).prepare('select count(*) as n from query_log').get() as { n: number };
await on.dispose();
const mean = (rs: LoadResult[]) => rs.reduce((s, r) => s + r.requests.average, 0) / rs.length;
const total = (rs: LoadResult[]) => rs.reduce((s, r) => s + r.requests.total, 0);
console.log(
  `\nmean req/s: off ${mean(results.off).toFixed(0)}, on ${mean(results.on).toFixed(0)}; on ÷ off ${(mean(results.on) / mean(results.off)).toFixed(3)} (target ≥ 0.95)`,
);
console.log(`entries in the log: ${logged.n} (requests answered with it on: ${total(results.on)} counted + the warm-up)`);
console.log(`load average at the end: ${load()}`);
console.log(failed === 0 ? 'zero errors, timeouts and non-2xx answers' : `FAILED: ${failed} errors, timeouts or non-2xx answers`);
if (failed > 0) process.exitCode = 1;
