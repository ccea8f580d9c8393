import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyServerOptions, type RouteOptions } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import type { Config } from './config.js';
import { connect, type DatabaseHandle } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import type { AppContext } from './context.js';
import { answerRouterError, registerErrorHandler } from './http/error-handler.js';
import { AppError } from './http/errors.js';
import { registerGuards } from './http/guards.js';
import { LOGGED_IN_BODY_LIMIT, registerRequestBodyRules } from './http/request-body.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { AccessLogController, currentLogger, registerRequestLogContext } from './http/request-logging.js';
import { registerTextInputGuard } from './http/text-input.js';
import { registerApiDocs } from './http/openapi/api-docs.js';
import { ensureDefaultAdmin } from './modules/auth/bootstrap-admin.js';
import { registerMustChangePassword } from './modules/auth/must-change-password.js';
import { registerSessionResolver, sessionTokenOf } from './modules/auth/session-cookie.js';
import { registerModuleRoutes } from './modules/routes.js';
import { removeCheckpointLeftovers } from './modules/checkpoints/sqlite-checkpoint-store.js';
import { prepareImportFiles } from './modules/files/import-template.js';
import { AppMetrics } from './modules/metrics/app-metrics.js';
import { registerHttpMetrics, registerMetricsRoute } from './modules/metrics/metrics.routes.js';
import { MULTIPART_LIMITS } from './modules/importer/multipart-form.js';
import { ParseSlots } from './modules/importer/parse-slots.js';
import { ParseWorkers } from './modules/importer/parse-workers.js';
import { ParsedWorkbookCache } from './modules/importer/parsed-workbook-cache.js';
import { registerOperationRecorder } from './modules/operation-log/operation-recorder.js';
import { registerPageRoutes } from './pages/pages.routes.js';

export interface BuildOptions {
  /** An already open database (tests share one per file); otherwise one is opened from config. */
  dbh?: DatabaseHandle;
  /** Where the built web pages live (default: web/dist of the project). */
  pagesDir?: string;
  /** Clock for sessions, lockout and timestamps. */
  now?: () => number;
  /** Fastify logger option; defaults to `loggerOptions(config)`. */
  logger?: FastifyServerOptions['logger'];
  /** Load the search analysis dictionaries at start-up (default), not on first use. Tests skip it. */
  warmUp?: boolean;
  /** Told of every route as it is registered (the route-matrix and hostile-input tests cover each one this way). */
  onRoute?: (route: RouteOptions) => void;
  /** Where the default JSON logs go (standard output unless given; tests capture them). */
  logStream?: { write(line: string): void };
  /** Called on the new instance before any plugin or route (tests watch routes and responses from here). */
  instrument?: (app: FastifyInstance) => void;
  /**
   * Resolve only once the search index is loaded (default). The server passes false: it listens
   * at once and says it is not ready (/readyz, 503 from the search) until the index is loaded.
   */
  waitForSearchIndex?: boolean;
}

export interface BuiltApp {
  app: FastifyInstance;
  ctx: AppContext;
}

const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export const DEFAULT_PAGES_DIR = fileURLToPath(new URL('../web/dist/', import.meta.url));

/** Credential headers (the session cookie above all) wherever a logged object holds headers. */
const REDACTED_PATHS = [
  'headers.cookie',
  'headers.authorization',
  'headers["set-cookie"]',
  '*.headers.cookie',
  '*.headers.authorization',
  '*.headers["set-cookie"]',
  '*.*.headers.cookie',
  '*.*.headers.authorization',
  '*.*.headers["set-cookie"]',
];

/**
 * JSON logs at the configured level. Fastify's request serializer logs no headers and no bodies,
 * but plugins may log headers at debug and trace level (the multipart plugin logs the request's
 * headers, cookie included, as `busboyOptions.headers`): credential headers are redacted in any
 * logged object, up to two levels down.
 */
export function loggerOptions(config: Pick<Config, 'logLevel'>) {
  return { level: config.logLevel, redact: REDACTED_PATHS };
}

/** Builds the whole application (plugins → hooks → modules → error handler) without listening. */
export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<BuiltApp> {
  const ownsDb = !opts.dbh;
  const dbh = opts.dbh ?? connect(config.database);
  // The read replica is never migrated: it follows the primary.
  const readDbh = config.readDatabase ? connect(config.readDatabase) : null;
  await migrateToLatest(dbh);

  const app = Fastify({
    logger: opts.logger ?? { ...loggerOptions(config), ...(opts.logStream ? { stream: opts.logStream } : {}) },
    // One access line per request instead of Fastify's two (request-logging.ts).
    logController: new AccessLogController(),
    trustProxy: config.trustProxy,
    bodyLimit: LOGGED_IN_BODY_LIMIT,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
    frameworkErrors: answerRouterError,
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  });
  registerRequestBodyRules(app, config.apiRoot);
  if (opts.onRoute) app.addHook('onRoute', opts.onRoute);
  opts.instrument?.(app);
  // First, so plugins with routes of their own (Swagger UI) answer their failures through it too.
  registerErrorHandler(app);

  const ctx: AppContext = {
    config,
    dbh,
    db: dbh.db,
    readDb: readDbh?.db ?? dbh.db,
    get log() {
      return currentLogger(app.log);
    },
    metrics: new AppMetrics(),
    now: opts.now ?? Date.now,
    instanceId: randomUUID(),
    parsedWorkbooks: new ParsedWorkbookCache(),
    parseSlots: new ParseSlots(config.importMaxParses, config.importParseWaitMs),
    parseWorkers: new ParseWorkers(config.importParseMemoryMb),
    onDataChanged: [],
    notReadyReasons: [],
  };

  registerRequestLogContext(app);
  registerHttpMetrics(app, ctx);
  await app.register(cookie);
  await app.register(formbody);
  await app.register(multipart, { limits: { fileSize: config.importMaxBytes, ...MULTIPART_LIMITS } });
  registerSecurityHeaders(app, config.trustProxy);
  await app.register(rateLimit, { global: false, errorResponseBuilder: () => new AppError(429, '请求过于频繁，请稍后再试') });
  await registerApiDocs(app, config);

  registerSessionResolver(app, ctx);
  registerGuards(app, config.apiRoot, (req) => sessionTokenOf(req) !== null);
  registerTextInputGuard(app);
  registerMustChangePassword(app, config.apiRoot);
  registerOperationRecorder(app, ctx);

  // onClose hooks run last-registered first: the databases close after every module's own
  // close (the query log writes what is waiting, the change feed stops).
  app.addHook('onClose', async () => {
    await ctx.parseWorkers.close();
    if (readDbh) await readDbh.close();
    if (ownsDb) await dbh.close();
  });

  await registerModuleRoutes(app, ctx, { warmUp: opts.warmUp ?? true });
  registerPageRoutes(app, ctx, opts.pagesDir ?? DEFAULT_PAGES_DIR);
  registerMetricsRoute(app, ctx, readDbh);

  await ensureDefaultAdmin(ctx);
  await prepareImportFiles(ctx);
  await removeCheckpointLeftovers(ctx);
  if (opts.waitForSearchIndex ?? true) await app.searchIndex.whenReady();
  return { app, ctx };
}
