import type { FastifyInstance, onRequestAsyncHookHandler } from 'fastify';
import type { AppContext } from '../../context.js';
import { asInput, readInt, readString } from '../../http/readers.js';
import { sendStoredFile } from '../../http/attachment.js';
import { fileDocs } from './files.openapi.js';
import { archivedFile, deleteFile, listFiles, permitOriginalFile, reimportFile } from './permit-files.service.js';

type FileParams = { Params: { file_id: string } };

/**
 * The archive of imported workbooks. Every route needs a login (the /admin
 * default); a re-import counts against IMPORT_RATE_LIMIT with the uploads (`uploadLimiter`).
 */
export function registerPermitFileRoutes(app: FastifyInstance, ctx: AppContext, uploadLimiter: onRequestAsyncHookHandler | null): void {
  const { apiRoot } = ctx.config;

  app.get(`${apiRoot}/admin/permit-files`, { config: { failureMessage: '文件列表加载失败', doc: fileDocs.list } }, async (req) => {
    const q = asInput(req.query);
    const data = await listFiles(ctx.readDb, req.user!, {
      limit: readInt(q, 'limit', { def: 20, min: 1, max: 100 }),
      offset: readInt(q, 'offset', { def: 0, min: 0 }),
      keyword: readString(q, 'keyword', 'q'),
    });
    return { success: true, data };
  });

  app.post<FileParams>(
    `${apiRoot}/admin/permit-files/:file_id/reimport`,
    { config: { doc: fileDocs.reimport }, ...(uploadLimiter ? { onRequest: uploadLimiter } : {}) },
    async (req) => {
      const data = await reimportFile(ctx, req.user!, readString(asInput(req.params), 'file_id'));
      return { success: true, data };
    },
  );

  app.delete<FileParams>(
    `${apiRoot}/admin/permit-files/:file_id`,
    { config: { operation: { type: 'file_delete', summary: '删除导入文件', targetType: 'file' }, doc: fileDocs.remove } },
    async (req) => {
      req.operation.targetId = req.params.file_id;
      const file = await deleteFile(ctx, req.user!, readString(asInput(req.params), 'file_id'));
      req.operation.targetName = file.filename;
      req.operation.summary = `删除导入文件 ${file.filename}`;
      return { success: true, message: '文件已删除' };
    },
  );

  // Beyond the interface: the archive page downloads a workbook by its id.
  app.get<FileParams>(`${apiRoot}/admin/permit-files/:file_id/download`, { config: { doc: fileDocs.downloadById } }, async (req, reply) => {
    const file = await archivedFile(ctx.readDb, req.user!, readString(asInput(req.params), 'file_id'));
    return sendStoredFile(reply, file.filename, file.content);
  });

  app.get(`${apiRoot}/admin/permit-file/download`, { config: { doc: fileDocs.downloadOfPermit } }, async (req, reply) => {
    const q = asInput(req.query);
    const file = await permitOriginalFile(ctx.readDb, req.user!, readString(q, 'region', 'region_id'), readString(q, 'permit', 'permit_id'));
    return sendStoredFile(reply, file.filename, file.content);
  });
}
