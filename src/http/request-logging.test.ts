import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_PASSWORD, API, buildTestApp, cookieOf, type TestApp } from '../../test/helpers/test-app.js';
import { loggableUrl } from './request-logging.js';

describe('request logs', () => {
  let t: TestApp;
  const lines: string[] = [];
  const logged = () => lines.map((l) => JSON.parse(l) as Record<string, unknown>);
  const access = () => logged().filter((l) => l.msg === 'request completed');

  beforeAll(async () => {
    // The production logger configuration, writing into `lines` instead of standard output.
    t = await buildTestApp('sqlite', { env: { LOG_LEVEL: 'info' }, build: { logger: undefined, logStream: { write: (l) => void lines.push(l) } } });
  });
  afterAll(async () => t?.close());

  it('carry the request id on every line of a request, and never a credential', async () => {
    lines.length = 0;
    const json = await t.app.inject({ method: 'POST', url: `${API}/auth/login`, payload: { username: 'admin', password: ADMIN_PASSWORD } });
    const cookie = cookieOf(json);
    const form = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/login`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `username=admin&password=${encodeURIComponent(ADMIN_PASSWORD)}`,
    });
    expect(form.statusCode).toBe(303);
    const wrong = await t.app.inject({ method: 'POST', url: `${API}/auth/login`, payload: { username: 'admin', password: 'Wrong-Secret-Pass-9' } });
    expect(wrong.statusCode).toBe(401);
    const me = await t.app.inject({ url: `${API}/auth/me`, headers: { cookie, authorization: 'Bearer header-secret-123', 'x-request-id': 'trace-abc-123' } });
    expect(me.statusCode).toBe(200);
    expect(me.headers['x-request-id']).toBe('trace-abc-123');
    const search = await t.app.inject({ url: `${API}/v2?query=${encodeURIComponent('许可')}&password=query-secret-1&token=query-secret-2` });
    expect(search.statusCode).toBe(200);

    // A service logging through ctx.log during a request: a restore of a damaged checkpoint.
    const created = await t.app.inject({ method: 'POST', url: `${API}/admin/checkpoints`, payload: {}, headers: { cookie } });
    const id = Number(created.json().data.checkpoint_id);
    await t.dbh.db
      .updateTable('checkpoint_chunks')
      .set({ content: Buffer.from('not gzip') })
      .where('checkpoint_id', '=', id)
      .execute();
    const restore = await t.app.inject({ method: 'POST', url: `${API}/admin/checkpoints/${id}/restore`, payload: {}, headers: { cookie } });
    expect(restore.statusCode).toBe(500);

    // One access line per request, each with its request id; the id a client sent is kept.
    const requests = 7;
    expect(access()).toHaveLength(requests);
    for (const line of logged()) expect(line.reqId, JSON.stringify(line)).toEqual(expect.any(String));
    expect(access().find((l) => l.url === `${API}/auth/me`)).toMatchObject({
      reqId: 'trace-abc-123',
      method: 'GET',
      route: `${API}/auth/me`,
      statusCode: 200,
      userId: expect.any(Number),
      responseTime: expect.any(Number),
    });
    const restoreLine = access().find((l) => String(l.url).endsWith('/restore'));
    const serviceLine = logged().find((l) => l.msg === 'checkpoint restore failed');
    expect(serviceLine?.reqId).toBe(restoreLine?.reqId);
    expect(access().find((l) => l.route === `${API}/v2`)?.url).toBe(`${API}/v2?query=%5Bredacted%5D&password=%5Bredacted%5D&token=%5Bredacted%5D`);

    const text = lines.join('');
    for (const secret of [
      ADMIN_PASSWORD,
      encodeURIComponent(ADMIN_PASSWORD),
      'Wrong-Secret-Pass-9',
      cookie.split('=')[1],
      'lawrisk_sid',
      'header-secret-123',
      'query-secret-1',
      'query-secret-2',
    ]) {
      expect(text, secret).not.toContain(secret);
    }
  });

  it('hide the values of credential-like and question parameters and keep the rest of the URL', () => {
    expect(loggableUrl('/a/b?region=1&session_id=abc&pwd=x&q=%E8%AE%B8')).toBe('/a/b?region=1&session_id=%5Bredacted%5D&pwd=%5Bredacted%5D&q=%5Bredacted%5D');
    expect(loggableUrl('/v2?text=%E8%AE%B8&Query=x&region=2')).toBe('/v2?text=%5Bredacted%5D&Query=%5Bredacted%5D&region=2');
    expect(loggableUrl('/a/b?region=1')).toBe('/a/b?region=1');
    expect(loggableUrl('/a/b')).toBe('/a/b');
  });
});
