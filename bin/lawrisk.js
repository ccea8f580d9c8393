#!/usr/bin/env node
// The `lawrisk` command line, from the compiled code in dist/: built first when it is missing or
// older than its sources, as `npm start` does, so it runs right after `npm install` or a pull.
import { ensureServerBuilt } from '../scripts/build-server.mjs';

try {
  await ensureServerBuilt();
} catch (err) {
  process.stderr.write(`lawrisk: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
}
const { main } = await import('../dist/cli/main.js');
await main();
