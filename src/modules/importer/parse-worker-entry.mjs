// The parse worker's entry (parse-workers.ts starts it). The worker is started without the
// process's own flags, so it has no TypeScript loader of its own: compiled (dist/, `npm start` and
// the `lawrisk` command) it loads the compiled shell beside it; run from the source (vitest, `npm
// run dev`) it registers tsx for itself, for its own imports only, and loads the TypeScript shell.
import { existsSync } from 'node:fs';

const compiled = new URL('./parse-worker.js', import.meta.url);
if (existsSync(compiled)) {
  await import(compiled.href);
} else {
  const { tsImport } = await import('tsx/esm/api');
  await tsImport('./parse-worker.ts', import.meta.url);
}
