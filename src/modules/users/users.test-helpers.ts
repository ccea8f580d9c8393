import type { LightMyRequestResponse } from 'fastify';
import type { Executor } from '../../db/database.js';
import { API, type TestApp } from '../../../test/helpers/test-app.js';

type Method = 'GET' | 'POST' | 'PATCH' | 'DELETE';

/** A caller of the real routes: `call('POST', '/admin/users', body, cookie)`. */
export function caller(t: TestApp) {
  return (method: Method, path: string, payload?: unknown, cookie?: string): Promise<LightMyRequestResponse> =>
    t.app.inject({ method, url: `${API}${path}`, ...(payload === undefined ? {} : { payload: payload as object }), headers: cookie ? { cookie } : {} });
}

/** A raw body with its content type (malformed JSON, forms). */
export function rawCaller(t: TestApp) {
  return (method: Method, path: string, body: string, contentType: string, cookie?: string) =>
    t.app.inject({ method, url: `${API}${path}`, payload: body, headers: { 'content-type': contentType, ...(cookie ? { cookie } : {}) } });
}

/**
 * Everything accounts and organisation routes can change, to prove a refused request changed
 * nothing (sessions by count: a refused request never creates or ends one).
 */
export async function accountState(db: Executor) {
  const [users, departments, themes, regionThemes, approval, sessions] = await Promise.all([
    db.selectFrom('users').selectAll().orderBy('id').execute(),
    db.selectFrom('service_departments').selectAll().orderBy('id').execute(),
    db.selectFrom('themes').selectAll().orderBy('id').execute(),
    db.selectFrom('region_themes').selectAll().orderBy('id').execute(),
    db.selectFrom('approval_departments').selectAll().orderBy('id').execute(),
    db
      .selectFrom('sessions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow(),
  ]);
  return { users, departments, themes, regionThemes, approval, sessions: Number(sessions.n) };
}

/** Operation-log entries, newest last. */
export function operationLogs(db: Executor) {
  return db.selectFrom('operation_logs').selectAll().orderBy('id', 'asc').execute();
}

/** Asserts that no stored log entry contains any of the given secrets. */
export async function logsContainNone(db: Executor, secrets: string[]): Promise<boolean> {
  const text = JSON.stringify(await operationLogs(db));
  return secrets.every((s) => !text.includes(s));
}
