// One start of the compiled service on a catalogue (bench/search/restart.ts runs it): the time
// from this process's start to ready, the heap once ready, and the snapshot write that follows a
// full build. Plain JavaScript on dist/, as `npm start` runs the service.
import { buildApp } from '../../dist/app.js';
import { loadConfig } from '../../dist/config.js';

const [database, dataDir] = process.argv.slice(2);
const config = loadConfig({ DATABASE_URL: `sqlite:${database}`, DATA_DIR: dataDir, DEMO_DATA: '0', LOG_LEVEL: 'info', ADMIN_PASSWORD: 'Bench-Restart-Pass-1' });
const log = [];
const { app } = await buildApp(config, { logStream: { write: (line) => log.push(JSON.parse(line).msg) } });
const readyMs = performance.now();
const index = app.searchIndex.current;
/** Heap and array buffers after collecting twice, a turn apart: the snapshot file's buffer is external memory, let go after the first. */
async function heap() {
  globalThis.gc();
  await new Promise((resolve) => setImmediate(resolve));
  globalThis.gc();
  const { heapUsed, arrayBuffers } = process.memoryUsage();
  return heapUsed + arrayBuffers;
}
const heapBytes = await heap();
const written = performance.now();
await app.searchIndex.snapshotWritten();
const writeMs = performance.now() - written;
const heapWrittenBytes = await heap();
await app.close();
const notes = log.filter((line) => /search index/.test(line ?? ''));
process.stdout.write(`${JSON.stringify({ readyMs, heapBytes, heapWrittenBytes, permits: index.size, writeMs, notes })}\n`);
