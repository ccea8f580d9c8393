import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../../app.js';
import { testDialects } from '../../../test/helpers/databases.js';
import { createRegion } from '../../../test/helpers/fixtures.js';
import { generatedPermits, generatedWorkbook } from '../../../test/helpers/instances.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { importer } from '../importer/import.test-helpers.js';
import { METRICS_LOCAL_ONLY, METRICS_TOKEN_REQUIRED } from './metrics-access.js';

/** Sum of the samples of `name` whose labels include `labels`; undefined when there is none. */
function sample(text: string, name: string, labels: Record<string, string> = {}): number | undefined {
  let sum: number | undefined;
  for (const line of text.split('\n')) {
    const m = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (!m || m[1] !== name) continue;
    const own = Object.fromEntries([...(m[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map((x) => [x[1], x[2]]));
    if (Object.entries(labels).every(([k, v]) => own[k] === v)) sum = (sum ?? 0) + Number(m[3]);
  }
  return sum;
}

const TOKEN = 'scrape-token-for-tests-0123';

describe.each(testDialects())('GET /metrics on %s', (dialect) => {
  let t: TestApp;
  let cookie = '';

  const scrape = async () => {
    const res = await t.app.inject({ url: '/metrics' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/plain; version=0.0.4; charset=utf-8');
    return res.body;
  };
  const search = (query: string) => t.app.inject({ method: 'POST', url: `${API}/v2`, payload: { query } });

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    await createRegion(t.dbh.db, '指标区');
    cookie = await t.login();
    await importer(t).importFile(cookie, '指标.xlsx', {}, await generatedWorkbook(generatedPermits('m', 0, 6), '指标区', '指标主题'));
    expect((await t.app.inject({ method: 'POST', url: `${API}/admin/checkpoints`, payload: {}, headers: { cookie } })).statusCode).toBe(200);
  });
  afterAll(async () => t?.close());

  it('counts requests per route pattern, method and status class, never per raw URL', async () => {
    const before = await scrape();
    const route = `${API}/admin/permit-files/:file_id/download`;
    const counted = { route, method: 'GET', status_class: '4xx' };
    await t.app.inject({ url: `${API}/admin/permit-files/987654/download?x=secret-looking`, headers: { cookie } });
    await t.app.inject({ url: `${API}/admin/permit-files/123456/download`, headers: { cookie } });
    await t.app.inject({ url: '/no/such/path/424242' });
    const after = await scrape();

    expect((sample(after, 'lawrisk_http_requests_total', counted) ?? 0) - (sample(before, 'lawrisk_http_requests_total', counted) ?? 0)).toBe(2);
    expect(sample(after, 'lawrisk_http_request_duration_seconds_count', counted)).toBe(sample(after, 'lawrisk_http_requests_total', counted));
    expect(sample(after, 'lawrisk_http_requests_total', { route: 'unmatched', status_class: '4xx' })).toBeGreaterThanOrEqual(1);
    expect(sample(after, 'lawrisk_http_requests_total', { route: `${API}/auth/login`, method: 'POST', status_class: '2xx' })).toBe(1);
    for (const raw of ['987654', '123456', '424242', 'secret-looking']) expect(after).not.toContain(raw);
  });

  it('shows searches in the search histogram, cached answers apart', async () => {
    const before = await scrape();
    const miss = (text: string) => sample(text, 'lawrisk_search_duration_seconds_count', { cache: 'miss' }) ?? 0;
    const hit = (text: string) => sample(text, 'lawrisk_search_duration_seconds_count', { cache: 'hit' }) ?? 0;
    expect((await search('生成许可事项003号')).statusCode).toBe(200);
    expect((await search('生成许可事项003号')).statusCode).toBe(200);
    const after = await scrape();
    expect(miss(after) - miss(before)).toBe(1);
    expect(hit(after) - hit(before)).toBe(1);
    expect(sample(after, 'lawrisk_search_duration_seconds_sum')).toBeGreaterThan(0);
    expect(sample(after, 'lawrisk_http_requests_total', { route: `${API}/v2`, method: 'POST', status_class: '2xx' })).toBeGreaterThanOrEqual(2);
  });

  it('reports the search index, import and checkpoint durations, the database and the process', async () => {
    const text = await scrape();
    expect(sample(text, 'lawrisk_search_index_documents')).toBe(6);
    expect(sample(text, 'lawrisk_search_index_terms')).toBeGreaterThan(10);
    expect(sample(text, 'lawrisk_search_index_version')).toBeGreaterThanOrEqual(2);
    expect(sample(text, 'lawrisk_search_index_age_seconds')).toBeGreaterThanOrEqual(0);
    expect(sample(text, 'lawrisk_change_feed_poll_age_seconds')).toBeLessThan(5);
    for (const operation of ['import_parse', 'import_commit', 'checkpoint_create']) {
      expect(sample(text, 'lawrisk_operation_duration_seconds_count', { operation, outcome: 'success' }), operation).toBe(1);
    }
    if (dialect === 'postgres') {
      expect(sample(text, 'lawrisk_db_pool_connections', { database: 'primary', state: 'total' })).toBeGreaterThanOrEqual(1);
      expect(sample(text, 'lawrisk_db_pool_connections', { database: 'primary', state: 'idle' })).toBeGreaterThanOrEqual(0);
      expect(sample(text, 'lawrisk_db_pool_waiting_queries', { database: 'primary' })).toBe(0);
    } else {
      expect(sample(text, 'lawrisk_sqlite_file_bytes', { file: 'database' })).toBeGreaterThan(0);
      expect(sample(text, 'lawrisk_sqlite_file_bytes', { file: 'wal' })).toBeGreaterThanOrEqual(0);
    }
    expect(sample(text, 'process_cpu_user_seconds_total')).toBeGreaterThan(0);
    expect(sample(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(0);
  });

  it('answers only local scrapers that did not come through a proxy when no METRICS_TOKEN is set', async () => {
    const refused = { success: false, message: METRICS_LOCAL_ONLY };
    const remote = await t.app.inject({ url: '/metrics', remoteAddress: '10.1.2.3' });
    expect([remote.statusCode, remote.json()]).toEqual([403, refused]);
    const proxied = await t.app.inject({ url: '/metrics', headers: { 'x-forwarded-for': '203.0.113.9' } });
    expect([proxied.statusCode, proxied.json()]).toEqual([403, refused]);
    expect((await t.app.inject({ url: '/metrics', remoteAddress: '::1' })).statusCode).toBe(200);
    expect((await t.app.inject({ url: `${API}/metrics` })).statusCode).toBe(404);
  });

  it('answers a loopback scraper only under a host name this service answers to (DNS rebinding)', async () => {
    const refused = { success: false, message: METRICS_LOCAL_ONLY };
    const scrapeAs = (host: string, remoteAddress = '127.0.0.1') => t.app.inject({ url: '/metrics', headers: { host }, remoteAddress });
    // A page of a foreign name whose address was turned to 127.0.0.1 sends its own name: the answer an unauthorised client gets.
    for (const host of ['evil.example', `evil.example:${t.config.port}`, 'localhost.evil.example', '127.0.0.1.evil.example', 'evil.example:80@localhost']) {
      for (const remoteAddress of ['127.0.0.1', '::1']) {
        const res = await scrapeAs(host, remoteAddress);
        expect(res.statusCode, `${host} from ${remoteAddress}`).toBe(403);
        expect(res.json()).toEqual(refused);
        expect(res.body).not.toContain('lawrisk_');
      }
    }
    for (const host of [`127.0.0.1:${t.config.port}`, '127.0.0.1', 'localhost', `LocalHost:${t.config.port}`, `[::1]:${t.config.port}`, '[::1]']) {
      const res = await scrapeAs(host);
      expect(res.statusCode, host).toBe(200);
      expect(res.body).toContain('lawrisk_http_requests_total');
    }
    // Still only from this host.
    const remote = await scrapeAs(`127.0.0.1:${t.config.port}`, '10.1.2.3');
    expect([remote.statusCode, remote.json()]).toEqual([403, refused]);
  });

  it('counts the configured HOST among those names when it is one address, never when it is every address', async () => {
    for (const [host, allowed, refused] of [
      ['127.0.0.2', ['127.0.0.2', `127.0.0.2:${t.config.port}`, 'localhost'], ['evil.example', '0.0.0.0']],
      ['::1', ['[::1]', `[::1]:${t.config.port}`], ['evil.example']],
      ['0.0.0.0', ['localhost', `127.0.0.1:${t.config.port}`], ['0.0.0.0', `0.0.0.0:${t.config.port}`, 'evil.example']],
      ['::', ['localhost'], ['[::]', 'evil.example']],
    ] as const) {
      const dbh = t.database.open();
      const { app } = await buildApp({ ...t.config, host }, { dbh, logger: false });
      try {
        for (const name of allowed) expect((await app.inject({ url: '/metrics', headers: { host: name } })).statusCode, `${host}: ${name}`).toBe(200);
        for (const name of refused) {
          const res = await app.inject({ url: '/metrics', headers: { host: name } });
          expect(res.statusCode, `${host}: ${name}`).toBe(403);
          expect(res.json()).toEqual({ success: false, message: METRICS_LOCAL_ONLY });
        }
      } finally {
        await app.close();
        await dbh.close();
      }
    }
  });

  it('answers anyone with the bearer token, and nobody without it, when METRICS_TOKEN is set', async () => {
    const dbh = t.database.open();
    const { app } = await buildApp({ ...t.config, metricsToken: TOKEN }, { dbh, logger: false });
    try {
      const get = (headers: Record<string, string>, remoteAddress = '10.1.2.3') => app.inject({ url: '/metrics', headers, remoteAddress });
      const refusedHeaders: Array<Record<string, string>> = [{}, { authorization: 'Bearer wrong-token-0123456789' }, { authorization: TOKEN }];
      for (const headers of refusedHeaders) {
        for (const remoteAddress of ['10.1.2.3', '127.0.0.1']) {
          const res = await get(headers, remoteAddress);
          expect([res.statusCode, res.json()]).toEqual([401, { success: false, message: METRICS_TOKEN_REQUIRED }]);
          expect(res.headers['www-authenticate']).toBe('Bearer realm="metrics"');
        }
      }
      const ok = await get({ authorization: `Bearer ${TOKEN}` });
      expect(ok.statusCode).toBe(200);
      expect(ok.body).toContain('lawrisk_http_requests_total');
      expect((await get({ authorization: `bearer ${TOKEN}`, 'x-forwarded-for': '203.0.113.9' })).statusCode).toBe(200);
      // The token is the whole rule: whatever name the scraper used.
      expect((await get({ authorization: `Bearer ${TOKEN}`, host: 'metrics.scrape.example:9100' })).statusCode).toBe(200);
      expect((await get({ host: 'evil.example' }, '127.0.0.1')).statusCode).toBe(401);
    } finally {
      await app.close();
      await dbh.close();
    }
  });
});
