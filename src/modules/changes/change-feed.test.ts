import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { testDialects } from '../../../test/helpers/databases.js';
import { within } from '../../../test/helpers/instances.js';
import { seedCatalog, type SeedResult } from '../../../test/helpers/seed-catalog.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { FEED_REBUILD_AFTER_MS } from './change-feed.js';

const THEMED = '511603:511A33038003'; // 举办高危险性体育赛事活动许可（县级）, theme 举办大型活动

describe.each(testDialects())('search freshness across instances on %s', (dialect) => {
  let t: TestApp;
  let other: FastifyInstance;
  let seed: SeedResult;
  let admin = '';

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    seed = await seedCatalog(t.dbh.db);
    await t.app.searchIndex.rebuild();
    other = (await t.reopen()).app; // a second instance on the same database, built after the seed
    admin = await t.login();
  });
  afterAll(async () => t?.close());

  const ids = async (app: FastifyInstance, query: string) =>
    (await app.inject({ method: 'POST', url: `${API}/v2`, payload: { query, region: '511603' } }))
      .json()
      .data.risk_subject.map((s: { permit: { id: string } }) => s.permit.id) as string[];

  it('sees a permit deleted on another instance within a second', async () => {
    const id = String(seed.permits.get(THEMED));
    const query = '举办高危险性体育赛事活动许可';
    expect(await ids(other, query)).toContain(id);
    const del = await t.app.inject({ method: 'DELETE', url: `${API}/admin/permits?region=511603&permit_id=${id}`, headers: { cookie: admin } });
    expect(del.statusCode).toBe(200);
    const { elapsed } = await within(1000, async () => ((await ids(other, query)).includes(id) ? undefined : true));
    expect(elapsed).toBeLessThan(1000);
  });

  it('sees a theme renamed on another instance within a second (full rebuild)', async () => {
    const themeId = seed.themesByName.get('开办网吧')!;
    const res = await t.app.inject({
      method: 'PATCH',
      url: `${API}/admin/themes/catalog/${themeId}`,
      payload: { name: '开办网吧（互联网上网服务）' },
      headers: { cookie: admin },
    });
    expect(res.statusCode).toBe(200);
    await within(1000, async () => {
      const body = (await other.inject({ method: 'POST', url: `${API}/v2`, payload: { query: '网吧' } })).json();
      const names = body.data.risk_subject.flatMap((s: { themes: { name: string }[] }) => s.themes.map((x) => x.name));
      return names.includes('开办网吧（互联网上网服务）') ? true : undefined;
    });
  });

  it('rebuilds an instance that was cut off from the feed longer than its entries are kept', async () => {
    let clock = Date.now();
    const away = (await t.reopen({ now: () => clock })).app;
    const chosen = seed.seeded.find((p) => p.region_code === '511603' && p.themes.length > 0 && p.key !== THEMED)!;
    const id = String(seed.permits.get(chosen.key));
    expect(await ids(away, chosen.name)).toContain(id);

    // Cut off: the instance reads nothing while the permit is deleted and its feed entry pruned.
    away.changeFeed.stop();
    const del = await t.app.inject({ method: 'DELETE', url: `${API}/admin/permits?region=511603&permit_id=${id}`, headers: { cookie: admin } });
    expect(del.statusCode).toBe(200);
    await t.dbh.db.deleteFrom('data_changes').execute();
    clock += FEED_REBUILD_AFTER_MS + 1000;

    away.changeFeed.start((change) => away.searchIndex.apply(change));
    await within(2000, async () => ((await ids(away, chosen.name)).includes(id) ? undefined : true));
  });
});
