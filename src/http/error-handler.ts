import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { AppError } from './errors.js';
import { mapDatabaseError } from './db-errors.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Message of a 500 on this route, where the interface fixes one (e.g. 文件列表加载失败). */
    failureMessage?: string;
    /** Extra envelope fields of every failure on this route (e.g. `data: {}` on search). */
    failureExtra?: Record<string, unknown>;
  }
}

interface AjvError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  message?: string;
}

/** A field name as the caller sent it, shortened: a message names the field, it does not echo a hostile key back. */
function fieldName(name: unknown): string {
  const text = typeof name === 'string' || typeof name === 'number' ? String(name) : '';
  return text.length > 40 ? `${text.slice(0, 40)}…` : text;
}

function validationMessage(errors: AjvError[], context: string | undefined): string {
  const e = errors[0];
  const field = fieldName(e.instancePath.replace(/^\//, '').replace(/\//g, '.') || e.params.missingProperty);
  const where = context === 'querystring' ? '查询参数' : context === 'params' ? '路径参数' : '参数';
  switch (e.keyword) {
    case 'required':
      return `缺少必填${where}：${fieldName(e.params.missingProperty)}`;
    case 'additionalProperties':
      return `不支持的${where}：${fieldName(e.params.additionalProperty)}`;
    case 'type':
      if (!field) return context === 'body' ? '请求体应为 JSON 对象或表单' : `${where}格式不正确`;
      return `${where} ${field} 类型不正确（应为 ${String(e.params.type)}）`;
    case 'maxLength':
      return `${where} ${field} 过长（最多 ${String(e.params.limit)} 个字符）`;
    case 'minLength':
      return `${where} ${field} 不能为空`;
    case 'enum':
      return `${where} ${field} 的取值无效，可选值：${(e.params.allowedValues as unknown[]).join('、')}`;
    default:
      return `${where} ${field} 无效：${e.message ?? e.keyword}`;
  }
}

/** What a client error of the framework or a plugin says when no code of it is known: the status in words. */
const CLIENT_ERROR_BY_STATUS: Record<number, string> = {
  400: '请求格式不正确',
  404: '请求的资源不存在',
  405: '不支持的请求方法',
  406: '无法提供请求的内容类型',
  408: '请求超时',
  411: '请求缺少 Content-Length',
  413: '请求体过大',
  414: '请求地址过长',
  415: '不支持的请求内容类型',
  429: '请求过于频繁，请稍后再试',
  431: '请求头过大',
};

const statusError = (status: number) => new AppError(status, CLIENT_ERROR_BY_STATUS[status] ?? CLIENT_ERROR_BY_STATUS[400]);

/**
 * Fastify's own client errors (bad JSON, size, media type, malformed URL) in the interface's
 * language. Their English texts (which may echo the request) never reach the client.
 */
function frameworkError(err: FastifyError): AppError | null {
  switch (err.code) {
    case 'FST_ERR_CTP_INVALID_JSON_BODY':
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError(400, '请求体不是有效的 JSON');
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
    case 'FST_REQ_FILE_TOO_LARGE':
      return statusError(413);
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return statusError(415);
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError(400, '请求的 Content-Length 无效');
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
    case 'FST_MULTIPART_INVALID_CONTENT_TYPE':
      return new AppError(400, '请求不是有效的 multipart/form-data');
    case 'FST_PARTS_LIMIT':
    case 'FST_FILES_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return new AppError(413, '上传的字段或文件过多');
    case 'FST_PROTO_VIOLATION':
      return new AppError(400, '表单字段名无效');
    case 'FST_ERR_BAD_URL':
      return new AppError(400, '请求地址含有无效的字符编码');
    case 'FST_ERR_MAX_PARAM_LENGTH':
      return new AppError(414, '请求地址中的参数过长');
  }
  // A JSON body the parser refused (secure-json-parse: syntax, or a __proto__ / constructor.prototype key).
  if (err instanceof SyntaxError) return new AppError(400, '请求体不是有效的 JSON');
  if (err.statusCode && err.statusCode >= 400 && err.statusCode < 500) {
    return statusError(err.statusCode);
  }
  return null;
}

/**
 * Fastify's `frameworkErrors`: what the router refuses before any route runs (a path that is not
 * valid percent-encoded UTF-8, a path parameter over the length limit) gets the same envelope.
 */
export function answerRouterError(err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  const known = frameworkError(err) ?? new AppError(400, CLIENT_ERROR_BY_STATUS[400]);
  void reply.status(known.status).send({ success: false, message: known.message });
}

/** The single error path: every failure of every route becomes an envelope here. */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((err: FastifyError, req: FastifyRequest, reply: FastifyReply) => {
    const config = req.routeOptions?.config ?? {};
    let known: AppError | null;
    if (err instanceof AppError) known = err;
    else if (err.validation) {
      known = new AppError(400, validationMessage(err.validation, err.validationContext));
    } else known = mapDatabaseError(err) ?? frameworkError(err);

    if (known) {
      if (known.status >= 500) req.log.warn({ err }, 'request failed');
      void reply.headers(known.headers);
      if (known.body !== undefined) return reply.status(known.status).send(known.body);
      return reply.status(known.status).send({ success: false, message: known.message, ...config.failureExtra, ...known.extra });
    }

    // Unexpected: logged with the request id (pino adds it); the body carries no stack trace.
    req.log.error({ err }, 'unhandled error');
    const message = config.failureMessage ?? (err.message || '服务器内部错误');
    return reply.status(500).send({ success: false, message, ...config.failureExtra });
  });

  app.setNotFoundHandler((req, reply) => {
    reply.status(404).send({ success: false, message: `接口不存在：${req.method} ${req.url.split('?')[0]}` });
  });
}
