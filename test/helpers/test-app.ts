import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { buildApp, type BuildOptions } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import type { AppContext } from '../../src/context.js';
import type { DatabaseHandle, DialectKind } from '../../src/db/connect.js';
import { createTestDatabase, type TestDatabase } from './databases.js';
import { watchResponses, type SeenRoute } from './openapi-check.js';

export const ADMIN_PASSWORD = 'Admin-Test-Pass-1';
export const API = '/app/api/workflow/lawrisk';

export interface TestApp {
  app: FastifyInstance;
  ctx: AppContext;
  config: Config;
  database: TestDatabase;
  dbh: DatabaseHandle;
  /** The routes the application registered (HEAD excluded), as the OpenAPI coverage test sees them. */
  routes: SeenRoute[];
  /** Logs in through the real route and returns the Cookie header value. */
  login(username?: string, password?: string): Promise<string>;
  /** A second app on the same database (a restart, or another instance). */
  reopen(extra?: Partial<BuildOptions>): Promise<{ app: FastifyInstance; ctx: AppContext }>;
  close(): Promise<void>;
}

export function testConfig(database: Pick<TestDatabase, 'url' | 'dataDir'>, env: Record<string, string> = {}): Config {
  return loadConfig({ DATABASE_URL: database.url, DATA_DIR: database.dataDir, ADMIN_PASSWORD, DEMO_DATA: '0', LOG_LEVEL: 'silent', ...env });
}

export function cookieOf(res: LightMyRequestResponse): string {
  const set = res.headers['set-cookie'];
  const first = Array.isArray(set) ? set[0] : set;
  if (!first) throw new Error(`no cookie set (status ${res.statusCode}: ${res.body})`);
  return first.split(';')[0];
}

/**
 * Builds the application with every response checked against its OpenAPI document
 * (test/helpers/openapi-check.ts): the suite's responses are the document's test.
 */
async function buildCheckedApp(config: Config, opts: BuildOptions) {
  let watch: ReturnType<typeof watchResponses> | undefined;
  const built = await buildApp(config, {
    ...opts,
    instrument: (app) => {
      watch = watchResponses(app, config.apiRoot);
      opts.instrument?.(app);
    },
  });
  watch!.seal();
  // A full build writes the index's snapshot in the background: tests that list the data folder
  // or close the app at once see it done.
  await built.app.searchIndex.snapshotWritten();
  return { ...built, routes: watch!.routes };
}

/** A fresh database of the given kind with the whole application built on it. */
export async function buildTestApp(kind: DialectKind = 'sqlite', opts: { env?: Record<string, string>; build?: Partial<BuildOptions> } = {}): Promise<TestApp> {
  const database = await createTestDatabase(kind);
  const config = testConfig(database, opts.env);
  const dbh = database.open();
  const { routes, ...built } = await buildCheckedApp(config, { dbh, logger: false, warmUp: false, ...opts.build });
  const extra: FastifyInstance[] = [];
  const extraDbs: DatabaseHandle[] = [];
  return {
    ...built,
    config,
    database,
    dbh,
    routes,
    async login(username = 'admin', password = ADMIN_PASSWORD) {
      const res = await built.app.inject({ method: 'POST', url: `${API}/auth/login`, payload: { username, password } });
      return cookieOf(res);
    },
    async reopen(more = {}) {
      const h = database.open();
      extraDbs.push(h);
      const { routes: _routes, ...again } = await buildCheckedApp(config, { dbh: h, logger: false, warmUp: false, ...opts.build, ...more });
      extra.push(again.app);
      return again;
    },
    async close() {
      for (const a of extra) await a.close();
      for (const h of extraDbs) await h.close();
      await built.app.close();
      await dbh.close();
      await database.drop();
    },
  };
}
