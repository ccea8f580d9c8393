import type { FastifyRequest } from 'fastify';
import { badRequest } from '../../http/errors.js';

export interface UploadedFile {
  filename: string;
  contentType: string;
  content: Buffer;
}

export interface MultipartForm {
  /** The part named `file`, or null when the request carried none. */
  file: UploadedFile | null;
  fields: Record<string, string>;
}

export const DEFAULT_CONTENT_TYPE = 'application/octet-stream';

function megabytes(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (Number.isInteger(mb)) return String(mb);
  return mb >= 0.01 ? mb.toFixed(2).replace(/\.?0+$/, '') : mb.toPrecision(2);
}

/** The message of an upload over IMPORT_MAX_BYTES: names the limit so the clerk knows what to do. */
export function tooLargeMessage(maxBytes: number): string {
  return `文件超过大小限制（最大 ${megabytes(maxBytes)} MB），请拆分后分批上传`;
}

/**
 * Reads a multipart form whatever the order of its parts (fields may come after the file).
 * The multipart plugin stops reading at IMPORT_MAX_BYTES; that becomes a 400 naming the limit
 * instead of the plugin's generic 413. A request that is not multipart has no file.
 */
export async function readMultipartForm(req: FastifyRequest, maxBytes: number): Promise<MultipartForm> {
  const form: MultipartForm = { file: null, fields: {} };
  if (!req.isMultipart()) return form;
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        const content = await part.toBuffer();
        if (part.fieldname === 'file' && form.file === null) {
          form.file = { filename: part.filename || 'upload.xlsx', contentType: part.mimetype || DEFAULT_CONTENT_TYPE, content };
        }
      } else if (typeof part.value === 'string') {
        form.fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    if ((err as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(tooLargeMessage(maxBytes));
    throw err;
  }
  return form;
}
