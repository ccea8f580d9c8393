import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { seedCatalog, type SeedResult } from '../../../test/helpers/seed-catalog.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';

const HIDDEN = '511602:511A0147300000'; // 户口迁移审批, search-invisible in the corpus
const HOTEL = '511603:511A0146000000'; // 旅馆业特种行业许可证核发 (前锋区)
/** A permit 前锋区 shows and 广安区 holds hidden. */
const ONLY_QIANFENG = '民办职业培训学校办学许可证延续审批(县级)';
const MINUTE = 60_000;

interface Suggestion {
  text: string;
  kind: string;
}

describe.each(testDialects())('what the public search page reads beside /v2, on %s', (dialect) => {
  let t: TestApp;
  let seed: SeedResult;
  let clock = Date.parse('2026-05-04T02:00:00Z');

  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { SEARCH_RATE_LIMIT: '0' }, build: { now: () => clock } });
    seed = await seedCatalog(t.dbh.db, { regions: ['511602', '511603'] });
    await t.app.searchIndex.rebuild();
  });
  afterAll(async () => t?.close());

  const suggest = async (query: Record<string, string>): Promise<Suggestion[]> => {
    const res = await t.app.inject({ url: `${API}/v2/suggest`, query });
    expect(res.statusCode).toBe(200);
    expect(res.json().success).toBe(true);
    return res.json().data.suggestions;
  };
  const texts = (list: Suggestion[]) => list.map((s) => s.text);
  const ask = (query: string, address: string) => t.app.inject({ url: `${API}/v2`, query: { query }, remoteAddress: address });

  it('suggests names, what people call a permit and what they want to do, starting with what was typed first', async () => {
    const hotel = await suggest({ q: '旅馆' });
    expect(hotel.length).toBeGreaterThan(3);
    expect(hotel.length).toBeLessThanOrEqual(8);
    expect(hotel).toContainEqual({ text: '旅馆业特种行业许可证核发', kind: 'permit' });
    expect(hotel.some((s) => s.kind === 'alias')).toBe(true);
    for (const s of hotel) expect(s.text).toContain('旅馆');
    const starts = hotel.map((s) => s.text.startsWith('旅馆'));
    expect(starts).toEqual([...starts].sort((a, b) => Number(b) - Number(a)));
    expect(starts[0]).toBe(true);
    // Width and spaces are folded (ideographic spaces, full-width letters); what was typed in full is not suggested back.
    expect(await suggest({ query: '\u3000旅馆\u3000' })).toEqual(hotel);
    const ktv = await suggest({ q: 'ktv' });
    expect(ktv.length).toBeGreaterThan(0);
    expect(await suggest({ q: 'ＫＴＶ' })).toEqual(ktv);
    expect(texts(await suggest({ q: '旅馆业特种行业许可证核发' }))).not.toContain('旅馆业特种行业许可证核发');
  });

  it('never suggests a hidden permit, and keeps to the region asked about', async () => {
    expect(await suggest({ q: '户口迁移' })).toEqual([]);
    const typed = '民办职业培训学校办学许可证延续';
    expect(seed.seeded.filter((p) => p.name === ONLY_QIANFENG).map((p) => [p.region_code, p.visible])).toEqual([
      ['511602', false],
      ['511603', true],
    ]);
    expect(texts(await suggest({ q: typed }))).toContain(ONLY_QIANFENG);
    expect(texts(await suggest({ q: typed, region: '511603' }))).toContain(ONLY_QIANFENG);
    expect(texts(await suggest({ q: typed, region_id: '前锋区' }))).toContain(ONLY_QIANFENG);
    expect(texts(await suggest({ q: typed, region: '511602' }))).not.toContain(ONLY_QIANFENG);
  });

  it('answers nothing for blank text before anyone asked, overlong text or a region that names none, and refuses a parameter given twice', async () => {
    expect(await suggest({ q: '' })).toEqual([]);
    expect(await suggest({ q: '旅'.repeat(51) })).toEqual([]);
    expect(await suggest({ q: '旅馆', region: '没有这个区' })).toEqual([]);
    const twice = await t.app.inject({ url: `${API}/v2/suggest?q=${encodeURIComponent('旅馆')}&q=${encodeURIComponent('食品')}` });
    expect([twice.statusCode, twice.json()]).toEqual([400, { success: false, message: '参数 q 应为字符串' }]);
  });

  it('suggests a question once three different people asked it on one day and found permits, never what one person typed', async () => {
    await t.dbh.db.deleteFrom('query_log').execute();
    const DAY = 24 * 60 * MINUTE;
    for (const address of ['10.0.0.1', '10.0.0.2', '10.0.0.3']) expect((await ask('旅馆要办哪些证', address)).statusCode).toBe(200);
    for (const address of ['10.0.0.1', '10.0.0.2', '10.0.0.3', '10.0.0.4']) await ask('旅馆证', address); // an alias too
    for (const address of ['10.0.0.1', '10.0.0.2']) await ask('旅馆开业需要什么', address);
    for (const address of ['10.0.0.1', '10.0.0.2', '10.0.0.3']) await ask('旅馆红烧肉的做法大全', address); // no permit found
    // One person, every day for three days (a new hash each day), and many times a day.
    for (let day = 0; day < 3; day++) {
      for (let i = 0; i < 3; i++) await ask('旅馆 我叫张三丰', '10.9.9.9');
      await t.app.queryLog.flush();
      clock += DAY;
    }
    await t.app.queryLog.flush();
    const found = await t.dbh.db.selectFrom('query_log').select(['query', 'status']).execute();
    expect(found.filter((r) => r.query === '旅馆红烧肉的做法大全').map((r) => r.status)).toEqual(['no_match', 'no_match', 'no_match']);
    expect(new Set(found.filter((r) => r.query === '旅馆 我叫张三丰').map((r) => r.status))).toEqual(new Set(['ok']));

    // Popular questions are read again every ten minutes, off the request; most askers first.
    await suggest({ q: '旅馆' });
    await expect
      .poll(async () => await suggest({ q: '' }))
      .toEqual([
        { text: '旅馆证', kind: 'question' },
        { text: '旅馆要办哪些证', kind: 'question' },
      ]);
    expect(await suggest({ q: '旅馆要' })).toContainEqual({ text: '旅馆要办哪些证', kind: 'question' });
    // Asked here and an alias as well: suggested once, as the alias.
    const typing = await suggest({ q: '旅馆' });
    expect(typing.filter((s) => s.text === '旅馆证')).toEqual([{ text: '旅馆证', kind: 'alias' }]);
    // Only where its answer's permits are: the hotel permit is 前锋区's and 广安区's, and no region named is none.
    expect(texts(await suggest({ q: '', region: '511603' }))).toContain('旅馆要办哪些证');
    expect(await suggest({ q: '', region: '没有这个区' })).toEqual([]);
    const all = JSON.stringify([typing, await suggest({ q: '' }), await suggest({ q: '张三' }), await suggest({ q: '我叫' })]);
    for (const unseen of ['旅馆开业需要什么', '红烧肉', '张三丰']) expect(all).not.toContain(unseen);
  });

  it('answers the permits of a shared notice by id, in the order asked, without hidden or missing ones', async () => {
    const hotel = String(seed.permits.get(HOTEL));
    const hidden = String(seed.permits.get(HIDDEN));
    const res = await t.app.inject({ url: `${API}/v2/permits`, query: { ids: `${hotel}, ${hidden},999999,${hotel}` } });
    expect(res.statusCode).toBe(200);
    const permits = res.json().data.permits;
    expect(permits).toHaveLength(1);
    expect(permits[0]).toMatchObject({ permit: { id: hotel, name: '旅馆业特种行业许可证核发' }, region: { name: '前锋区' }, score: 0, matched: [] });
    const stored = await t.dbh.db.selectFrom('risks').select('id').where('permit_id', '=', Number(hotel)).execute();
    expect(permits[0].risks.map((r: { id: string }) => r.id).sort()).toEqual(stored.map((r) => String(r.id)).sort());
  });

  it('refuses ids that are missing, malformed or too many, with one Chinese sentence', async () => {
    const message = '请给出许可事项编号（以逗号分隔，最多 20 个）';
    const tooMany = Array.from({ length: 21 }, (_, i) => String(i + 1)).join(',');
    for (const ids of [undefined, '', 'abc', '0', '-1', '1,,2', '1;2', '12345678901', tooMany]) {
      const res = await t.app.inject({ url: `${API}/v2/permits`, query: ids === undefined ? {} : { ids } });
      expect([ids, res.statusCode, res.json()]).toEqual([ids, 400, { success: false, message }]);
    }
  });
});

describe("the public page's reads share the search rate limit", () => {
  let t: TestApp;
  afterAll(async () => t?.close());

  it('refuses suggestions and notices past the limit with 429 and Retry-After, as /v2 does', async () => {
    t = await buildTestApp('sqlite', { env: { SEARCH_RATE_LIMIT: '2' } });
    const v2 = await t.app.inject({ url: `${API}/v2`, query: { query: '网吧' } });
    const first = await t.app.inject({ url: `${API}/v2/suggest`, query: { q: '网吧' } });
    const refused = [
      await t.app.inject({ url: `${API}/v2/suggest`, query: { q: '网吧' } }),
      await t.app.inject({ url: `${API}/v2/permits`, query: { ids: '1' } }),
    ];
    expect([v2.statusCode, first.statusCode, ...refused.map((r) => r.statusCode)]).toEqual([200, 200, 429, 429]);
    for (const res of refused) {
      expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
      expect(res.json()).toMatchObject({ success: false, message: '请求过于频繁，请稍后再试' });
    }
  });
});
