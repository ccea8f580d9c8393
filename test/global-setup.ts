import type { TestProject } from 'vitest/node';
import { ensureServerBuilt } from '../scripts/build-server.mjs';
import { startEmbeddedPostgres } from './helpers/embedded-postgres.js';

/**
 * Provides a real PostgreSQL server to the suites: TEST_DATABASE_URL when given (an admin URL
 * whose user may create databases), otherwise an embedded-postgres server started here.
 * LAWRISK_TEST_PG=0 skips PostgreSQL (quick local runs only; CI always runs it).
 * The suites run the source; the command line's tests run the real bin, which runs dist/: it is
 * rebuilt here when stale, once, before any suite runs.
 */
declare module 'vitest' {
  export interface ProvidedContext {
    pgAdminUrl: string | null;
  }
}

async function embeddedPostgres() {
  try {
    return await startEmbeddedPostgres();
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    const line = `PostgreSQL for the tests (embedded-postgres) did not start: ${why}. Set TEST_DATABASE_URL to the admin URL of a PostgreSQL server the tests may create databases on (or LAWRISK_TEST_PG=0 to run without PostgreSQL).`;
    // Without a stack: the reason and the remedy are the whole message.
    throw Object.assign(new Error(line), { stack: line });
  }
}

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  await ensureServerBuilt();
  if (process.env.LAWRISK_TEST_PG === '0') {
    project.provide('pgAdminUrl', null);
    return async () => {};
  }
  if (process.env.TEST_DATABASE_URL) {
    project.provide('pgAdminUrl', process.env.TEST_DATABASE_URL);
    return async () => {};
  }
  const server = await embeddedPostgres();
  project.provide('pgAdminUrl', server.adminUrl);
  return () => server.destroy();
}
