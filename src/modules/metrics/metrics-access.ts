import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors.js';

export const METRICS_TOKEN_REQUIRED = '需要有效的指标访问令牌（Authorization: Bearer <METRICS_TOKEN>）';
export const METRICS_LOCAL_ONLY = '指标仅对本机开放；从其他主机读取请设置 METRICS_TOKEN';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
/** Headers a proxy adds: a request carrying one came through it, from anywhere. */
const PROXY_HEADERS = ['x-forwarded-for', 'x-real-ip', 'forwarded'];

function sameSecret(given: string, expected: string): boolean {
  // Hashing first gives equal lengths, which timingSafeEqual needs, and leaks nothing about the token's length.
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Who may read /metrics. With METRICS_TOKEN set: whoever sends `Authorization: Bearer <token>`
 * (401 otherwise). Without it: only a scraper on this host, i.e. a connection from a loopback
 * address that did not come through a proxy (so a local nginx does not open it to the world);
 * anyone else 403. The socket address is used, never X-Forwarded-For, whatever TRUST_PROXY says.
 */
export function metricsRefusal(req: FastifyRequest, token: string | null): AppError | null {
  if (token !== null) {
    const header = req.headers.authorization;
    const given = typeof header === 'string' && /^bearer\s+/i.test(header) ? header.replace(/^bearer\s+/i, '').trim() : '';
    return given !== '' && sameSecret(given, token) ? null : new AppError(401, METRICS_TOKEN_REQUIRED);
  }
  const local = LOOPBACK.test(req.socket.remoteAddress ?? '') && PROXY_HEADERS.every((h) => req.headers[h] === undefined);
  return local ? null : new AppError(403, METRICS_LOCAL_ONLY);
}
