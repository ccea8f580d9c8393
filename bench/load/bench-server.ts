import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startServer, type ServerProcess } from '../../test/helpers/server-process.js';
import { scaleDocs, writeScaleCatalogue, type ScaleOptions } from './scale-catalogue.js';

export const API = '/app/api/workflow/lawrisk';

export const CATALOGUES = ['demo', 'scale'] as const;
export type Catalogue = (typeof CATALOGUES)[number];

export interface BenchServer {
  proc: ServerProcess;
  /** `http://127.0.0.1:<port>`: also the Origin of state-changing requests. */
  base: string;
  /** `{api_root}`. */
  api: string;
  /** The generated password given as ADMIN_PASSWORD. */
  adminPassword: string;
  dbPath: string;
  /** From spawning the process to its first `/readyz` 200: its search index built (a fresh catalogue has no snapshot). */
  startupSeconds: number;
  /** Stops the process (the database file stays, to be read afterwards). */
  stop(): Promise<void>;
  /** Stops the process and removes the temporary directory with the database. */
  dispose(): Promise<void>;
}

/** Up to 20 minutes to become ready: building the index of a million risks on a slow machine. */
const STARTUP_LIMIT_MS = 20 * 60_000;

/**
 * The real server on a fresh SQLite database in a temporary directory: the demo catalogue
 * (DEMO_DATA=1, imported through the import path at start-up) or the synthetic scale catalogue
 * (written beforehand). The search and upload rate limits are off: the bench is one client asking a lot.
 */
export async function startBenchServer(catalogue: Catalogue, scale?: ScaleOptions, env: Record<string, string> = {}): Promise<BenchServer> {
  const dir = mkdtempSync(join(tmpdir(), 'lawrisk-load-'));
  const dbPath = join(dir, 'bench.db');
  try {
    if (catalogue === 'scale') {
      const written = await writeScaleCatalogue(dbPath, scaleDocs(scale ?? { permits: 100_000, risksPerPermit: 10 }));
      console.log(
        `scale catalogue: ${written.regions} regions, ${written.permits} permits, ${written.risks} risks, ` + `written in ${written.seconds.toFixed(1)} s`,
      );
    }
    const adminPassword = randomBytes(12).toString('base64url');
    const started = process.hrtime.bigint();
    const proc = await startServer(
      {
        DATA_DIR: dir,
        DATABASE_URL: `sqlite:${dbPath}`,
        DEMO_DATA: catalogue === 'demo' ? '1' : '0',
        ADMIN_PASSWORD: adminPassword,
        SEARCH_RATE_LIMIT: '0',
        IMPORT_RATE_LIMIT: '0',
        LOG_LEVEL: 'warn',
        ...env,
      },
      { healthyWithinMs: STARTUP_LIMIT_MS },
    );
    const startupSeconds = Number(process.hrtime.bigint() - started) / 1e9;
    return {
      proc,
      base: proc.base,
      api: `${proc.base}${API}`,
      adminPassword,
      dbPath,
      startupSeconds,
      async stop() {
        await proc.stop();
      },
      async dispose() {
        await proc.stop();
        rmSync(dir, { recursive: true, force: true });
      },
    };
  } catch (err) {
    rmSync(dir, { recursive: true, force: true });
    throw err;
  }
}
