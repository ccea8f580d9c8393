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
  ) {
    super(message);
    this.name = 'AppError';
  }
}

export const badRequest = (message: string, extra?: Record<string, unknown>) => new AppError(400, message, extra);
export const unauthorized = (message = '请先登录') => new AppError(401, message);
export const forbidden = (message = '权限不足', extra?: Record<string, unknown>) => new AppError(403, message, extra);
export const notFound = (message: string, extra?: Record<string, unknown>) => new AppError(404, message, extra);
export const conflict = (message: string, extra?: Record<string, unknown>) => new AppError(409, message, extra);
export const tooMany = (message: string) => new AppError(429, message);
