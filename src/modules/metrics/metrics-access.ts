import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { Config } from '../../config.js';
import { AppError } from '../../http/errors.js';

export const METRICS_TOKEN_REQUIRED = '需要有效的指标访问令牌（Authorization: Bearer <METRICS_TOKEN>）';
export const METRICS_LOCAL_ONLY = '指标仅对本机开放；从其他主机读取请设置 METRICS_TOKEN';

const LOOPBACK = /^(127\.\d+\.\d+\.\d+|::1|::ffff:127\.\d+\.\d+\.\d+)$/;
/** Headers a proxy adds: a request carrying one came through it, from anywhere. */
const PROXY_HEADERS = ['x-forwarded-for', 'x-real-ip', 'forwarded'];

/** The names of this machine itself, which no page of another site can make a browser send. */
const LOOPBACK_NAMES = ['localhost', '127.0.0.1', '[::1]'];
/** HOST values that bind every address: not a name of this service. */
const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);
/** `name` or `name:port` (an IPv6 address in brackets); anything else names nothing. */
const HOST_HEADER = /^(\[[0-9a-f:.]+\]|[a-z0-9.-]+)(?::\d{1,5})?$/;

/**
 * The host names a loopback scraper may use: the loopback names, and HOST when it is one address
 * or name (IPv6 in brackets, as a Host header writes it). The port is not part of the rule: DNS
 * rebinding works through the name (a foreign name turned to 127.0.0.1, which the browser still
 * sends), and a page served under one of these names already runs on this machine.
 */
function localHostNames(host: string): Set<string> {
  const names = new Set(LOOPBACK_NAMES);
  const own = host.toLowerCase();
  if (own !== '' && !WILDCARD_HOSTS.has(own)) names.add(own.includes(':') && !own.startsWith('[') ? `[${own}]` : own);
  return names;
}

/** The name of a Host header, lower case, without its port; null for a missing or malformed one. */
function hostName(header: string | undefined): string | null {
  const m = HOST_HEADER.exec((header ?? '').toLowerCase());
  return m ? m[1] : null;
}

function sameSecret(given: string, expected: string): boolean {
  // Hashing first gives equal lengths, which timingSafeEqual needs, and leaks nothing about the token's length.
  const digest = (s: string) => createHash('sha256').update(s).digest();
  return timingSafeEqual(digest(given), digest(expected));
}

/**
 * Who may read /metrics: answers the refusal for a request, or null. With METRICS_TOKEN set:
 * whoever sends `Authorization: Bearer <token>` (401 otherwise). Without it: only a scraper on
 * this host, i.e. a connection from a loopback address that did not come through a proxy (so a
 * local nginx does not open it to the world) and names this service in its Host header (so a
 * browser on this host, led by a foreign page whose name now points here, cannot read it);
 * anyone else 403. The socket address and the Host header are used, never X-Forwarded-*,
 * whatever TRUST_PROXY says.
 */
export function metricsAccess(config: Pick<Config, 'metricsToken' | 'host'>): (req: FastifyRequest) => AppError | null {
  const token = config.metricsToken;
  const names = localHostNames(config.host);
  return (req) => {
    if (token !== null) {
      const header = req.headers.authorization;
      const given = typeof header === 'string' && /^bearer\s+/i.test(header) ? header.replace(/^bearer\s+/i, '').trim() : '';
      return given !== '' && sameSecret(given, token) ? null : new AppError(401, METRICS_TOKEN_REQUIRED);
    }
    const name = hostName(req.headers.host);
    const local = LOOPBACK.test(req.socket.remoteAddress ?? '') && PROXY_HEADERS.every((h) => req.headers[h] === undefined) && name !== null && names.has(name);
    return local ? null : new AppError(403, METRICS_LOCAL_ONLY);
  };
}
