import type { FastifyInstance } from 'fastify';
import { badRequest } from './errors.js';
import { routeGuard } from './guards.js';

/**
 * How much body a route reads before refusing it (docs/security.md, "Bodies"): what anyone may
 * send, little; what a logged-in user sends, more; a route that takes files or documents says
 * its own (`bodyLimit` in its options). Uploads are read by the multipart plugin under its own
 * limits. Past the limit: 413 请求体过大, before any parsing.
 */
export const PUBLIC_BODY_LIMIT = 16 * 1024;
export const LOGGED_IN_BODY_LIMIT = 64 * 1024;
/** JSON deeper than this is refused before it is parsed: no body of the interface comes close. */
export const MAX_JSON_DEPTH = 20;

/** Whether `text` opens more than `max` arrays and objects inside one another (strings skipped). */
export function jsonDeeperThan(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // a backslash escapes the next character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > max) return true;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return false;
}

/** Gives every route its body limit by who may call it, and checks JSON's depth before parsing it. */
export function registerRequestBodyRules(app: FastifyInstance, apiRoot: string): void {
  app.addHook('onRoute', (route) => {
    if (route.bodyLimit !== undefined) return;
    route.bodyLimit = routeGuard(route.config?.guard, route.url, apiRoot) === 'public' ? PUBLIC_BODY_LIMIT : LOGGED_IN_BODY_LIMIT;
  });
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (req, body, done) => {
    if (jsonDeeperThan(body as string, MAX_JSON_DEPTH)) {
      done(badRequest(`请求体嵌套层级过深（最多 ${MAX_JSON_DEPTH} 层）`), undefined);
      return;
    }
    void parseJson(req, body as string, done);
  });
}
