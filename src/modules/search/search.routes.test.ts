import { gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { createDepartment, createUser } from '../../../test/helpers/fixtures.js';
import { seedCatalog, type SeedResult } from '../../../test/helpers/seed-catalog.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';

const HIDDEN = '511602:511A0147300000'; // 户口迁移审批, search-invisible in the corpus
const THEMED = '511603:511A33038003'; // 举办高危险性体育赛事活动许可（县级）, theme 举办大型活动

describe.each(testDialects())('public search and lookup on %s', (dialect) => {
  let t: TestApp;
  let seed: SeedResult;
  let admin = '';
  let deptAdmin = '';

  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { SEARCH_RATE_LIMIT: '0' } });
    seed = await seedCatalog(t.dbh.db);
    await t.app.searchIndex.rebuild();
    const dept = await createDepartment(t.dbh.db, { name: '前锋区政务中心', code: 'QFZW', region_id: seed.regions.get('511603')! });
    await createUser(t.dbh.db, { username: 'qf', password: 'Qf-Pass-1234', department_id: dept });
    admin = await t.login();
    deptAdmin = await t.login('qf', 'Qf-Pass-1234');
  });
  afterAll(async () => t?.close());

  const get = (url: string, cookie?: string) => t.app.inject({ url: `${API}${url}`, headers: cookie ? { cookie } : {} });
  const post = (url: string, payload: object | string, headers: Record<string, string> = {}) =>
    t.app.inject({ method: 'POST', url: `${API}${url}`, payload, headers });

  it('answers a blank, missing or non-string query with 400 {error}', async () => {
    for (const res of [
      await get('/v2'),
      await get('/v2?query=%20%20'),
      await post('/v2', { query: '' }),
      await post('/v2', { query: 12345 }),
      await post('/v2', { query: ['食品'] }),
      await get('/v2?query=a&query=b'),
    ]) {
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ error: 'query is required' });
    }
  });

  it('sends answers gzip-compressed to clients that accept it, the same answer as without', async () => {
    const query = { query: '食品经营许可' };
    const plain = await post('/v2', query);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers.vary).toContain('accept-encoding');
    const without = (body: { data: Record<string, unknown> }) => ({ ...body, data: { ...body.data, executionTime: 0 } });
    const zipped = await post('/v2', query, { 'accept-encoding': 'gzip, deflate, br' });
    expect(zipped.statusCode).toBe(200);
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(zipped.headers.vary).toContain('accept-encoding');
    expect(zipped.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
    expect(without(JSON.parse(gunzipSync(zipped.rawPayload).toString('utf8')))).toEqual(without(plain.json()));
    // Refused with q=0, or not offered: the plain answer.
    for (const refusal of ['gzip;q=0, identity', 'br', 'identity']) {
      const res = await post('/v2', query, { 'accept-encoding': refusal });
      expect(res.headers['content-encoding'], refusal).toBeUndefined();
      expect(without(res.json())).toEqual(without(plain.json()));
    }
    // A small answer (no match) is not worth compressing.
    const none = await post('/v2', { query: '量子纠缠超导体' }, { 'accept-encoding': 'gzip' });
    expect(none.json().data.workflowStatus).toBe('no_match');
    expect(none.headers['content-encoding']).toBeUndefined();
  });

  it('returns the fixed envelope with ranked risk subjects', async () => {
    const res = await get(`/v2?query=${encodeURIComponent('旅馆业特种行业许可证核发')}`);
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.success).toBe(true);
    expect(body.message).toBe('OK');
    const d = body.data;
    expect(d).toMatchObject({
      llmRespond: '',
      request: '',
      questionExtend: [],
      conversationId: '',
      messageId: '',
      workflowTrackingId: '',
      roundNumber: 0,
      conversationInfo: {},
      costStatistics: {},
      knowledgeSources: [],
      executionSteps: [],
      totalKnowledgeSources: 0,
      workflowStatus: 'ok',
      debug: {},
    });
    expect(Number.isInteger(d.executionTime)).toBe(true);
    expect(d.risk_subject.length).toBeGreaterThan(0);
    expect(d.risk_subject.length).toBeLessThanOrEqual(20);
    const first = d.risk_subject[0];
    expect(first.permit.name).toBe('旅馆业特种行业许可证核发');
    expect(Object.keys(first).sort()).toEqual(['matched', 'permit', 'region', 'risks', 'score', 'theme', 'themes']);
    expect(Object.keys(first.permit).sort()).toEqual([
      'approval_departments',
      'code',
      'contact_info',
      'id',
      'implementation_level',
      'internal_contact',
      'name',
    ]);
    expect(first.risks.length).toBeGreaterThan(0);
    expect(Object.keys(first.risks[0]).sort()).toEqual(['consequence', 'description', 'id', 'legal_basis', 'level', 'prevention', 'title']);
    expect(first.matched.length).toBeGreaterThan(0);
    const scores = d.risk_subject.map((s: { score: number }) => s.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
  });

  it('accepts the q and text aliases, top and mode, on GET and POST (JSON and form)', async () => {
    const viaQ = await get(`/v2?q=${encodeURIComponent('食品经营许可')}&top=abc&mode=FAST`);
    const viaText = await post('/v2', { text: '食品经营许可', top: 2, mode: 'x' });
    const viaForm = await post('/v2', `query=${encodeURIComponent('食品经营许可')}`, { 'content-type': 'application/x-www-form-urlencoded' });
    const names = (r: typeof viaQ) => r.json().data.risk_subject.map((s: { permit: { id: string } }) => s.permit.id);
    expect(names(viaQ).length).toBeGreaterThan(0);
    expect(names(viaText)).toEqual(names(viaQ));
    expect(names(viaForm)).toEqual(names(viaQ));
    // The channel is for the query log only: any value, as parameter or header, changes nothing.
    const viaChannel = await post('/v2', { query: '食品经营许可', channel: 'assistant' });
    const viaHeader = await post('/v2', { query: '食品经营许可' }, { 'x-lawrisk-channel': 'no-such-channel' });
    for (const r of [viaChannel, viaHeader]) {
      expect(r.statusCode).toBe(200);
      expect(names(r)).toEqual(names(viaQ));
    }
  });

  it('answers nonsense with no_match and the fixed text', async () => {
    const res = await post('/v2', { query: '量子纠缠火箭发射' });
    expect(res.json().data).toMatchObject({ workflowStatus: 'no_match', llmRespond: '抱歉,无法检索到相关答案', risk_subject: [] });
  });

  it('filters by region id, code or name; several mean any; unknown means no match', async () => {
    const q = encodeURIComponent('旅馆业特种行业许可证核发');
    const regionsOf = async (filter: string) =>
      new Set((await get(`/v2?query=${q}${filter}`)).json().data.risk_subject.map((s: { region: { name: string } }) => s.region.name));
    expect(await regionsOf('&region=511603')).toEqual(new Set(['前锋区']));
    expect(await regionsOf(`&region_id=${seed.regions.get('511602')}`)).toEqual(new Set(['广安区']));
    expect(await regionsOf(`&region=${encodeURIComponent('前锋区')}&region=511602`)).toEqual(new Set(['前锋区', '广安区']));
    const unknown = await get(`/v2?query=${q}&region=${encodeURIComponent('不存在区')}`);
    expect(unknown.statusCode).toBe(200);
    expect(unknown.json().data.workflowStatus).toBe('no_match');
    const viaPost = await post('/v2', { query: '旅馆业特种行业许可证核发', region: ['前锋区'] });
    expect(new Set(viaPost.json().data.risk_subject.map((s: { region: { name: string } }) => s.region.name))).toEqual(new Set(['前锋区']));
  });

  it('never shows hidden permits', async () => {
    const res = await post('/v2', { query: '户口迁移审批' });
    const ids = res.json().data.risk_subject.map((s: { permit: { id: string } }) => s.permit.id);
    expect(ids).not.toContain(String(seed.permits.get(HIDDEN)));
  });

  it('gives debug details only for the truthy set (GET exact, POST case-insensitive)', async () => {
    const q = encodeURIComponent('食品经营许可');
    expect((await get(`/v2?query=${q}&debug=TRUE`)).json().data.debug).toEqual({});
    const dbg = (await get(`/v2?query=${q}&debug=true`)).json().data.debug;
    expect(dbg.normalized_query).toBeTruthy();
    expect(dbg.terms.length).toBeGreaterThan(0);
    expect(dbg.terms[0]).toHaveProperty('origin');
    expect(dbg.timings_us).toHaveProperty('total');
    expect(dbg.results.length).toBeGreaterThan(0);
    // Each result shows its score per field and factor.
    expect(Object.keys(dbg.results[0].breakdown)).toContain('name');
    expect((await post('/v2', { query: '食品经营许可', debug: 'YES' })).json().data.debug).toHaveProperty('terms');
    expect((await post('/v2', { query: '食品经营许可', debug: 'nope' })).json().data.debug).toEqual({});
  });

  it('lists regions and themes (theme counts without hidden permits)', async () => {
    const regions = (await get('/v2/regions')).json();
    expect(regions.success).toBe(true);
    expect(regions.data.regions.map((r: { code: string }) => r.code).sort()).toEqual(['511600', '511602', '511603']);
    const themes = (await get('/v2/themes')).json();
    expect(themes.success).toBe(true);
    expect(themes.data).toHaveLength(15);
    const visibleCount = seed.seeded.filter((p) => p.visible && p.themes.includes('开办网吧')).length;
    expect(themes.data.find((x: { name: string }) => x.name === '开办网吧').permit_count).toBe(visibleCount);
  });

  it('lists unbound permits by visibility, hidden ones only for a logged-in user', async () => {
    const unbound = seed.seeded.filter((p) => p.themes.length === 0);
    const visible = (await get('/v2/unbound-permits')).json();
    expect(visible.success).toBe(true);
    expect(visible.data).toHaveLength(unbound.filter((p) => p.visible).length);
    expect(visible.data.every((p: { visible: boolean; themes: unknown[] }) => p.visible && p.themes.length === 0)).toBe(true);
    expect((await get('/v2/unbound-permits?visibility=hidden')).statusCode).toBe(401);
    expect((await get('/v2/unbound-permits?visibility=all')).statusCode).toBe(401);
    const hidden = (await get('/v2/unbound-permits?visibility=hidden', admin)).json();
    expect(hidden.data).toHaveLength(unbound.filter((p) => !p.visible).length);
    const all = (await get('/v2/unbound-permits?visibility=all', admin)).json();
    expect(all.data).toHaveLength(unbound.length);
    expect((await get('/v2/unbound-permits?visibility=some')).statusCode).toBe(400);
  });

  it('lists the permits of a region for the current user with /getPermits', async () => {
    const blank = await get('/getPermits');
    expect(blank.statusCode).toBe(400);
    expect(blank.json()).toEqual({ success: false, message: 'region is required', data: {} });
    const visibleOf = (code: string) => seed.seeded.filter((p) => p.region_code === code && p.visible).length;
    const anon = (await get('/getPermits?region=511602')).json();
    expect(anon).toMatchObject({ success: true, data: { region: '511602' } });
    expect(anon.data.permits).toHaveLength(visibleOf('511602'));
    expect((await post('/getPermits', { region_id: '广安区' }, { cookie: admin })).json().data.permits).toHaveLength(visibleOf('511602'));
    // A department admin of 前锋区 sees its own region only.
    expect((await get('/getPermits?region=511603', deptAdmin)).json().data.permits).toHaveLength(visibleOf('511603'));
    expect((await get('/getPermits?region=511602', deptAdmin)).json().data.permits).toEqual([]);
    expect((await get('/getPermits?region=nowhere')).json().data.permits).toEqual([]);
  });

  it('follows a permit delete at once', async () => {
    const name = '举办高危险性体育赛事活动许可（县级）';
    const find = async () =>
      (await post('/v2', { query: name, region: '511603' })).json().data.risk_subject.map((s: { permit: { id: string } }) => s.permit.id);
    const id = String(seed.permits.get(THEMED));
    expect(await find()).toContain(id);
    const del = await t.app.inject({
      method: 'DELETE',
      url: `${API}/admin/permits?region_id=${seed.regions.get('511603')}&permit_id=${id}`,
      headers: { cookie: admin },
    });
    expect(del.statusCode).toBe(200);
    expect(await find()).not.toContain(id);
  });
});

describe('search rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp('sqlite', { env: { SEARCH_RATE_LIMIT: '2' } });
  });
  afterAll(async () => t?.close());

  it('answers 429 in the envelope past SEARCH_RATE_LIMIT requests a minute', async () => {
    const ask = () => t.app.inject(`${API}/v2?query=x`);
    expect((await ask()).statusCode).toBe(200);
    expect((await ask()).statusCode).toBe(200);
    const limited = await ask();
    expect(limited.statusCode).toBe(429);
    expect(limited.json()).toEqual({ success: false, message: '请求过于频繁，请稍后再试', data: {} });
  });
});
