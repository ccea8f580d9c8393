import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { seedCatalog, type SeedResult } from '../../../test/helpers/seed-catalog.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';

const HIDDEN = '511602:511A0147300000'; // 户口迁移审批, search-invisible in the corpus

describe.each(testDialects())('why a permit is not found, through the API, on %s', (dialect) => {
  let t: TestApp;
  let seed: SeedResult;
  let admin = '';

  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { SEARCH_RATE_LIMIT: '0' } });
    seed = await seedCatalog(t.dbh.db, { regions: ['511602', '511603'] });
    await t.app.searchIndex.rebuild();
    admin = await t.login();
  });
  afterAll(async () => t?.close());

  const why = (query: Record<string, string>) => t.app.inject({ url: `${API}/admin/search/why-not`, query, headers: { cookie: admin } });
  const search = async (q: string, region?: string) =>
    (await t.app.inject({ url: `${API}/v2`, query: region ? { query: q, region } : { query: q } })).json().data.risk_subject as { permit: { id: string } }[];

  it('places a found permit at its rank in the answer /v2 gives', async () => {
    const answer = await search('食品经营许可');
    const second = answer[1].permit.id;
    const res = await why({ query: '食品经营许可', permit_id: second });
    expect(res.statusCode).toBe(200);
    const d = res.json().data;
    expect(d).toMatchObject({ verdict: 'found', rank: 2, reason: null });
    expect(d.permit.id).toBe(second);
    expect(d.concepts.length).toBeGreaterThan(0);
    expect(Object.keys(d.breakdown).length).toBeGreaterThan(0);
    // The question's aliases are those of /v2.
    expect((await why({ text: '食品经营许可', permit_id: second })).json().data).toMatchObject({ verdict: 'found', rank: 2 });
  });

  it('says a hidden permit is not searchable, and a permit outside the region filter is filtered out', async () => {
    const hidden = String(seed.permits.get(HIDDEN));
    expect((await why({ query: '户口迁移审批', permit_id: hidden })).json().data).toMatchObject({ verdict: 'hidden', score: null });
    const other = (await search('食品经营许可', '511603'))[0].permit.id;
    expect((await why({ query: '食品经营许可', permit_id: other, region: '511602' })).json().data.verdict).toBe('region');
    expect((await why({ query: '食品经营许可', permit_id: '999999' })).json().data).toMatchObject({ verdict: 'unknown', permit: null });
  });

  it('refuses a missing question or permit with a clear 400', async () => {
    for (const [query, message] of [
      [{ permit_id: '1' }, '请输入检索问题'],
      [{ query: '食品', permit_id: ' ' }, '请指定许可事项'],
      [{ query: '食'.repeat(501), permit_id: '1' }, '查询内容过长（最多 500 个字符）'],
    ] as const) {
      const res = await why(query);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ success: false, message });
    }
  });
});
