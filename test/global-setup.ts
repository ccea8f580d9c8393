import type { TestProject } from 'vitest/node';
import { startEmbeddedPostgres } from './helpers/embedded-postgres.js';

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

export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  if (process.env.LAWRISK_TEST_PG === '0') {
    project.provide('pgAdminUrl', null);
    return async () => {};
  }
  if (process.env.TEST_DATABASE_URL) {
    project.provide('pgAdminUrl', process.env.TEST_DATABASE_URL);
    return async () => {};
  }
  const server = await startEmbeddedPostgres();
  project.provide('pgAdminUrl', server.adminUrl);
  return () => server.destroy();
}
