import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { nowIso } from '../../db/dialect.js';
import { badRequest, notFound } from '../../http/errors.js';
import { operatorName } from '../auth/current-user.js';
import { readMultipartForm } from '../importer/multipart-form.js';
import { parseUploadedWorkbook } from '../importer/upload.service.js';
import { sendAttachment, XLSX_TYPE } from '../../http/attachment.js';
import { fileDocs } from './files.openapi.js';
import { readTemplate, templateMetadata, TEMPLATE_FILENAME, writeTemplate } from './import-template.js';
import { adminChange } from '../../http/guards.js';

const TEMPLATE_MISSING = '模板文件不存在,请联系管理员';
/** The sample offered next to the template: the bundled city-level demo workbook (one flat sheet). */
const SAMPLE_FILE = fileURLToPath(new URL('../../../demo/workbooks/广安市市级许可事项风险清单.xlsx', import.meta.url));
const SAMPLE_NAME = '许可事项导入示例.xlsx';

/** Template metadata and replacement (4.5, admin guard), template and sample downloads (4.7). */
export function registerTemplateRoutes(app: FastifyInstance, ctx: AppContext): void {
  const { apiRoot } = ctx.config;

  app.get(`${apiRoot}/admin/templates/permit`, { config: { guard: 'admin', doc: fileDocs.templateMeta } }, async () => {
    const meta = await templateMetadata(ctx.config);
    if (!meta) throw notFound(TEMPLATE_MISSING);
    return { success: true, data: meta };
  });

  app.post(
    `${apiRoot}/admin/templates/permit`,
    { config: adminChange('template')('template_update', '更新导入模板', fileDocs.templateReplace) },
    async (req) => {
      const form = await readMultipartForm(req, ctx.config.importMaxBytes);
      if (!form.file) throw badRequest('请上传模板文件');
      if (form.file.content.length === 0) throw badRequest('上传的模板为空');
      // The template is what clerks fill in: it must be a workbook the importer itself recognises.
      const parsed = await parseUploadedWorkbook(ctx, form.file.content);
      if (!parsed.sheets.some((s) => s.headerRow !== null)) {
        throw badRequest('模板中没有可识别的表头行（至少需要三个已知列名，如 许可事项、风险点、法律依据）');
      }
      await writeTemplate(ctx.config, form.file.content, operatorName(req.user), 'uploaded', nowIso(ctx.now));
      req.operation.targetName = TEMPLATE_FILENAME;
      req.operation.summary = `更新导入模板（上传文件 ${form.file.filename}）`;
      return { success: true, data: await templateMetadata(ctx.config) };
    },
  );

  app.get(`${apiRoot}/admin/permit-import/template`, { config: { doc: fileDocs.templateDownload } }, async (_req, reply) => {
    const content = await readTemplate(ctx.config);
    if (!content) throw notFound(TEMPLATE_MISSING);
    return sendAttachment(reply, '许可事项导入模板.xlsx', XLSX_TYPE, content);
  });

  app.get(`${apiRoot}/admin/permit-import/sample`, { config: { doc: fileDocs.sample } }, async (_req, reply) => {
    const content = await readFile(SAMPLE_FILE).catch(() => null);
    if (!content) throw notFound('示例文件不存在');
    return sendAttachment(reply, SAMPLE_NAME, XLSX_TYPE, content);
  });
}
