import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { notFound } from '../../http/errors.js';
import { content, failure, pathParams, type RouteDoc } from '../../http/openapi/route-doc.js';

export const IMAGES_DIR = fileURLToPath(new URL('../../../assets/images/', import.meta.url));

/**
 * The only files served under /admin/images/: the request names a key of this list, never a
 * path, so `../`, encoded separators and any other name cannot reach the file system.
 */
export const WIZARD_IMAGES: Readonly<Record<string, string>> = {
  'import-step-upload.svg': 'image/svg+xml',
  'import-step-preview.svg': 'image/svg+xml',
  'import-step-commit.svg': 'image/svg+xml',
  'template-columns.svg': 'image/svg+xml',
};

const wizardImageDoc: RouteDoc = {
  tags: ['import'],
  summary: 'An image of the import wizard',
  params: pathParams({ filename: `One of ${Object.keys(WIZARD_IMAGES).join(', ')}.` }),
  responses: { 200: content('The image, with a sandboxing Content-Security-Policy.', [...new Set(Object.values(WIZARD_IMAGES))]), 404: failure('图片不存在') },
};

export function registerWizardImageRoutes(app: FastifyInstance, ctx: AppContext): void {
  app.get<{ Params: { filename: string } }>(`${ctx.config.apiRoot}/admin/images/:filename`, { config: { doc: wizardImageDoc } }, async (req, reply) => {
    const name = req.params.filename;
    const type = Object.hasOwn(WIZARD_IMAGES, name) ? WIZARD_IMAGES[name] : undefined;
    const content = type ? await readFile(join(IMAGES_DIR, name)).catch(() => null) : null;
    if (!type || !content) throw notFound('图片不存在');
    // SVG may carry script: the sandbox CSP keeps it inert even when opened directly.
    return reply
      .header('content-type', type)
      .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'; sandbox")
      .header('cache-control', 'public, max-age=3600')
      .send(content);
  });
}
