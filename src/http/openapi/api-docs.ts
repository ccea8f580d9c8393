import { createRequire } from 'node:module';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { SESSION_COOKIE } from '../../modules/auth/session-cookie.js';
import { describeRoute, markOptionalBodies } from './describe-route.js';
import { json, type RouteDoc } from './route-doc.js';
import { TAGS } from './tags.js';

const { version: VERSION } = createRequire(import.meta.url)('../../../package.json') as { version: string };

const OVERVIEW = `The interface of lawrisk: public permit search and lookup, and the administration of the
catalogue, accounts and departments. How this document is made and checked: docs/api.md.

- **Envelope**: most answers are \`{success, message?, data?}\`; failures are
  \`{success: false, message, ...}\` with a Chinese message (schema \`Failure\`).
- **Ids** are strings; times are ISO-8601 UTC text.
- **Input** is read leniently, as the interface says: a field may have aliases (each documented,
  the first non-blank one wins), blank (absent, null or only spaces) means absent, "JSON or form"
  bodies may be either, and a number that is not one takes its default. The parameters below
  describe that input; they are not a validation the service applies on top of it.
- **Login**: \`POST /auth/login\` sets the session cookie \`${SESSION_COOKIE}\` (HttpOnly, SameSite=Lax);
  a state-changing request carrying it must come from the same origin.`;

/** GET {api_root}/openapi.json describes itself too. */
const OPENAPI_DOC: RouteDoc = {
  tags: ['service'],
  summary: 'This OpenAPI 3.1 document',
  description: 'Generated at start-up from the route descriptions. Public: it describes the interface and holds no data. Browsable at `{api_root}/docs`.',
  responses: {
    200: json('The document.', Type.Object({ openapi: Type.Literal('3.1.0'), info: Type.Object({}), paths: Type.Object({}) }, { additionalProperties: true })),
  },
};

/**
 * The OpenAPI document (generated from every route's `config.doc`, see route-doc.ts) at
 * `{api_root}/openapi.json` and Swagger UI at `{api_root}/docs`, both public. Registered before
 * the routes: the document collects them as they are added.
 */
export async function registerApiDocs(app: FastifyInstance, config: Config): Promise<void> {
  const { apiRoot } = config;
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'lawrisk', version: VERSION, description: OVERVIEW },
      servers: [{ url: apiRoot, description: '{api_root}' }],
      tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
      components: { securitySchemes: { session: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: 'The session of `POST /auth/login`.' } } },
    },
    // Shared shapes carry an `$id`: the document lists them once under components/schemas by that name.
    refResolver: { buildLocalReference: (json, _base, _fragment, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transform: describeRoute(apiRoot),
    transformObject: markOptionalBodies,
  });
  // Swagger UI's page and assets come from its npm package and load with no inline script,
  // so the service's Content Security Policy applies to them unchanged.
  await app.register(swaggerUi, {
    routePrefix: `${apiRoot}/docs`,
    uiConfig: { docExpansion: 'none', deepLinking: true, defaultModelsExpandDepth: 0 },
    theme: { title: 'lawrisk API' },
  });
  app.get(`${apiRoot}/openapi.json`, { config: { guard: 'public', doc: OPENAPI_DOC } }, async () => app.swagger());
}
