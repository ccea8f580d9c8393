/**
 * Search throughput over HTTP against the real server (demo catalogue), next to /test-simple
 * measured in the same run on the same server:
 *   npx tsx bench/search/http.ts [--connections 50] [--seconds 10]
 * Target: /v2 throughput ≥ 50% of /test-simple's, with zero errors.
 * Both are asked as browsers and HTTP client libraries ask (`Accept-Encoding: gzip`), so /v2's
 * answers come compressed; /v2 is also measured without it (plain answers, about nine times the bytes).
 */
import { loadCorpus } from './corpus.js';
import { startBenchServer } from '../load/bench-server.js';
import { ACCEPT_GZIP as gzip, devQueryRequests, loadLine as line, runLoad } from '../load/autocannon.js';
import { numberOption } from '../load/cli.js';

const connections = numberOption('connections', 50);
const seconds = numberOption('seconds', 10);
const run = (opts: { url: string; requests?: unknown[]; headers?: Record<string, string> }) => runLoad({ connections, duration: seconds, ...opts });

async function main(): Promise<void> {
  const server = await startBenchServer('demo');
  try {
    const requests = devQueryRequests(gzip);
    console.log(`${connections} connections, ${seconds} s each, ${requests.length} queries cycled`);
    const simple = await run({ url: `${server.api}/test-simple`, headers: gzip });
    // Requests built once, as for /test-simple, so that the client's own work is the same.
    const search = await run({ url: `${server.api}/v2`, requests });
    const plain = await run({ url: `${server.api}/v2`, requests: devQueryRequests() });
    // More distinct questions than the answer cache holds, cycled in order across all connections
    // (so built per request): every request misses.
    const corpus = loadCorpus();
    const texts = [...new Set(corpus.permits.flatMap((p) => [p.name, ...p.risks.map((r) => r.title)]))];
    const filters = [null, ...corpus.regions.map((r) => r.code)];
    const distinct = texts.flatMap((q) => filters.map((region) => JSON.stringify(region ? { query: q, region } : { query: q })));
    let nextDistinct = 0;
    const uncached = await run({
      url: `${server.api}/v2`,
      requests: [
        {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...gzip },
          setupRequest: (req: Record<string, unknown>) => ({ ...req, body: distinct[nextDistinct++ % distinct.length] }),
        },
      ],
    });
    console.log(line('/test-simple', simple));
    console.log(line('/v2', search));
    console.log(line('/v2 plain', plain) + '  (no Accept-Encoding: uncompressed answers)');
    console.log(line('/v2 uncached', uncached) + `  (${distinct.length} distinct queries)`);
    const ratio = (r: { requests: { average: number } }) => (r.requests.average / simple.requests.average).toFixed(2);
    console.log(`ratio /v2 ÷ /test-simple: ${ratio(search)} (target ≥ 0.50); plain ${ratio(plain)}; uncached ${ratio(uncached)}`);
  } finally {
    await server.dispose();
  }
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
