import type { LightMyRequestResponse } from 'fastify';
import { PROJECT_ROOT } from '../helpers/server-process.js';

/**
 * What every answer to a hostile request must look like. Returns what is wrong, or null.
 *
 * - never a 5xx;
 * - a 4xx is the envelope `{success: false, message}` with a short, readable message: Chinese, or
 *   one of the interface's own English messages; the one documented exception is /v2's
 *   `{error: 'query is required'}`;
 * - a 2xx is a documented success: the envelope with `success: true`, `{status: 'ok'}` of the health
 *   routes, `{status: 'ready'}` of the readiness route, a page, file or image of the routes that serve them, the OpenAPI document, or
 *   /metrics' Prometheus text;
 * - a 3xx is a page guard's redirect to the login page, the form login's redirect, Swagger UI's
 *   own redirects between its pages under {api_root}/docs/, or the site's root and {api_root}
 *   leading to the public search page at {api_root}/;
 * - no body ever carries a stack trace, a source path or a database error text.
 */

/**
 * Messages the interface itself fixes in English (docs/api.md), and the two
 * docs/maintenance.md decided for the same 4.6 routes in their style.
 */
export const ENGLISH_MESSAGES = new Set([
  'region is required',
  'region and permit are required',
  'Permit not found',
  'Checkpoint not found',
  'DB admin page not found',
  'Super admin page not found',
  'Region not found',
  'Theme not found',
]);

const MAX_MESSAGE = 300;
const CJK = /[\u3400-\u9fff]/;
const LEAKS: Array<[RegExp, string]> = [
  [/\n\s+at [^\n]+\(?[^\n]*:\d+:\d+/, 'stack trace'],
  [new RegExp(PROJECT_ROOT.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')), 'project path'],
  [/node_modules|\bsrc\/[\w/.-]+\.(ts|js)\b|file:\/\/\/(?!etc\/passwd)/, 'source path'],
  [
    /SQLITE_[A-Z]|SqliteError|near "[^"]*": syntax error|syntax error at or near|invalid input syntax|violates [a-z ]+constraint|duplicate key value|relation "[^"]+" does not exist|invalid byte sequence/,
    'database error text',
  ],
  [/\$argon2(id|i|d)\$/, 'password hash'],
  [
    /\b(TypeError|ReferenceError|RangeError|SyntaxError): |Cannot read propert|is not a function|Maximum call stack|Invalid string length|undefined is not/,
    'JavaScript error text',
  ],
];

const PAGE_TYPES = /^(text\/html|text\/css|text\/javascript|application\/javascript|image\/|font\/|application\/vnd\.openxmlformats|application\/octet-stream)/;
/** The Prometheus text format of /metrics; the YAML form of the OpenAPI document. */
const DOCUMENT_TYPES = /^(text\/plain; version=0\.0\.4|application\/x-yaml)/;

function leakIn(body: string): string | null {
  for (const [re, what] of LEAKS) if (re.test(body)) return what;
  return null;
}

export function problemWith(res: LightMyRequestResponse, url: string): string | null {
  const status = res.statusCode;
  const type = String(res.headers['content-type'] ?? '');
  const isJson = type.startsWith('application/json');
  if (status >= 500) return `status ${status}`;
  const text = isJson || type.startsWith('text/') ? res.body : '';
  const leak = leakIn(text.length > 200_000 ? text.slice(0, 200_000) : text);
  if (leak) return `${leak} in the body`;

  if (status >= 300 && status < 400) {
    const location = String(res.headers.location ?? '');
    if (!location.includes('/login') && !/\/api\/workflow\/lawrisk\/(docs\/|$|\?)/.test(location)) return `redirect to ${location.slice(0, 200)}`;
    return null;
  }
  if (status >= 200 && status < 300) {
    if (!isJson) return PAGE_TYPES.test(type) || DOCUMENT_TYPES.test(type) || status === 204 ? null : `2xx with content type ${type}`;
    // A JSON file to download (an export another service imports) is a document, not an envelope.
    if (String(res.headers['content-disposition'] ?? '').startsWith('attachment;')) return null;
    const body = res.json<Record<string, unknown>>();
    if (body.success === true || body.status === 'ok' || typeof body.openapi === 'string') return null;
    if (body.status === 'ready' && url.split('?')[0] === '/readyz') return null;
    return '2xx JSON without success: true';
  }

  // 4xx
  if (status === 403 && type.startsWith('text/html') && /\/admin\/(super|v2-debug)/.test(url)) return null; // the page guard's 403 page
  if (!isJson) return `4xx with content type ${type}`;
  let body: Record<string, unknown>;
  try {
    body = res.json<Record<string, unknown>>();
  } catch {
    return '4xx body is not JSON';
  }
  if (status === 400 && body.error === 'query is required' && Object.keys(body).length === 1) return null;
  if (body.success !== false) return '4xx without success: false';
  const message = body.message;
  if (typeof message !== 'string' || message.trim() === '') return '4xx without a message';
  if (message.length > MAX_MESSAGE) return `message of ${message.length} characters`;
  if (!CJK.test(message) && !ENGLISH_MESSAGES.has(message)) return `message not in the interface's language: ${message}`;
  return null;
}
