import type { Readable } from 'node:stream';
import type { FastifyRequest } from 'fastify';
import { AppError, badRequest, errorCode } from '../../http/errors.js';
import { assertValidText } from '../../http/text-input.js';

/** The part's own Content-Type is left out: it is only the uploader's claim (see storedFileType). */
export interface UploadedFile {
  filename: string;
  content: Buffer;
}

export interface MultipartForm {
  /** The part named `file`, or null when the request carried none. */
  file: UploadedFile | null;
  fields: Record<string, string>;
}

/** What a multipart request may hold besides the file (app.ts gives these to the multipart plugin). */
export const MULTIPART_LIMITS = { files: 1, fields: 20, parts: 30, fieldSize: 64 * 1024 } as const;

/** Room for the fields and the part headers around the file, when judging a declared Content-Length. */
const FORM_OVERHEAD = MULTIPART_LIMITS.fields * MULTIPART_LIMITS.fieldSize + 64 * 1024;

export const BROKEN_FORM_MESSAGE = '上传的表单不完整或格式不正确，请重新选择文件上传';

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
 * The bytes of a file part. At IMPORT_MAX_BYTES the part is abandoned at once: the plugin's own
 * toBuffer() would wait for the end of the part (the whole rest of a 100 MB upload) before saying so.
 */
function readFilePart(file: Readable & { truncated?: boolean }, maxBytes: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    file.on('data', (chunk: Buffer) => chunks.push(chunk));
    file.once('limit', () => {
      chunks.length = 0;
      reject(badRequest(tooLargeMessage(maxBytes)));
      file.destroy();
    });
    file.once('end', () => (file.truncated ? reject(badRequest(tooLargeMessage(maxBytes))) : resolve(Buffer.concat(chunks))));
    file.once('error', reject);
  });
}

/**
 * Reads a multipart form whatever the order of its parts (fields may come after the file).
 * A request whose declared length cannot fit under IMPORT_MAX_BYTES is refused before a byte of
 * it is read; otherwise the file is abandoned when it reaches the limit. Both become a 400 naming
 * the limit instead of the plugin's generic 413. A request that is not multipart has no file.
 */
export async function readMultipartForm(req: FastifyRequest, maxBytes: number): Promise<MultipartForm> {
  const form: MultipartForm = { file: null, fields: {} };
  if (!req.isMultipart()) return form;
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > maxBytes + FORM_OVERHEAD) throw badRequest(tooLargeMessage(maxBytes));
  try {
    for await (const part of req.parts()) {
      if (part.type === 'file') {
        const content = await readFilePart(part.file, maxBytes);
        if (part.fieldname === 'file' && form.file === null) {
          form.file = { filename: part.filename || 'upload.xlsx', content };
        }
      } else if (typeof part.value === 'string') {
        form.fields[part.fieldname] = part.value;
      }
    }
  } catch (err) {
    if (err instanceof AppError) throw err;
    const code = errorCode(err);
    if (code === 'FST_REQ_FILE_TOO_LARGE') throw badRequest(tooLargeMessage(maxBytes));
    // Limits and field-name violations carry a code the error handler words; anything else the
    // form parser throws (no boundary, a body cut short, a part without headers) is a broken form.
    if (code.startsWith('FST_')) throw err;
    throw badRequest(BROKEN_FORM_MESSAGE);
  }
  assertValidText(form.fields);
  return form;
}
