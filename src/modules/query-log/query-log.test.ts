import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { seedCatalog, type SeedResult } from '../../../test/helpers/seed-catalog.js';
import { createTestDatabase } from '../../../test/helpers/databases.js';
import { API, buildTestApp, testConfig, type TestApp } from '../../../test/helpers/test-app.js';
import { buildApp } from '../../app.js';

const DAY = 86_400_000;

describe.each(testDialects())('query log on %s', (dialect) => {
  let t: TestApp;
  let seed: SeedResult;
  let clock = Date.parse('2026-03-01T08:00:00Z');

  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { SEARCH_RATE_LIMIT: '0' }, build: { now: () => clock } });
    seed = await seedCatalog(t.dbh.db, { regions: ['511602', '511603'] });
    await t.app.searchIndex.rebuild();
  });
  afterAll(async () => t?.close());

  const ask = (query: Record<string, string>, opts: { headers?: Record<string, string>; address?: string; post?: boolean } = {}) =>
    t.app.inject({
      method: opts.post ? 'POST' : 'GET',
      url: `${API}/v2`,
      ...(opts.post ? { payload: query } : { query }),
      headers: opts.headers ?? {},
      remoteAddress: opts.address ?? '10.1.2.3',
    });
  const entries = async () => {
    await t.app.queryLog.flush();
    return t.dbh.db.selectFrom('query_log').selectAll().orderBy('id').execute();
  };
  const clear = () => t.dbh.db.deleteFrom('query_log').execute();

  it('records each answered question once written, with what the analytics need and nothing of the asker', async () => {
    await clear();
    const found = await ask({ query: '食品經營許可！' }, { headers: { 'x-lawrisk-channel': 'page' } });
    const filtered = await ask({ query: '开奶茶店', region: '511603', channel: 'assistant' }, { post: true });
    const nothing = await ask({ query: '红烧肉的做法' });
    const refused = await ask({ query: '   ' });
    const tooLong = await ask({ query: '食'.repeat(501) });
    const head = await t.app.inject({ method: 'HEAD', url: `${API}/v2`, query: { query: '不会被记录的问题' } });
    expect([found.statusCode, filtered.statusCode, nothing.statusCode, refused.statusCode, tooLong.statusCode, head.statusCode]).toEqual([
      200, 200, 200, 400, 400, 200,
    ]);

    const rows = await entries();
    expect(rows).toHaveLength(3);
    const [a, b, c] = rows;
    const items = found.json().data.risk_subject as { permit: { id: string } }[];
    expect(a).toMatchObject({ query: '食品经营许可', region_ids: null, status: 'ok', channel: 'page', result_count: items.length });
    expect(a.top_permit_ids).toBe(
      items
        .slice(0, 5)
        .map((i) => i.permit.id)
        .join(','),
    );
    expect(a.asked_at).toBe(new Date(clock).toISOString());
    expect(a.latency_us).toBeGreaterThan(0);
    expect(b).toMatchObject({ query: '开奶茶店', region_ids: String(seed.regions.get('511603')), channel: 'assistant' });
    expect(b.result_count).toBe(filtered.json().data.risk_subject.length);
    expect(c).toMatchObject({ query: '红烧肉的做法', status: 'no_match', result_count: 0, top_permit_ids: '', channel: 'api' });
    // The same address asks as the same (anonymous) asker all day; the address itself is nowhere.
    expect(a.asker).toMatch(/^[\w-]{16}$/);
    expect(new Set(rows.map((r) => r.asker)).size).toBe(1);
    expect(JSON.stringify(rows)).not.toContain('10.1.2.3');
  });

  it('masks identity card and telephone numbers before storing, and keeps permit codes', async () => {
    await clear();
    await ask({ query: '身份证511602199001011234 电话13812345678 的许可' });
    await ask({ query: '511A0005200004' });
    expect((await entries()).map((r) => r.query)).toEqual(['身份证[身份证号] 电话[手机号] 的许可', '511a0005200004']);
  });

  it('records cached answers and answers a region filter naming no region as no_match', async () => {
    await clear();
    const cacheHits = async () =>
      (await t.ctx.metrics.searchDuration.get()).values.find((v) => v.labels.cache === 'hit' && v.metricName?.endsWith('_count'))?.value ?? 0;
    const hitsBefore = await cacheHits();
    for (let i = 0; i < 3; i++) await ask({ query: '建筑施工许可' });
    expect(await cacheHits()).toBe(hitsBefore + 2);
    await ask({ query: '建筑施工许可', region: '没有这个区' });
    const rows = await entries();
    expect(rows).toHaveLength(4);
    expect(rows[0].top_permit_ids).not.toBe('');
    expect(new Set(rows.slice(0, 3).map((r) => r.top_permit_ids)).size).toBe(1);
    expect(rows[3]).toMatchObject({ region_ids: '', status: 'no_match', result_count: 0 });
  });

  it('counts a different address as a different asker, and the same one alike on another instance', async () => {
    await clear();
    const other = await t.reopen({ now: () => clock });
    await ask({ query: '食品经营' }, { address: '10.9.9.9' });
    await t.app.queryLog.flush();
    await other.app.inject({ url: `${API}/v2`, query: { query: '食品经营' }, remoteAddress: '10.1.2.3' });
    await other.app.queryLog.flush();
    await ask({ query: '食品经营' }, { address: '10.1.2.3' });
    const rows = await entries();
    expect(rows).toHaveLength(3);
    const byAsker = new Set(rows.map((r) => r.asker));
    expect(byAsker.size).toBe(2);
    expect(rows[1].asker).toBe(rows[2].asker);
    expect(rows[0].asker).not.toBe(rows[1].asker);
  });

  it('gives the same address another hash the next day, and keeps no past day’s salt', async () => {
    await clear();
    await ask({ query: '食品经营' });
    clock += DAY;
    await ask({ query: '食品经营' });
    const rows = await entries();
    expect(rows[0].asker).not.toBe(rows[1].asker);
    await t.app.queryLog.prune();
    const salts = await t.dbh.db.selectFrom('query_log_salts').select('day').execute();
    // Days are the service's (UTC_OFFSET, +08:00 by default).
    expect(salts.map((s) => s.day)).toEqual([new Date(clock + 8 * 3_600_000).toISOString().slice(0, 10)]);
  });

  it('prunes what is older than the retention and keeps the rest', async () => {
    await clear();
    await ask({ query: '很久以前的问题' });
    clock += 60 * DAY;
    await ask({ query: '较近的问题' });
    await t.app.queryLog.flush();
    clock += 31 * DAY;
    expect(await t.app.queryLog.prune()).toBe(1);
    expect((await entries()).map((r) => r.query)).toEqual(['较近的问题']);
  });

  it('keeps answering when the log cannot be written, and counts what was lost', async () => {
    const before = (await t.ctx.metrics.queryLogDropped.get()).values[0]?.value ?? 0;
    await t.dbh.db.schema.alterTable('query_log').renameTo('query_log_away').execute();
    try {
      const res = await ask({ query: '食品经营许可' });
      expect(res.statusCode).toBe(200);
      expect(res.json().data.risk_subject.length).toBeGreaterThan(0);
      await t.app.queryLog.flush();
      expect((await t.ctx.metrics.queryLogDropped.get()).values[0]?.value).toBe(before + 1);
    } finally {
      await t.dbh.db.schema.alterTable('query_log_away').renameTo('query_log').execute();
    }
  });
});

