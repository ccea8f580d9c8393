import { Type, type TSchema } from '@sinclair/typebox';
import type { SwaggerTransform, SwaggerTransformObject } from '@fastify/swagger';
import type { RouteOptions } from 'fastify';
import { routeGuard, type Guard } from '../guards.js';
import { Failure, FailureWithEmptyData, failureWithData } from './envelope.js';
import { content, failure, redirect, type ResponseDoc, type RouteDoc } from './route-doc.js';

const GUARD_TEXT: Record<Guard, string> = {
  public: '',
  login: 'Needs a login (the session cookie).',
  admin: 'Admin guard: needs a login with role `admin` or grade 90 and above.',
  'page-login': 'Page guard: without a login the browser is sent to the login page.',
  'page-super': 'Page guard: without a login the browser is sent to the login page; only role `admin` may open it.',
};

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** Marks an operation whose body may be left out (@fastify/swagger copies `x-` keys to the operation). */
const OPTIONAL_BODY = 'x-optional-body';

/** The answers a route gives by its kind (guard, method, body schema, rate limit), whatever it does. */
function commonResponses(route: RouteOptions, guard: Guard, method: string): Record<number, ResponseDoc[]> {
  const config = route.config ?? {};
  const out: Record<number, ResponseDoc[]> = {};
  const add = (status: number, doc: ResponseDoc) => (out[status] ??= []).push(doc);
  if (guard === 'login' || guard === 'admin') {
    add(401, failure('Not logged in: 请先登录.'));
    add(403, failure('A user that must first change its initial password: 请先修改初始密码 (`code: MUST_CHANGE_PASSWORD`).'));
  }
  if (guard === 'admin') add(403, failure('Logged in without the right: 权限不足.'));
  if (guard === 'page-login' || guard === 'page-super') add(302, redirect('Not logged in: to the login page, with `next` set to this page.'));
  if (guard === 'page-super') add(403, content('Logged in without role `admin`: the 权限不足 page.', ['text/html']));
  if (STATE_CHANGING.has(method)) {
    add(403, failure('A request carrying the session cookie from another origin: 跨站请求被拒绝.'));
    add(400, failure('A body that cannot be read: 请求体不是有效的 JSON, 请求体应为 JSON 对象或表单, 请求不是有效的 multipart/form-data.'));
    add(413, failure('A body over the size limits: 请求体过大, 上传的字段或文件过多.'));
    add(415, failure('An unsupported body type: 不支持的请求内容类型.'));
  }
  if (route.schema?.body) add(400, failure('A body field of the wrong type or length, or an unknown field: 缺少必填参数…, 不支持的参数…, 参数 … 类型不正确….'));
  // The text-input guard (src/http/text-input.ts), for every route.
  add(400, failure('Text no database can store (a NUL, an unpaired surrogate) in the query string or body: 参数 … 含有无效字符….'));
  if (route.url.includes(':') || route.url.includes('*')) add(404, failure('Such text in the path: 请求的资源不存在.'));
  if (config.rateLimit || config.rateLimited) add(429, failure('Too many requests from this client IP: 请求过于频繁，请稍后再试.'));
  add(500, failure(config.failureMessage ? `Unexpected failure: ${config.failureMessage}.` : 'Unexpected failure: `message` is the text of the failure.'));
  add(503, failure('The database is unavailable, busy, read-only or full: 数据库暂时不可用，请稍后重试 and the like.'));
  return out;
}

const BINARY = { type: 'string', format: 'binary' };

/** The failure envelope of one status: the shared one, or one whose `data` carries the details given. */
function failureSchema(failures: Array<{ data?: TSchema }>, emptyData: boolean): TSchema {
  const details = failures.flatMap((f) => (f.data ? [f.data] : []));
  if (details.length === 0) return emptyData ? FailureWithEmptyData : Failure;
  return failureWithData(emptyData ? [Type.Object({}, { additionalProperties: false }), ...details] : details);
}

