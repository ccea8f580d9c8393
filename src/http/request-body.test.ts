import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../test/helpers/databases.js';
import { API, buildTestApp, type TestApp } from '../../test/helpers/test-app.js';
import { jsonDeeperThan, LOGGED_IN_BODY_LIMIT, MAX_JSON_DEPTH, PUBLIC_BODY_LIMIT } from './request-body.js';

const nested = (depth: number) => `${'['.repeat(depth)}${']'.repeat(depth)}`;

describe('the depth of a JSON text', () => {
  it('counts arrays and objects inside one another, not brackets inside strings', () => {
    expect(jsonDeeperThan(nested(20), 20)).toBe(false);
    expect(jsonDeeperThan(nested(21), 20)).toBe(true);
    expect(jsonDeeperThan(`{"a":[{"b":[1,2,{"c":{}}]}]}`, 6)).toBe(false);
    expect(jsonDeeperThan(`{"a":[{"b":[1,2,{"c":{}}]}]}`, 5)).toBe(true);
    expect(jsonDeeperThan(`{"q":"${'['.repeat(100)}","r":"\\"${'{'.repeat(100)}"}`, 1)).toBe(false);
    expect(jsonDeeperThan(`[[[],[],[]],[[],[]]]`, 3)).toBe(false);
  });
});

describe.each(testDialects())('request bodies on %s', (dialect) => {
  let t: TestApp;
  let admin = '';

  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { SEARCH_RATE_LIMIT: '0', LOGIN_RATE_LIMIT: '0' } });
    admin = await t.login();
  });
  afterAll(async () => t?.close());

  const post = (path: string, payload: string, cookie?: string) =>
    t.app.inject({ method: 'POST', url: `${API}${path}`, payload, headers: { 'content-type': 'application/json', ...(cookie ? { cookie } : {}) } });
  /** A JSON object of about `bytes` bytes: one padding field beside `fields`. */
  const sized = (bytes: number, fields: Record<string, unknown>) => {
    const base = JSON.stringify({ ...fields, pad: '' });
    return JSON.stringify({ ...fields, pad: 'x'.repeat(Math.max(0, bytes - base.length)) });
  };
  const TOO_LARGE = { success: false, message: '请求体过大' };

  it("reads a few kB from anyone: search, login and the assistants' tools", async () => {
    for (const path of ['/v2', '/auth/login', '/mcp', '/getPermits']) {
      const res = await post(path, sized(PUBLIC_BODY_LIMIT + 1, { query: '食品' }));
      expect([path, res.statusCode, res.json()]).toEqual([path, 413, expect.objectContaining(TOO_LARGE)]);
    }
    const fits = await post('/v2', sized(PUBLIC_BODY_LIMIT - 100, { query: '食品' }));
    expect(fits.statusCode).toBe(200);
  });

  it("reads tens of kB from a logged-in administrator, and a route's own limit where it has one", async () => {
    const filter = (bytes: number) => post('/admin/permits/advanced-filter', sized(bytes, { search_text: '食品' }), admin);
    expect((await filter(LOGGED_IN_BODY_LIMIT - 100)).statusCode).toBe(200);
    const refused = await filter(LOGGED_IN_BODY_LIMIT + 1);
    expect([refused.statusCode, refused.json()]).toEqual([413, TOO_LARGE]);
    // The lexicon import takes a file of its own size (docs/search-lexicon.md).
    const entries = Array.from({ length: 2000 }, (_, i) => ({ kind: 'synonym', words: [`甲乙${i}丙`, `丁戊${i}己`] }));
    const imported = await post('/admin/search/lexicon/import', JSON.stringify({ format: 'lawrisk-search-lexicon', entries }), admin);
    expect(imported.statusCode).not.toBe(413);
  });

  it('refuses JSON nested deeper than it allows before parsing it, and changes nothing', async () => {
    const deep = `{"query":"食品","x":${nested(MAX_JSON_DEPTH)}}`;
    const refused = await post('/v2', deep);
    // /v2's failures carry `data: {}`.
    expect([refused.statusCode, refused.json()]).toEqual([400, { success: false, message: `请求体嵌套层级过深（最多 ${MAX_JSON_DEPTH} 层）`, data: {} }]);
    expect((await post('/v2', `{"query":"食品","x":${nested(MAX_JSON_DEPTH - 1)}}`)).statusCode).toBe(200);
    const before = await t.dbh.db.selectFrom('users').selectAll().execute();
    const patch = await t.app.inject({
      method: 'PATCH',
      url: `${API}/admin/users/1`,
      payload: `{"display_name":"x","y":${nested(50)}}`,
      headers: { 'content-type': 'application/json', cookie: admin },
    });
    expect(patch.statusCode).toBe(400);
    expect(await t.dbh.db.selectFrom('users').selectAll().execute()).toEqual(before);
  });

  it('answers a large nested body to the public search without parsing it, the service answering the while', async () => {
    const bomb = `{"query":${nested(300_000)}}`; // 600 kB, as the review sent
    const answers = await Promise.all([post('/v2', bomb), post('/v2', bomb), post('/v2', bomb), post('/v2', bomb)]);
    expect(answers.map((r) => r.statusCode)).toEqual([413, 413, 413, 413]);
    expect((await t.app.inject('/healthz')).statusCode).toBe(200);
  });
});

describe('the public catalogue reads share the search rate limit', () => {
  let t: TestApp;
  afterAll(async () => t?.close());

  it('refuses /getPermits and the other catalogue reads past SEARCH_RATE_LIMIT with 429 and Retry-After', async () => {
    t = await buildTestApp('sqlite', { env: { SEARCH_RATE_LIMIT: '3' } });
    const get = (path: string) => t.app.inject({ url: `${API}${path}`, remoteAddress: '203.0.113.9' });
    const answers = [await get('/v2?query=网吧'), await get('/getPermits?region=1'), await get('/v2/regions')];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 200, 200]);
    for (const path of ['/getPermits?region=1', '/v2/themes', '/v2/unbound-permits', '/v2/regions']) {
      const res = await get(path);
      expect([path, res.statusCode, res.json().message]).toEqual([path, 429, '请求过于频繁，请稍后再试']);
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    }
    // Another address is not affected.
    expect((await t.app.inject({ url: `${API}/getPermits?region=1`, remoteAddress: '203.0.113.10' })).statusCode).toBe(200);
  });
});
