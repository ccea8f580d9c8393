import { extname } from 'node:path';
import type { FastifyReply } from 'fastify';

/** RFC 5987 percent-encoding: encodeURIComponent leaves ' ( ) * unescaped, which filename* must not. */
function encodeRfc5987(value: string): string {
  return encodeURIComponent(value).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** A plain-ASCII stand-in for old clients: other characters become `_`, and a name of only `_` becomes `download`. */
function asciiFallback(filename: string): string {
  const ext = extname(filename).replace(/[^A-Za-z0-9.]/g, '');
  const stem = filename.slice(0, filename.length - extname(filename).length).replace(/[^\x20-\x7e]|["\\;]/g, '_');
  return `${/[A-Za-z0-9]/.test(stem) ? stem : 'download'}${ext}`;
}

/** `Content-Disposition: attachment` that keeps a Chinese file name intact (filename* per RFC 6266 / 5987). */
export function attachmentHeader(filename: string): string {
  return `attachment; filename="${asciiFallback(filename)}"; filename*=UTF-8''${encodeRfc5987(filename)}`;
}

export const XLSX_TYPE = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Answers a download: the bytes with their type, as an attachment, never cached by shared caches. */
export function sendAttachment(reply: FastifyReply, filename: string, contentType: string | null, content: Buffer) {
  return reply
    .header('content-type', contentType || 'application/octet-stream')
    .header('content-disposition', attachmentHeader(filename))
    .header('cache-control', 'private, no-store')
    .send(content);
}
