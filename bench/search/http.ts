/**
 * Search throughput over HTTP against the real server (demo catalogue), next to /test-simple
 * measured in the same run on the same server:
 *   npx tsx bench/search/http.ts [--connections 50] [--seconds 10]
 * Target: /v2 throughput ≥ 50% of /test-simple's, with zero errors.
 */
import { loadCorpus } from './corpus.js';
import { startBenchServer } from '../load/bench-server.js';
import { devQueryRequests, loadLine as line, runLoad } from '../load/autocannon.js';
import { numberOption } from '../load/cli.js';

const connections = numberOption('connections', 50);
const seconds = numberOption('seconds', 10);
const run = (opts: { url: string; requests?: unknown[] }) => runLoad({ connections, duration: seconds, ...opts });

async function main(): Promise<void> {
  const server = await startBenchServer('demo');
  try {
    const requests = devQueryRequests();
    console.log(`${connections} connections, ${seconds} s each, ${requests.length} queries cycled`);
    const simple = await run({ url: `${server.api}/test-simple` });
    // Requests built once, as for /test-simple, so that the client's own work is the same.
    const search = await run({ url: `${server.api}/v2`, requests });
    // More distinct questions than the answer cache holds, cycled in order across all connections
    // (so built per request): every request misses.
    const corpus = loadCorpus();
    const texts = [...new Set(corpus.permits.flatMap((p) => [p.name, ...p.risks.map((r) => r.title)]))];
    const filters = [null, ...corpus.regions.map((r) => r.code)];
    const distinct = texts.flatMap((q) => filters.map((region) => JSON.stringify(region ? { query: q, region } : { query: q })));
    let nextDistinct = 0;
    const uncached = await run({
      url: `${server.api}/v2`,
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
    await server.dispose();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
