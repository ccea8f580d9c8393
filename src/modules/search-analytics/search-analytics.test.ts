import ExcelJS from 'exceljs';
import type { Insertable } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { createDepartment, createUser } from '../../../test/helpers/fixtures.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import type { QueryLogTable } from '../query-log/query-log.table.js';

const NOW = Date.parse('2026-03-10T12:00:00Z');

/** A known log: what the figures below are computed from by hand. */
function entry(at: string, query: string, over: Partial<Insertable<QueryLogTable>> = {}): Insertable<QueryLogTable> {
  return {
    asked_at: at,
    query,
    region_ids: null,
    result_count: 3,
    top_permit_ids: '1,2,3',
    status: 'ok',
    latency_us: 400,
    channel: 'page',
    asker: 'a',
    ...over,
  };
}

describe.each(testDialects())('search analytics on %s', (dialect) => {
  let t: TestApp;
  let admin = '';
  let clerk = '';
  let regionId = 0;

  beforeAll(async () => {
    t = await buildTestApp(dialect, { build: { now: () => NOW } });
    const region = await t.dbh.db
      .insertInto('regions')
      .values({ name: '顺庆区', code: '511302', created_at: '2026-01-01T00:00:00.000Z' })
      .returning('id')
      .executeTakeFirstOrThrow();
    regionId = region.id;
    const none = { result_count: 0, top_permit_ids: '', status: 'no_match' as const };
    await t.dbh.db
      .insertInto('query_log')
      .values([
        entry('2026-03-08T09:00:00.000Z', '开奶茶店', { asker: 'a' }),
        entry('2026-03-08T09:00:30.000Z', '奶茶店 食品经营许可', { asker: 'a' }),
        entry('2026-03-08T09:05:00.000Z', '开奶茶店', { asker: 'b', channel: 'assistant' }),
        entry('2026-03-09T10:00:00.000Z', '开奶茶店', { asker: 'c', region_ids: `${regionId}` }),
        entry('2026-03-09T10:00:10.000Z', '红烧肉做法', { asker: 'd', ...none, channel: 'api' }),
        entry('2026-03-09T10:03:00.000Z', '红烧肉的做法', { asker: 'd', ...none, channel: 'api' }),
        entry('2026-03-09T11:00:00.000Z', '红烧肉做法', { asker: 'e', ...none, latency_us: 9000 }),
        entry('2026-03-10T08:00:00.000Z', '建筑施工许可', { asker: null, region_ids: `7,${regionId}`, channel: 'console', latency_us: 2500 }),
        entry('2026-02-01T08:00:00.000Z', '很早以前', { asker: 'f' }),
      ])
      .execute();
    const dept = await createDepartment(t.dbh.db, { name: '顺庆区政务中心', code: 'SQ', region_id: regionId });
    await createUser(t.dbh.db, { username: 'clerk', password: 'Clerk-Pass-1234', department_id: dept });
    admin = await t.login();
    clerk = await t.login('clerk', 'Clerk-Pass-1234');
  });
  afterAll(async () => t?.close());

  const get = (query: Record<string, string>, cookie = admin, path = '') =>
    t.app.inject({ url: `${API}/admin/search-analytics${path}`, query, headers: cookie ? { cookie } : {} });

  it('computes the figures of the last 30 days from the log', async () => {
    const res = await get({});
    expect(res.statusCode).toBe(200);
    const d = res.json().data;
    expect(d.range).toEqual({ from: '2026-02-09', to: '2026-03-10', utc_offset: '+08:00' });
    expect(d.totals).toEqual({ questions: 8, askers: 5, no_match: 3, no_match_rate: 3 / 8 });
    expect(d.top[0]).toEqual({ query: '开奶茶店', count: 3, askers: 3, no_match: 0, last_asked_at: '2026-03-09T10:00:00.000Z' });
    expect(d.top[1]).toMatchObject({ query: '红烧肉做法', count: 2, askers: 2, no_match: 2 });
    expect(d.no_result).toEqual([
      { query: '红烧肉做法', count: 2, askers: 2, no_match: 2, last_asked_at: '2026-03-09T11:00:00.000Z' },
      { query: '红烧肉的做法', count: 1, askers: 1, no_match: 1, last_asked_at: '2026-03-09T10:03:00.000Z' },
    ]);
    // Asked again in other words within a minute; d's second question came after three minutes.
    expect(d.refined).toEqual([{ query: '开奶茶店', refined_to: '奶茶店 食品经营许可', count: 1 }]);
    expect(d.daily).toHaveLength(30);
    expect(d.daily.slice(-3)).toEqual([
      { day: '2026-03-08', total: 3, no_match: 0, channels: { page: 2, console: 0, assistant: 1, api: 0 } },
      { day: '2026-03-09', total: 4, no_match: 3, channels: { page: 2, console: 0, assistant: 0, api: 2 } },
      { day: '2026-03-10', total: 1, no_match: 0, channels: { page: 0, console: 1, assistant: 0, api: 0 } },
    ]);
    expect(d.daily[0]).toEqual({ day: '2026-02-09', total: 0, no_match: 0, channels: { page: 0, console: 0, assistant: 0, api: 0 } });
    expect(d.slow.slice(0, 2)).toEqual([
      { query: '红烧肉做法', latency_ms: 9, asked_at: '2026-03-09T11:00:00.000Z', result_count: 0, channel: 'page' },
      { query: '建筑施工许可', latency_ms: 2.5, asked_at: '2026-03-10T08:00:00.000Z', result_count: 3, channel: 'console' },
    ]);
  });

  it('filters by range, region and channel, and limits the lists', async () => {
    const early = (await get({ from: '2026-02-01', to: '2026-02-01' })).json().data;
    expect(early.totals.questions).toBe(1);
    expect(early.top.map((q: { query: string }) => q.query)).toEqual(['很早以前']);
    const byRegion = (await get({ region: '511302' })).json().data;
    expect(byRegion.top.map((q: { query: string }) => q.query)).toEqual(['建筑施工许可', '开奶茶店']);
    expect((await get({ region: String(regionId), channel: 'api' })).json().data.totals.questions).toBe(0);
    const api = (await get({ channel: 'api' })).json().data;
    expect(api.totals).toEqual({ questions: 2, askers: 1, no_match: 2, no_match_rate: 1 });
    expect((await get({ limit: '1' })).json().data.top).toHaveLength(1);
    expect((await get({ limit: '0' })).json().data.top).toHaveLength(1);
  });

  it('counts days in the service’s time zone: a question asked at 01:30 there belongs to that day', async () => {
    const late = await t.dbh.db
      .insertInto('query_log')
      .values(entry('2026-03-08T17:30:00.000Z', '深夜的问题', { asker: 'z' }))
      .returning('id')
      .executeTakeFirstOrThrow();
    try {
      const d = (await get({ from: '2026-03-09', to: '2026-03-09' })).json().data;
      expect(d.totals.questions).toBe(5);
      expect(d.daily).toEqual([{ day: '2026-03-09', total: 5, no_match: 3, channels: { page: 3, console: 0, assistant: 0, api: 2 } }]);
      expect((await get({ from: '2026-03-08', to: '2026-03-08' })).json().data.totals.questions).toBe(3);
    } finally {
      await t.dbh.db.deleteFrom('query_log').where('id', '=', late.id).execute();
    }
  });

  it('refuses bad filters with a clear 400', async () => {
    for (const [query, message] of [
      [{ from: '2026-3-1' }, 'from 应为 YYYY-MM-DD 格式的日期'],
      [{ to: '2026-02-30' }, 'to 应为 YYYY-MM-DD 格式的日期'],
      [{ from: '2026-03-10', to: '2026-03-01' }, '开始日期不能晚于结束日期'],
      [{ from: '2025-01-01', to: '2026-03-01' }, '时间范围最长 366 天'],
      [{ region: '不存在的区' }, '区域不存在'],
      [{ channel: 'email' }, '渠道只能是 page、console、assistant 或 api'],
    ] as const) {
      const res = await get(query);
      expect(res.statusCode, JSON.stringify(query)).toBe(400);
      expect(res.json()).toEqual({ success: false, message });
    }
  });

  it('is for administrators only', async () => {
    expect((await get({}, '')).statusCode).toBe(401);
    expect((await get({}, clerk)).statusCode).toBe(403);
    expect((await get({}, clerk, '/export')).statusCode).toBe(403);
  });

  it('exports the same figures as a workbook, a sheet per list', async () => {
    const res = await get({ from: '2026-03-08', to: '2026-03-10' }, admin, '/export');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
    expect(res.headers['content-disposition']).toContain(encodeURIComponent('搜索分析-2026-03-08-2026-03-10.xlsx'));
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ExcelJS.Buffer);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['概况', '热门查询', '无结果查询', '改写查询', '每日数量', '慢查询']);
    const rows = (name: string) => (wb.getWorksheet(name)!.getSheetValues() as unknown[][]).slice(1).map((r) => r.slice(1));
    expect(rows('概况')).toEqual([
      ['开始日期', '结束日期', '查询次数', '提问人数（按天）', '无结果次数', '无结果比例'],
      ['2026-03-08', '2026-03-10', 8, 5, 3, 0.375],
    ]);
    expect(rows('热门查询')[1]).toEqual(['开奶茶店', 3, 3, 0, '2026-03-09T10:00:00.000Z']);
    expect(rows('改写查询')).toEqual([
      ['原查询', '一分钟内改问', '次数'],
      ['开奶茶店', '奶茶店 食品经营许可', 1],
    ]);
    expect(rows('每日数量')).toHaveLength(4);
    expect((await get({ channel: 'fax' }, admin, '/export')).statusCode).toBe(400);
  });
});
