import { createReadStream, existsSync, readFileSync } from 'node:fs';
import { readFile, stat } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { notFound } from '../http/errors.js';
import type { Guard } from '../http/guards.js';
import { content, failure, fields, HTML, pathParams, type RouteDoc } from '../http/openapi/route-doc.js';
import { asInput, readString } from '../http/readers.js';
import { loginPage, safeNext } from '../modules/auth/login-page.js';

interface PageRoute {
  path: string;
  file: string;
  guard: Guard;
  /** The interface's 404 message when the page file is absent. */
  missing: string;
  /** What the page is, for the OpenAPI document. */
  title: string;
}

const SEARCH_PAGE: Omit<PageRoute, 'path'> = {
  file: 'search.html',
  guard: 'public',
  missing: '搜索页面不存在',
  title: 'The public search page for applicants (docs/public-search.md)',
};

const PAGES: PageRoute[] = [
  { path: '/', ...SEARCH_PAGE },
  { path: '/search', ...SEARCH_PAGE },
  { path: '/db_admin', file: 'db_admin.html', guard: 'page-login', missing: 'DB admin page not found', title: 'The database administration page' },
  { path: '/admin/super', file: 'super_admin.html', guard: 'page-super', missing: 'Super admin page not found', title: 'The super administrator console' },
  { path: '/admin/v2-debug', file: 'v2_debug.html', guard: 'page-super', missing: '调试页面不存在', title: 'The search debugging console' },
];

const pageDoc = (page: PageRoute): RouteDoc => ({
  tags: ['pages'],
  summary: page.title,
  responses: { 200: content('The page.', HTML), 404: failure(`The page file is absent: ${page.missing}`) },
});

const FAVICON_DOC: RouteDoc = {
  tags: ['pages'],
  summary: "The service's icon (SVG), for clients that ask for it at the site's root",
  responses: { 200: content('The icon.', ['image/svg+xml']) },
};
/** The longest query string the redirects to the search page carry along (a question, a region and a notice's ids fit). */
const MAX_FORWARDED_QUERY = 2048;
/** The pages link the same file, built into their assets. */
const FAVICON = readFileSync(fileURLToPath(new URL('../../assets/favicon.svg', import.meta.url)));

const LOGIN_DOC: RouteDoc = {
  tags: ['pages'],
  summary: 'The login page',
  querystring: fields({
    next: Type.Optional(Type.String({ description: 'Where to go after the login (a path under `{api_root}`).' })),
    error: Type.Optional(Type.String({ description: 'Why the last form login failed: missing, credentials, inactive or locked.' })),
  }),
  responses: { 200: content('The page.', HTML) },
};

/** The pages' built assets: one flat directory of content-hashed files (web/vite.config.ts). */
const ASSET_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,199}$/;
const ASSET_TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.woff': 'font/woff',
  '.ttf': 'font/ttf',
};
/**
 * The pages link their assets relatively (`./assets/…`), so they resolve below `{api_root}/` for
 * the login and db_admin pages and below `{api_root}/admin/` for the two admin pages.
 */
const ASSET_PREFIXES = ['/assets', '/admin/assets'];

const ASSET_DOC: RouteDoc = {
  tags: ['pages'],
  summary: 'A built asset of the pages (script, style, image, font)',
  description: 'Public; the names carry a content hash, so they are cached for good.',
  params: pathParams({ name: 'A file name directly in the assets directory, of a known type.' }),
  responses: { 200: content('The asset.', [...new Set(Object.values(ASSET_TYPES).map((t) => t.split(';')[0]))]), 404: failure('文件不存在') },
};

/** Serves the built HTML pages; the guard runs before (redirect to login, or the 403 page). */
export function registerPageRoutes(app: FastifyInstance, ctx: AppContext, pagesDir: string): void {
  const { apiRoot } = ctx.config;

  // The login page: the built one (it reads `next` and `error` itself), else the minimal form page.
  app.get(`${apiRoot}/login`, { config: { guard: 'public', doc: LOGIN_DOC } }, async (req, reply) => {
    reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
    const built = await readFile(join(pagesDir, 'login.html')).catch(() => null);
    if (built) return reply.send(built);
    const q = asInput(req.query);
    return reply.send(loginPage(apiRoot, safeNext(apiRoot, readString(q, 'next')), readString(q, 'error') ?? null));
  });

  for (const page of PAGES) {
    app.get(`${apiRoot}${page.path}`, { config: { guard: page.guard, doc: pageDoc(page) } }, async (_req, reply) => {
      const file = join(pagesDir, page.file);
      if (!existsSync(file)) throw notFound(page.missing);
      return reply
        .type('text/html; charset=utf-8')
        .header('cache-control', 'no-store')
        .send(await readFile(file));
    });
  }

  // The site's root and `{api_root}` without its slash (whose relative asset links would miss) lead to
  // the search page. Navigation, not API: the document's paths are relative to `{api_root}`, where
  // the site's root would take the search page's own path `/` (docs/api.md).
  for (const path of ['/', apiRoot]) {
    // The query string goes along (a district's link `/?region=…`) unless it is longer than any link
    // of the page's; the path is fixed, so no open redirect.
    app.get(path, { schema: { hide: true }, config: { guard: 'public' } }, async (req, reply) => {
      const at = req.url.indexOf('?');
      const query = at >= 0 && req.url.length - at <= MAX_FORWARDED_QUERY ? req.url.slice(at) : '';
      return reply.redirect(`${apiRoot}/${query}`, 302);
    });
  }
  app.get('/favicon.ico', { config: { guard: 'public', doc: FAVICON_DOC } }, async (_req, reply) =>
    reply.type('image/svg+xml').header('cache-control', 'public, max-age=86400').send(FAVICON),
  );

  // Public, no listing, one path segment of known type only (no traversal by construction);
  // the names carry a content hash, so they may be cached for good.
  const assetsDir = join(pagesDir, 'assets');
  for (const prefix of ASSET_PREFIXES) {
    app.get<{ Params: { name: string } }>(`${apiRoot}${prefix}/:name`, { config: { guard: 'public', doc: ASSET_DOC } }, async (req, reply) => {
      const { name } = req.params;
      const type = ASSET_TYPES[extname(name)];
      const file = join(assetsDir, name);
      const info = ASSET_NAME.test(name) && type ? await stat(file).catch(() => null) : null;
      if (!info?.isFile()) throw notFound('文件不存在');
      return reply
        .type(type)
        .header('content-length', info.size)
        .header('cache-control', 'public, max-age=31536000, immutable')
        .header('last-modified', info.mtime.toUTCString())
        .send(createReadStream(file));
    });
  }
}