/** One status of the document: the route's own answers first, then the common ones. */
function toSwaggerResponse(docs: ResponseDoc[], emptyDataFailures: boolean): Record<string, unknown> {
  const description = [...new Set(docs.map((d) => d.description))].join(' ');
  const jsonSchemas = docs.flatMap((d) => (d.kind === 'json' ? [d.schema] : []));
  const failures = docs.flatMap((d) => (d.kind === 'failure' ? [d] : []));
  if (failures.length > 0) jsonSchemas.push(failureSchema(failures, emptyDataFailures));
  const media: Record<string, { schema: unknown }> = {};
  const headers: Record<string, { type: 'string'; description: string }> = {};
  for (const d of docs) {
    if (d.kind === 'content') {
      for (const type of d.mediaTypes) media[type] = { schema: type === 'text/html' ? { type: 'string' } : BINARY };
      for (const [name, text] of Object.entries(d.headers ?? {})) headers[name] = { type: 'string', description: text };
    }
    if (d.kind === 'redirect') headers.location = { type: 'string', description: 'Where to go.' };
  }
  const withHeaders = Object.keys(headers).length > 0 ? { headers } : {};
  const json = jsonSchemas.length === 0 ? undefined : jsonSchemas.length === 1 ? jsonSchemas[0] : Type.Union(jsonSchemas);
  if (json && Object.keys(media).length === 0) {
    // A JSON-only answer is handed over as a schema (@fastify/swagger makes it application/json), so
    // the shared shapes inside it become components; a shared shape itself is wrapped to stay one.
    const body = typeof json.$id === 'string' ? { anyOf: [json] } : { ...json };
    return { ...body, 'x-response-description': description, ...withHeaders };
  }
  if (json) media['application/json'] = { schema: json };
  // @fastify/swagger reads a response without a media type from `type: 'null'`.
  if (Object.keys(media).length === 0) return { description, type: 'null', ...withHeaders };
  return { description, content: media, ...withHeaders };
}

function descriptionOf(doc: RouteDoc, route: RouteOptions, guard: Guard): string | undefined {
  const operation = route.config?.operation;
  const parts = [
    doc.description,
    GUARD_TEXT[guard],
    doc.sessionOptional ? `Optional login: ${doc.sessionOptional}` : '',
    operation ? `Recorded in the operation log (type \`${operation.type}\`), success or failure.` : '',
  ];
  const text = parts.filter(Boolean).join('\n\n');
  return text === '' ? undefined : text;
}

/**
 * The `transform` of @fastify/swagger: builds a route's operation from its `config.doc`, its
 * guard and its kind. A route without a description is left out, so the coverage test names it.
 */
export function describeRoute(apiRoot: string): SwaggerTransform {
  return ({ schema, url, route }) => {
    if (schema?.hide) return { schema, url };
    const doc = route.config?.doc;
    if (!doc) return { schema: { hide: true }, url };
    const method = String(route.method);
    const guard = routeGuard(route.config?.guard, route.url, apiRoot);
    const statuses: Record<number, ResponseDoc[]> = {};
    for (const [status, own] of Object.entries(doc.responses)) statuses[Number(status)] = Array.isArray(own) ? [...own] : [own];
    for (const [status, common] of Object.entries(commonResponses(route, guard, method))) {
      (statuses[Number(status)] ??= []).push(...common);
    }
    const emptyDataFailures = route.config?.failureExtra?.data !== undefined;
    const response: Record<string, unknown> = {};
    for (const [status, docs] of Object.entries(statuses)) response[status] = toSwaggerResponse(docs, emptyDataFailures);
    const body = doc.body ?? schema?.body;
    const session: Record<string, string[]> = { session: [] };
    const security = guard === 'public' ? (doc.sessionOptional ? [{}, session] : []) : [session];
    return {
      url,
      schema: {
        tags: doc.tags,
        summary: doc.summary,
        description: descriptionOf(doc, route, guard),
        security,
        ...(doc.querystring ? { querystring: doc.querystring } : {}),
        ...(doc.params ? { params: doc.params } : {}),
        ...(body ? { body, consumes: doc.consumes ?? ['application/json'] } : {}),
        ...(body && !doc.bodyRequired ? { [OPTIONAL_BODY]: true } : {}),
        response,
        // Everything but /healthz and /readyz is below {api_root}, the document's server.
        ...(url.startsWith(`${apiRoot}/`) ? {} : { servers: [{ url: '/' }] }),
      },
    };
  };
}

/**
 * The `transformObject` of @fastify/swagger: @fastify/swagger marks every request body required
 * (Fastify's own body validation wants one); most of this service's bodies may be left out.
 */
export const markOptionalBodies: SwaggerTransformObject = (document) => {
  if (!('openapiObject' in document)) return document.swaggerObject;
  for (const item of Object.values(document.openapiObject.paths ?? {})) {
    for (const op of Object.values(item ?? {}) as Array<Record<string, unknown> | null>) {
      if (!op || typeof op !== 'object' || !(OPTIONAL_BODY in op)) continue;
      delete op[OPTIONAL_BODY];
      if (op.requestBody) (op.requestBody as { required: boolean }).required = false;
    }
  }
  return document.openapiObject;
};
