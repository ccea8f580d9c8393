// The parse worker's entry (parse-workers.ts starts it). The worker is started without the
// process's own flags, so it has no TypeScript loader whether the service runs under `npm start`
// (tsx), the `lawrisk` command or vitest: it registers tsx for itself, for its own imports only,
// and loads the TypeScript shell through it.
import { tsImport } from 'tsx/esm/api';

await tsImport('./parse-worker.ts', import.meta.url);
