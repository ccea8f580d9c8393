import type { FastifyInstance } from 'fastify';
import { badRequest, notFound } from './errors.js';

/**
 * Text neither database can store as given: NUL (PostgreSQL refuses it with an error, SQLite
 * truncates some functions at it) and a UTF-16 surrogate without its partner (both drivers
 * silently replace it with U+FFFD, so what is stored is not what was sent).
 */
// eslint-disable-next-line no-control-regex -- NUL is the character refused here.
const INVALID_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;

/** Deep enough for any body the interface defines; deeper nesting is not text anyone sends. */
const MAX_DEPTH = 64;

const shortName = (name: string) => (name.length > 40 ? `${name.slice(0, 40)}…` : name);

export const invalidTextMessage = (field: string) => `参数 ${shortName(field)} 含有无效字符（空字符或不完整的 Unicode 字符），请修改后重新提交`;
const INVALID_NAME_MESSAGE = '参数名含有无效字符（空字符或不完整的 Unicode 字符）';
const INVALID_BODY_MESSAGE = '请求内容含有无效字符（空字符或不完整的 Unicode 字符）';

export function isInvalidText(s: string): boolean {
  return INVALID_TEXT.test(s);
}

/** The first field (dotted path) of an input whose text is invalid, or null. */
export function findInvalidText(value: unknown, field: string, depth = 0): { field: string; inName: boolean } | null {
  if (typeof value === 'string') return isInvalidText(value) ? { field, inName: false } : null;
  if (!value || typeof value !== 'object' || depth > MAX_DEPTH || Buffer.isBuffer(value)) return null;
  for (const [key, item] of Object.entries(value)) {
    if (isInvalidText(key)) return { field, inName: true };
    const found = findInvalidText(item, field === '' ? key : `${field}.${key}`, depth + 1);
    if (found) return found;
  }
  return null;
}

/** Throws the 400 for an input holding invalid text (the query string, path, a body, a form). */
export function assertValidText(...inputs: unknown[]): void {
  for (const input of inputs) {
    const found = findInvalidText(input, '');
    if (!found) continue;
    if (found.inName) throw badRequest(INVALID_NAME_MESSAGE);
    throw badRequest(found.field === '' ? INVALID_BODY_MESSAGE : invalidTextMessage(found.field));
  }
}

/**
 * Every route refuses invalid text before anything reads it: in a path it names nothing that can
 * exist (404, as any other unknown name), in the query string or body it is a bad request (400).
 */
export function registerTextInputGuard(app: FastifyInstance): void {
  app.addHook('preValidation', async (req) => {
    if (findInvalidText(req.params, '')) throw notFound('请求的资源不存在');
    assertValidText(req.query, req.body);
  });
}
