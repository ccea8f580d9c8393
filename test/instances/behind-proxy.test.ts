import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { METRICS_LOCAL_ONLY } from '../../src/modules/metrics/metrics-access.js';
import { ADMIN_PASSWORD, API, buildTestApp, cookieOf, type TestApp } from '../helpers/test-app.js';

/** What the nginx configuration of docs/deploy.md sends to an instance. */
const NGINX = {
  host: 'lawrisk.example.gov.cn:8443',
  'x-forwarded-proto': 'https',
  'x-forwarded-for': '198.51.100.7',
  'x-request-id': '0f1e2d3c4b5a69788796a5b4c3d2e1f0',
};
const ORIGIN = 'https://lawrisk.example.gov.cn:8443';

/** An instance with TRUST_PROXY behind nginx configured as docs/deploy.md says. */
describe('behind nginx with TRUST_PROXY', () => {
  let t: TestApp;
  let cookie = '';

  beforeAll(async () => {
    t = await buildTestApp('sqlite', { env: { TRUST_PROXY: '1' } });
  });
  afterAll(async () => t?.close());

  it('logs in over the proxy with a Secure cookie and accepts same-origin changes', async () => {
    const login = await t.app.inject({
      method: 'POST',
      url: `${API}/auth/login`,
      payload: { username: 'admin', password: ADMIN_PASSWORD },
      headers: { ...NGINX, origin: ORIGIN },
    });
    expect(login.statusCode, login.body).toBe(200);
    expect(String(login.headers['set-cookie'])).toMatch(/; Secure/);
    cookie = cookieOf(login);

    const created = await t.app.inject({
      method: 'POST',
      url: `${API}/admin/regions`,
      payload: { name: '代理区' },
      headers: { ...NGINX, origin: ORIGIN, cookie },
    });
    expect(created.statusCode, created.body).toBe(200);
    const log = await t.dbh.db.selectFrom('operation_logs').selectAll().orderBy('id', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(log).toMatchObject({ client_ip: '198.51.100.7', request_id: NGINX['x-request-id'], outcome: 'success' });
    expect(created.headers['x-request-id']).toBe(NGINX['x-request-id']);

    const crossSite = await t.app.inject({
      method: 'POST',
      url: `${API}/admin/regions`,
      payload: { name: '跨站区' },
      headers: { ...NGINX, origin: 'https://evil.example', cookie },
    });
    expect([crossSite.statusCode, crossSite.json()]).toEqual([403, { success: false, message: '跨站请求被拒绝' }]);
  });

  it('does not open /metrics to requests that came through the proxy', async () => {
    const res = await t.app.inject({ url: '/metrics', headers: NGINX });
    expect([res.statusCode, res.json()]).toEqual([403, { success: false, message: METRICS_LOCAL_ONLY }]);
  });
});
