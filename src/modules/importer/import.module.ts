import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerPermitFileRoutes } from '../files/permit-files.routes.js';
import { registerTemplateRoutes } from '../files/template.routes.js';
import { registerWizardImageRoutes } from '../files/wizard-images.js';
import { registerImportRoutes } from './import.routes.js';
import { uploadRateLimiter } from './upload-rate-limit.js';

/** Workbook import with everything around it: the file archive, the template, the sample and the wizard images. */
export function registerImportModule(app: FastifyInstance, ctx: AppContext): void {
  // Upload and re-import share one counter per user.
  const limiter = uploadRateLimiter(app, ctx);
  registerImportRoutes(app, ctx, limiter);
  registerPermitFileRoutes(app, ctx, limiter);
  registerTemplateRoutes(app, ctx);
  registerWizardImageRoutes(app, ctx);
}
