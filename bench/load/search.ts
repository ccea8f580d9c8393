/**
 * Search under load: autocannon against `POST /v2` (the labelled dev queries, cycled) on the
 * demo catalogue and on the 100,000-permit / 1,000,000-risk scale catalogue, each on its own
 * freshly started real server, next to `/test-simple` measured in the same run on the same server.
 *
 *   npx tsx bench/load/search.ts [--catalogue both|demo|scale] [--connections 100] [--seconds 30]
 *                                [--permits 100000] [--risks-per-permit 10]
 *
 * Target: zero errors, zero timeouts, zero non-2xx answers. Exits 1 when any is seen.
 */
import { cpus, loadavg } from 'node:os';
import { ACCEPT_GZIP, devQueryRequests, failures, loadLine, runLoad } from './autocannon.js';
import { CATALOGUES, startBenchServer, type Catalogue } from './bench-server.js';
import { choiceOption, numberOption } from './cli.js';

const connections = numberOption('connections', 100);
const seconds = numberOption('seconds', 30);
const scale = { permits: numberOption('permits', 100_000), risksPerPermit: numberOption('risks-per-permit', 10) };
const which = choiceOption('catalogue', ['both', ...CATALOGUES], 'both');
const catalogues: Catalogue[] = which === 'both' ? [...CATALOGUES] : [which];

const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
console.log(`${connections} connections, ${seconds} s per route; ${cpus().length} CPUs, load average ${load()}`);
let failed = 0;
for (const catalogue of catalogues) {
  console.log(`\n${catalogue} catalogue`);
  const server = await startBenchServer(catalogue, scale);
  try {
    console.log(`server healthy ${server.startupSeconds.toFixed(1)} s after spawn (search index built)`);
    const simple = await runLoad({ url: `${server.api}/test-simple`, headers: ACCEPT_GZIP, connections, duration: seconds });
    const requests = devQueryRequests(ACCEPT_GZIP);
    const search = await runLoad({ url: `${server.api}/v2`, connections, duration: seconds, requests });
    console.log(loadLine('/test-simple', simple));
    console.log(loadLine('/v2', search) + `  (${requests.length} queries cycled)`);
    console.log(`ratio /v2 ÷ /test-simple: ${(search.requests.average / simple.requests.average).toFixed(2)}`);
    failed += failures(simple) + failures(search);
  } finally {
    await server.dispose();
  }
}
console.log(`\nload average at the end: ${load()}`);
console.log(failed === 0 ? 'zero errors, timeouts and non-2xx answers' : `FAILED: ${failed} errors, timeouts or non-2xx answers`);
if (failed > 0) process.exitCode = 1;
