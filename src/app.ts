import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import cookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import type { Config } from './config.js';
import { connect, type DatabaseHandle } from './db/connect.js';
import { migrateToLatest } from './db/migrate.js';
import type { AppContext } from './context.js';
import { registerErrorHandler } from './http/error-handler.js';
import { AppError } from './http/errors.js';
import { registerGuards } from './http/guards.js';
import { registerApiDocs } from './http/openapi/api-docs.js';
import { ensureDefaultAdmin } from './modules/auth/bootstrap-admin.js';
import { registerMustChangePassword } from './modules/auth/must-change-password.js';
import { registerSessionResolver, sessionTokenOf } from './modules/auth/session-cookie.js';
import { registerModuleRoutes } from './modules/routes.js';
import { prepareImportFiles } from './modules/files/import-template.js';
import { registerOperationRecorder } from './modules/operation-log/operation-recorder.js';
import { registerPageRoutes } from './pages/pages.routes.js';

export interface BuildOptions {
  /** An already open database (tests share one per file); otherwise one is opened from config. */
  dbh?: DatabaseHandle;
  /** Where the built web pages live (default: web/dist of the project). */
  pagesDir?: string;
  /** Clock for sessions, lockout and timestamps. */
  now?: () => number;
  /** Fastify logger option; defaults to JSON logs at the configured level. */
  logger?: FastifyServerOptions['logger'];
  /** Called on the new instance before any plugin or route (tests watch routes and responses from here). */
  instrument?: (app: FastifyInstance) => void;
}

export interface BuiltApp {
  app: FastifyInstance;
  ctx: AppContext;
}

const JSON_BODY_LIMIT = 1024 * 1024;
const REQUEST_ID = /^[A-Za-z0-9._-]{1,64}$/;

export const DEFAULT_PAGES_DIR = fileURLToPath(new URL('../web/dist/', import.meta.url));

/** Builds the whole application (plugins → hooks → modules → error handler) without listening. */
export async function buildApp(config: Config, opts: BuildOptions = {}): Promise<BuiltApp> {
  const ownsDb = !opts.dbh;
  const dbh = opts.dbh ?? connect(config.database);
  const readDbh = config.readDatabase && ownsDb ? connect(config.readDatabase) : null;
  await migrateToLatest(dbh.db);

  const app = Fastify({
    logger: opts.logger ?? {
      level: config.logLevel,
      redact: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
    },
    trustProxy: config.trustProxy,
    bodyLimit: JSON_BODY_LIMIT,
    genReqId: (req) => {
      const given = req.headers['x-request-id'];
      return typeof given === 'string' && REQUEST_ID.test(given) ? given : randomUUID();
    },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, allErrors: false } },
    forceCloseConnections: 'idle',
    return503OnClosing: true,
  });
  opts.instrument?.(app);

  const ctx: AppContext = {
    config,
    dbh,
    db: dbh.db,
    readDb: readDbh?.db ?? dbh.db,
    log: app.log,
    now: opts.now ?? Date.now,
    onDataChanged: [],
  };

  await app.register(cookie);
  await app.register(formbody, { bodyLimit: JSON_BODY_LIMIT });
  await app.register(multipart, {
    limits: { fileSize: config.importMaxBytes, files: 1, fields: 20, parts: 30, fieldSize: 64 * 1024 },
  });
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        imgSrc: ["'self'", 'data:', 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    frameguard: { action: 'deny' },
    referrerPolicy: { policy: 'same-origin' },
    hsts: config.trustProxy,
    crossOriginEmbedderPolicy: false,
  });
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: () => new AppError(429, '请求过于频繁，请稍后再试'),
  });
  await registerApiDocs(app, config);

  registerSessionResolver(app, ctx);
  registerGuards(app, config.apiRoot, (req) => sessionTokenOf(req) !== null);
  registerMustChangePassword(app, config.apiRoot);
  registerOperationRecorder(app, ctx);

  await registerModuleRoutes(app, ctx);
  registerPageRoutes(app, ctx, opts.pagesDir ?? DEFAULT_PAGES_DIR);

  registerErrorHandler(app);

  app.addHook('onClose', async () => {
    if (readDbh) await readDbh.close();
    if (ownsDb) await dbh.close();
  });

  await ensureDefaultAdmin(ctx);
  await prepareImportFiles(ctx);
  return { app, ctx };
}
