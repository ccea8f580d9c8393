import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import type { AppContext } from '../../context.js';
import { badRequest } from '../../http/errors.js';
import { asInput, readString } from '../../http/readers.js';
import { readCommitRequest } from './commit-input.js';
import { commitImport, describeCommit } from './commit.service.js';
import { importDocs } from './import.openapi.js';
import { readMultipartForm } from './multipart-form.js';
import { previewSession } from './preview.service.js';
import { uploadBinding } from './session-binding.js';
import { createImportSession } from './upload.service.js';

/**
 * Upload → preview → commit. Every route needs a login (the /admin default);
 * `uploadLimiter` is IMPORT_RATE_LIMIT's (upload-rate-limit.ts), null when it is off.
 */
export function registerImportRoutes(app: FastifyInstance, ctx: AppContext, uploadLimiter: onRequestAsyncHookHandler | null): void {
  const base = `${ctx.config.apiRoot}/admin/permit-import`;

  app.post(`${base}/upload`, { config: { doc: importDocs.upload }, ...(uploadLimiter ? { onRequest: uploadLimiter } : {}) }, async (req) => {
    const form = await readMultipartForm(req, ctx.config.importMaxBytes);
    if (!form.file) throw badRequest('请选择要上传的Excel文件');
    const binding = await uploadBinding(ctx.db, req.user!, form.fields);
    const data = await createImportSession(ctx, req.user!, form.file, binding);
    return { success: true, data };
  });

  app.get<{ Params: { session_id: string } }>(`${base}/session/:session_id/preview`, { config: { doc: importDocs.previewBySession } }, async (req) => {
    const data = await previewSession(ctx, req.user!, readString(asInput(req.params), 'session_id'));
    return { success: true, data };
  });

  app.get(`${base}/preview`, { config: { doc: importDocs.preview } }, async (req) => {
    const data = await previewSession(ctx, req.user!, readString(asInput(req.query), 'session_id', 'sessionId'));
    return { success: true, data };
  });

  app.post(`${base}/commit`, { config: { operation: { type: 'import', summary: '导入工作簿', targetType: 'file' }, doc: importDocs.commit } }, async (req) => {
    const data = await commitImport(ctx, req.user!, readCommitRequest(asInput(req.body), req.user!));
    req.operation.targetId = data.file_id;
    req.operation.targetName = data.filename;
    req.operation.summary = describeCommit(data);
    return { success: true, data };
  });
}
