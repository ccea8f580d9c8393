import { Ajv2020 } from 'ajv/dist/2020.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { documentPath } from '../../../test/helpers/openapi-check.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { routeGuard, type Guard } from '../guards.js';
import { TAGS } from './tags.js';

interface Operation {
  summary?: string;
  tags?: string[];
  security?: Array<Record<string, string[]>>;
  parameters?: Array<{ in: string; name: string }>;
  responses: Record<string, { content?: Record<string, { schema: unknown }> }>;
}
interface Document {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown> };
}

/** The routes' validating body schemas, the only request schemas Fastify sees (they predate the document). */
const VALIDATED_BODIES = [
  'POST /auth/login',
  'POST /auth/password',
  'POST /admin/users',
  'PATCH /admin/users/:user_id',
  'POST /admin/service-departments',
  'PATCH /admin/service-departments/:dept_id',
  'POST /admin/themes/catalog',
  'PATCH /admin/themes/catalog/:theme_id',
  'POST /admin/permits/filter',
  'POST /admin/checkpoints',
  'POST /admin/checkpoints/:checkpoint_id/restore',
];

describe('the OpenAPI document', () => {
  let t: TestApp;
  let doc: Document;
  const fastifySchemas: Array<{ route: string; keys: string[] }> = [];
  const guards = new Map<string, Guard | undefined>();

  beforeAll(async () => {
    t = await buildTestApp('sqlite', {
      build: {
        instrument: (app) =>
          app.addHook('onRoute', (r) => {
            if (r.method === 'HEAD') return;
            fastifySchemas.push({ route: `${String(r.method)} ${r.url}`, keys: Object.keys(r.schema ?? {}) });
            guards.set(`${String(r.method)} ${r.url}`, r.config?.guard);
          }),
      },
    });
    const res = await t.app.inject(`${API}/openapi.json`);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    doc = res.json();
  });
  afterAll(async () => t?.close());

  const operations = () =>
    Object.entries(doc.paths).flatMap(([path, methods]) => Object.entries(methods).map(([method, op]) => ({ key: `${method.toUpperCase()} ${path}`, op })));

  it('is OpenAPI 3.1, public, and the same as the one Swagger UI reads', async () => {
    expect(doc.openapi).toBe('3.1.0');
    const ui = await t.app.inject(`${API}/docs/json`);
    expect(ui.json()).toEqual(doc);
  });

  it('describes every registered route, and nothing else', () => {
    const documented = new Set(operations().map((o) => o.key));
    const routes = t.routes.filter((r) => !r.hidden).map((r) => `${r.method} ${documentPath(r.url, t.config.apiRoot)}`);
    expect(
      routes.filter((r) => !documented.has(r)),
      'routes missing from the document',
    ).toEqual([]);
    expect(
      [...documented].filter((o) => !routes.includes(o)),
      'operations without a route',
    ).toEqual([]);
    expect(routes.length).toBe(documented.size);
    // Left out on purpose: Swagger UI's own page and assets, and the two redirects to the search page.
    const hidden = t.routes.filter((r) => r.hidden).map((r) => r.url);
    expect(hidden.length).toBeGreaterThan(0);
    expect(hidden.filter((u) => !u.startsWith(`${API}/docs`)).sort()).toEqual(['/', API]);
  });

  it('gives every operation a summary, a module tag, its guard as security, its path parameters and its answers', () => {
    const tags = Object.keys(TAGS);
    for (const r of t.routes.filter((x) => !x.hidden)) {
      const path = documentPath(r.url, t.config.apiRoot);
      const op = doc.paths[path][r.method.toLowerCase()];
      const where = `${r.method} ${path}`;
      expect(op.summary, where).toBeTruthy();
      expect(op.tags?.length, where).toBeGreaterThan(0);
      for (const tag of op.tags ?? []) expect(tags, where).toContain(tag);
      const guard = routeGuard(guards.get(`${r.method} ${r.url}`), r.url, t.config.apiRoot);
      if (guard === 'public')
        expect(
          op.security?.every((s) => Object.keys(s).length === 0 || 'session' in s),
          where,
        ).toBe(true);
      else expect(op.security, where).toEqual([{ session: [] }]);
      const pathParams = [...r.url.matchAll(/:([A-Za-z0-9_]+)/g)].map((m) => m[1]).sort();
      expect(
        (op.parameters ?? [])
          .filter((p) => p.in === 'path')
          .map((p) => p.name)
          .sort(),
        where,
      ).toEqual(pathParams);
      // An answer of success — or, for a method that exists only to name the one to use, its 405.
      expect(
        Object.keys(op.responses).some((s) => /^[23]\d\d$|^405$/.test(s)),
        where,
      ).toBe(true);
      expect(op.responses['500'], where).toBeDefined();
    }
  });

  it('leaves requests and responses to the routes: no response, query or path schema reaches Fastify', () => {
    const root = t.config.apiRoot;
    const product = fastifySchemas.filter((s) => !s.route.includes(`${root}/docs`) && !s.keys.includes('hide'));
    expect(product.length).toBe(t.routes.filter((r) => !r.hidden).length);
    expect(product.filter((s) => s.keys.some((k) => k !== 'body')).map((s) => s.route)).toEqual([]);
    const withBody = product.filter((s) => s.keys.includes('body')).map((s) => s.route.replace(root, ''));
    expect(withBody.sort()).toEqual([...VALIDATED_BODIES].sort());
  });

  it('holds schemas that compile as JSON Schema 2020-12', () => {
    const ajv = new Ajv2020({ strict: true, validateFormats: false, allowUnionTypes: true });
    // The document's own fields around the schemas are not schema keywords.
    for (const keyword of Object.keys(doc)) ajv.addKeyword(keyword);
    ajv.addSchema(doc, 'openapi');
    for (const name of Object.keys(doc.components.schemas)) {
      expect(() => ajv.getSchema(`openapi#/components/schemas/${name}`), name).not.toThrow();
    }
    for (const { key, op } of operations()) {
      for (const [status, response] of Object.entries(op.responses)) {
        for (const type of Object.keys(response.content ?? {})) {
          const pointer = ['paths', key.split(' ')[1], key.split(' ')[0].toLowerCase(), 'responses', status, 'content', type, 'schema'];
          const fragment = pointer.map((p) => encodeURIComponent(p.replace(/~/g, '~0').replace(/\//g, '~1'))).join('/');
          expect(() => ajv.getSchema(`openapi#/${fragment}`), `${key} ${status} ${type}`).not.toThrow();
        }
      }
    }
  });

  it('says which bodies must be sent and which may be left out', () => {
    const body = (path: string, method: string) =>
      (doc.paths[path][method] as Operation & { requestBody?: { required: boolean; content: object } }).requestBody;
    expect(body('/admin/permit-import/commit', 'post')?.required).toBe(true);
    expect(Object.keys(body('/admin/permit-import/upload', 'post')?.content ?? {})).toEqual(['multipart/form-data']);
    expect(body('/admin/checkpoints', 'post')?.required).toBe(false);
    expect(Object.keys(body('/admin/checkpoints', 'post')?.content ?? {})).toEqual(['application/json', 'application/x-www-form-urlencoded']);
    expect(body('/admin/permits', 'delete')?.required).toBe(false);
    expect(JSON.stringify(doc)).not.toContain('x-optional-body');
  });

  it('names the shapes the interface leaves open as components', () => {
    expect(Object.keys(doc.components.schemas)).toEqual(
      expect.arrayContaining([
        'Failure',
        'Permit',
        'PermitWithRisks',
        'RiskSubject',
        'SearchDebug',
        'ImportSession',
        'ImportCommitResult',
        'AdvancedFilterResult',
        'SnapshotEntry',
        'Checkpoint',
        'OperationLogEntry',
        'PermitFileListing',
        'CurrentUser',
      ]),
    );
  });
});

describe('Swagger UI at {api_root}/docs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite');
  });
  afterAll(async () => t?.close());

  it("is public and served from the npm package under the service's Content Security Policy, with no inline script", async () => {
    const page = await t.app.inject(`${API}/docs`);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("script-src 'self'");
    expect(csp).not.toContain('unsafe-eval');
    const scripts = [...page.body.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)];
    expect(scripts.length).toBeGreaterThan(0);
    for (const [, attrs, body] of scripts) {
      expect(attrs).toMatch(/src="/);
      expect(body.trim()).toBe('');
    }
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(assets.length).toBeGreaterThanOrEqual(4);
    for (const asset of assets) {
      const res = await t.app.inject(asset.startsWith('/') ? asset : `${API}/docs/${asset}`);
      expect(res.statusCode, asset).toBe(200);
      expect(res.headers['content-type'], asset).toMatch(/javascript|css|image/);
    }
    const init = await t.app.inject(`${API}/docs/static/swagger-initializer.js`);
    expect(init.body).toContain("resolveUrl('./json')");
  });
});
