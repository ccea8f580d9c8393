import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../context.js';
import { notFound } from '../http/errors.js';
import type { Guard } from '../http/guards.js';

interface PageRoute {
  path: string;
  file: string;
  guard: Guard;
  /** The interface's 404 message when the page file is absent. */
  missing: string;
}

const PAGES: PageRoute[] = [
  { path: '/db_admin', file: 'db_admin.html', guard: 'page-login', missing: 'DB admin page not found' },
  { path: '/admin/super', file: 'super_admin.html', guard: 'page-super', missing: 'Super admin page not found' },
  { path: '/admin/v2-debug', file: 'v2_debug.html', guard: 'page-super', missing: '调试页面不存在' },
];

/** Serves the built HTML pages; the guard runs before (redirect to login, or the 403 page). */
export function registerPageRoutes(app: FastifyInstance, ctx: AppContext, pagesDir: string): void {
  for (const page of PAGES) {
    app.get(`${ctx.config.apiRoot}${page.path}`, { config: { guard: page.guard } }, async (_req, reply) => {
      const file = join(pagesDir, page.file);
      if (!existsSync(file)) throw notFound(page.missing);
      return reply.type('text/html; charset=utf-8').header('cache-control', 'no-store').send(await readFile(file));
    });
  }
}
