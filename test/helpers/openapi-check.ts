import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import { gunzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';

/**
 * Checks every response of the test suite against the OpenAPI document of the app that sent it
 * (docs/api.md): the route, status and media type must be documented, and a JSON body must
 * validate against its schema. Problems are collected here and fail the test they happened in
 * (test/setup-response-check.ts).
 */

export interface SeenRoute {
  method: string;
  url: string;
  /** Left out of the document on purpose (Swagger UI's own routes). */
  hidden: boolean;
}

export interface ResponseWatch {
  /** Routes added while the app was built (the product's), HEAD excluded. */
  routes: SeenRoute[];
  /** Stops collecting: routes a test adds afterwards are its own fixtures and not checked. */
  seal(): void;
}

interface MediaType {
  schema?: unknown;
}
interface OpenApiResponse {
  content?: Record<string, MediaType>;
}
interface OpenApiDocument {
  paths: Record<string, Record<string, { responses: Record<string, OpenApiResponse> }>>;
}

const problems: string[] = [];

/** The problems found since the last call. */
export function takeResponseProblems(): string[] {
  return problems.splice(0);
}

/** `/app/api/workflow/lawrisk/admin/users/:user_id` → `/admin/users/{user_id}` (the document's server is {api_root}). */
export function documentPath(url: string, apiRoot: string): string {
  const path = url.startsWith(`${apiRoot}/`) ? url.slice(apiRoot.length) : url;
  return path.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** One Ajv per distinct document (every app of a test file usually has the same one), compiling schemas on first use. */
class DocumentValidators {
  private static readonly byText = new Map<string, DocumentValidators>();
  private static readonly ofDocument = new WeakMap<object, DocumentValidators>();
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: false, validateSchema: false });
  private readonly compiled = new Map<string, ValidateFunction>();

  static of(doc: OpenApiDocument): DocumentValidators {
    let v = DocumentValidators.ofDocument.get(doc);
    if (!v) {
      const text = JSON.stringify(doc);
      v = DocumentValidators.byText.get(text) ?? new DocumentValidators(JSON.parse(text) as object);
      DocumentValidators.byText.set(text, v);
      DocumentValidators.ofDocument.set(doc, v);
    }
    return v;
  }

  private constructor(doc: object) {
    this.ajv.addSchema(doc, 'openapi');
  }

  validator(pointer: string[]): ValidateFunction {
    const fragment = pointer.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');
    let fn = this.compiled.get(fragment);
    if (!fn) {
      fn = this.ajv.getSchema(`openapi#/${fragment}`);
      if (!fn) throw new Error(`no schema at ${pointer.join(' › ')}`);
      this.compiled.set(fragment, fn);
    }
    return fn;
  }

  errors(fn: ValidateFunction): string {
    return this.ajv.errorsText(fn.errors, { dataVar: 'body', separator: '; ' }).slice(0, 1500);
  }
}

function bodyText(payload: unknown, encoding: string): string | null {
  if (typeof payload === 'string') return payload;
  // A gzip-compressed answer (/v2 to clients that accept it) is checked as what it decodes to.
  if (Buffer.isBuffer(payload)) return (encoding === 'gzip' ? gunzipSync(payload) : payload).toString('utf8');
  return null; // a stream: a file or an asset, never JSON here
}

function checkResponse(
  doc: OpenApiDocument,
  apiRoot: string,
  res: { method: string; url: string; status: number; contentType: string; encoding: string; payload: unknown; head: boolean },
): string | null {
  const path = documentPath(res.url, apiRoot);
  const op = doc.paths[path]?.[res.method.toLowerCase()];
  if (!op) return 'the route is not in the document';
  const status = String(res.status);
  const documented = op.responses[status];
  if (!documented) return `status ${status} is not documented (documented: ${Object.keys(op.responses).join(', ')})`;
  const text = bodyText(res.payload, res.encoding);
  const type = res.contentType.split(';')[0].trim().toLowerCase();
  if (!documented.content) {
    return text === null || text === '' ? null : `a body (${type || 'no type'}) where the document has none`;
  }
  if (!documented.content[type] && !documented.content['*/*']) {
    return `media type "${type}" is not documented (documented: ${Object.keys(documented.content).join(', ')})`;
  }
  if (type !== 'application/json' || res.head || text === null) return null;
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return 'the body is not JSON';
  }
  const validators = DocumentValidators.of(doc);
  const fn = validators.validator(['paths', path, res.method.toLowerCase(), 'responses', status, 'content', type, 'schema']);
  return fn(body) ? null : `the body does not match the document: ${validators.errors(fn)}`;
}

/** Watches an app from its creation (BuildOptions.instrument): collects its routes and checks its responses. */
export function watchResponses(app: FastifyInstance, apiRoot: string): ResponseWatch {
  const routes: SeenRoute[] = [];
  const product = new Map<string, SeenRoute>();
  let sealed = false;
  app.addHook('onRoute', (r) => {
    if (sealed) return;
    for (const method of [r.method].flat()) {
      if (method === 'HEAD') continue;
      const seen = { method, url: r.url, hidden: Boolean(r.schema?.hide) };
      routes.push(seen);
      product.set(`${method} ${r.url}`, seen);
    }
  });
  app.addHook('onSend', async (req, reply, payload) => {
    const url = req.routeOptions.url;
    const method = req.method === 'HEAD' ? 'GET' : req.method;
    const route = url ? product.get(`${method} ${url}`) : undefined;
    if (!route || route.hidden) return payload;
    const problem = checkResponse(app.swagger() as unknown as OpenApiDocument, apiRoot, {
      method,
      url: route.url,
      status: reply.statusCode,
      contentType: String(reply.getHeader('content-type') ?? ''),
      encoding: String(reply.getHeader('content-encoding') ?? ''),
      payload,
      head: req.method === 'HEAD',
    });
    if (problem) problems.push(`${req.method} ${req.url.split('?')[0]} → ${reply.statusCode}: ${problem}`);
    return payload;
  });
  return {
    routes,
    seal() {
      sealed = true;
    },
  };
}
