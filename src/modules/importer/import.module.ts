import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { registerPermitFileRoutes } from '../files/permit-files.routes.js';
import { registerTemplateRoutes } from '../files/template.routes.js';
import { registerWizardImageRoutes } from '../files/wizard-images.js';
import { registerImportRoutes } from './import.routes.js';

/** Workbook import with everything around it: the file archive, the template, the sample and the wizard images. */
export function registerImportModule(app: FastifyInstance, ctx: AppContext): void {
  registerImportRoutes(app, ctx);
  registerPermitFileRoutes(app, ctx);
  registerTemplateRoutes(app, ctx);
  registerWizardImageRoutes(app, ctx);
}
