/**
 * The one error type services throw. The error handler turns it into the interface's envelope:
 * `{success: false, message, ...extra}`; `body` replaces the whole envelope for the few routes
 * whose failure shape is fixed differently by the interface.
 */
export class AppError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly extra: Record<string, unknown> = {},
    readonly body?: unknown,
    /** Response headers the refusal carries (Retry-After of a 429). */
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = 'AppError';
  }
}

/** The `code` a driver or Node puts on its errors ('' when there is none). */
export function errorCode(err: unknown): string {
  const code = (err as { code?: unknown } | null | undefined)?.code;
  return typeof code === 'string' || typeof code === 'number' ? String(code) : '';
}

export const badRequest = (message: string, extra?: Record<string, unknown>) => new AppError(400, message, extra);
export const unauthorized = (message = '请先登录') => new AppError(401, message);
export const forbidden = (message = '权限不足', extra?: Record<string, unknown>) => new AppError(403, message, extra);
export const notFound = (message: string, extra?: Record<string, unknown>) => new AppError(404, message, extra);
export const conflict = (message: string, extra?: Record<string, unknown>) => new AppError(409, message, extra);
/** 429; with `retryAfterSeconds`, a Retry-After header telling the client when to try again. */
export const tooMany = (message: string, retryAfterSeconds?: number) =>
  new AppError(429, message, {}, undefined, retryAfterSeconds === undefined ? {} : { 'retry-after': String(retryAfterSeconds) });
