import { format } from 'node:util';
import type { FastifyBaseLogger } from 'fastify';
import type { LogLevel } from '../config.js';
import type { OutputStream } from './io.js';

const ORDER: LogLevel[] = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

/**
 * The logger services get from the command line: plain `lawrisk: <level>: message` lines on
 * stderr (the service's JSON lines are for log collectors, these are for the operator reading).
 */
export function cliLogger(out: OutputStream, level: LogLevel): FastifyBaseLogger {
  const threshold = ORDER.indexOf(level);
  const at =
    (name: LogLevel) =>
    (...args: unknown[]) => {
      if (ORDER.indexOf(name) < threshold) return;
      const [first, ...rest] = args;
      let text: string;
      if (first !== null && typeof first === 'object' && !(first instanceof Error)) {
        const err = (first as { err?: unknown }).err;
        text = format(...rest) + (err instanceof Error ? `: ${err.message}` : '');
      } else {
        text = first instanceof Error ? first.message : format(first, ...rest);
      }
      out.write(`lawrisk: ${name}: ${text}\n`);
    };
  const logger = {
    level,
    trace: at('trace'),
    debug: at('debug'),
    info: at('info'),
    warn: at('warn'),
    error: at('error'),
    fatal: at('fatal'),
    silent: () => {},
    child: () => logger,
  };
  return logger;
}
