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
export const BYTES_TYPE = 'application/octet-stream';
/** A file the service writes itself as JSON (the search lexicon's export). */
export const JSON_FILE_TYPE = 'application/json; charset=utf-8';

/**
 * The only types a download goes out with. Never a type an uploader named or a stored row holds:
 * a file uploaded as `text/html` served as such would run as a page of this origin.
 */
export type AttachmentType = typeof XLSX_TYPE | typeof BYTES_TYPE | typeof JSON_FILE_TYPE;

/** Every .xlsx is a ZIP container, which starts with a local file header. */
const ZIP_START = Buffer.from('PK\x03\x04', 'latin1');

/**
 * The type of stored bytes, decided from the bytes: a workbook, or plain bytes for anything else.
 * What a file is recorded as and what it is served as both come from here.
 */
export function storedFileType(content: Buffer): typeof XLSX_TYPE | typeof BYTES_TYPE {
  return content.subarray(0, ZIP_START.length).equals(ZIP_START) ? XLSX_TYPE : BYTES_TYPE;
}

/**
 * Answers a download: the bytes with their type, as an attachment, never cached by shared caches.
 * `X-Content-Type-Options: nosniff` is on every answer already (security-headers.ts).
 */
export function sendAttachment(reply: FastifyReply, filename: string, type: AttachmentType, content: Buffer) {
  return reply
    .header('content-type', type)
    .header('content-disposition', attachmentHeader(filename))
    .header('cache-control', 'private, no-store')
    .send(content);
}

/** Answers stored bytes (an archived workbook) as a download, typed by what they are. */
export function sendStoredFile(reply: FastifyReply, filename: string, content: Buffer) {
  return sendAttachment(reply, filename, storedFileType(content), content);
}