describe.each(testDialects())('query log turned off on %s', (dialect) => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp(dialect, { env: { QUERY_LOG_DAYS: '0' } });
  });
  afterAll(async () => t?.close());

  it('records nothing, and its prune removes what an earlier setting kept', async () => {
    await t.dbh.db
      .insertInto('query_log')
      .values({
        asked_at: new Date().toISOString(),
        query: '旧的',
        region_ids: null,
        result_count: 0,
        top_permit_ids: '',
        status: 'no_match',
        latency_us: 5,
        channel: 'api',
        asker: null,
      })
      .execute();
    const res = await t.app.inject({ url: `${API}/v2`, query: { query: '食品经营' } });
    expect(res.statusCode).toBe(200);
    await t.app.queryLog.flush();
    expect(await t.app.queryLog.prune()).toBe(1);
    expect(await t.dbh.db.selectFrom('query_log').selectAll().execute()).toEqual([]);
  });
});

describe.each(testDialects())('query log at shutdown on %s', (dialect) => {
  it('writes what is waiting before the server closes its database', async () => {
    const database = await createTestDatabase(dialect);
    try {
      const { app } = await buildApp(testConfig(database), { logger: false, warmUp: false });
      for (const q of ['关机前的问题', '关机前的第二个问题']) expect((await app.inject({ url: `${API}/v2`, query: { query: q } })).statusCode).toBe(200);
      await app.close();
      const dbh = database.open();
      try {
        expect((await dbh.db.selectFrom('query_log').select('query').orderBy('id').execute()).map((r) => r.query)).toEqual([
          '关机前的问题',
          '关机前的第二个问题',
        ]);
      } finally {
        await dbh.close();
      }
    } finally {
      await database.drop();
    }
  });
});
