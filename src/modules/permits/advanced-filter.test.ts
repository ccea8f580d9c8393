import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { loadCorpus, type CorpusPermit } from '../../../test/helpers/seed-catalog.js';
import { CITY, GUANGAN, maintenanceWorld, QIANFENG, type MaintenanceWorld } from './maintenance.fixture.js';
import { permitRow } from '../../../test/helpers/permit-row.js';

const permits = () => loadCorpus().permits;
const countWhere = (pred: (p: CorpusPermit) => boolean) => permits().filter(pred).length;
const qs = (pairs: Array<[string, string]>) => new URLSearchParams(pairs).toString();

describe.each(testDialects())('advanced filter on %s', (dialect) => {
  let w: MaintenanceWorld;
  const filter = async (query: string, cookie?: string | null) => {
    const res = await w.get(`/admin/permits/advanced-filter?${query}`, cookie);
    expect(res.statusCode).toBe(200);
    return res.json().data;
  };
  const post = async (body: unknown) => {
    const res = await w.send('POST', '/admin/permits/advanced-filter', body);
    expect(res.statusCode).toBe(200);
    return res.json().data;
  };
  beforeAll(async () => {
    w = await maintenanceWorld(dialect);
  });
  afterAll(async () => w?.close());

  it('returns one page of permit payloads without risks, 100 by default', async () => {
    const data = await filter('');
    expect(data).toMatchObject({ total: 990, limit: 100, offset: 0 });
    expect(data.permits).toHaveLength(100);
    const first = data.permits[0];
    expect(first).not.toHaveProperty('risks');
    for (const key of ['region_id', 'region_name', 'themes', 'theme', 'approval_departments', 'visible', 'risk_count']) expect(first).toHaveProperty(key);
    const again = await post({});
    expect(again.permits.map((p: { id: string }) => p.id)).toEqual(data.permits.map((p: { id: string }) => p.id));
  });

  it('accepts every alias of regions, themes and departments, on GET and POST, dropping blanks', async () => {
    const qf = countWhere((p) => p.region_code === QIANFENG);
    const qfCity = countWhere((p) => p.region_code === QIANFENG || p.region_code === CITY);
    expect((await filter(`regions=${QIANFENG}`)).total).toBe(qf);
    expect((await filter(qs([['region', '前锋区']]))).total).toBe(qf);
    expect(
      (
        await filter(
          qs([
            ['regions[]', QIANFENG],
            ['regions[]', '广安市'],
          ]),
        )
      ).total,
    ).toBe(qfCity);
    expect(
      (
        await filter(
          qs([
            ['regions', QIANFENG],
            ['regions', CITY],
            ['regions', ' '],
          ]),
        )
      ).total,
    ).toBe(qfCity);
    expect((await post({ regions: [QIANFENG, '', '  ', null] })).total).toBe(qf);
    expect((await post({ region: '前锋区' })).total).toBe(qf);
    const form = await w.form('POST', '/admin/permits/advanced-filter', { 'regions[]': QIANFENG, region: '' });
    expect(form.json().data.total).toBe(qf);

    const canteen = countWhere((p) => p.themes.includes('开办餐饮店'));
    const canteenOrCafe = countWhere((p) => p.themes.includes('开办餐饮店') || p.themes.includes('开办网吧'));
    const t01 = String(w.seed.themes.get('T01'));
    expect((await filter(qs([['themes', '开办餐饮店']]))).total).toBe(canteen);
    expect((await filter(qs([['theme', t01]]))).total).toBe(canteen);
    expect(
      (
        await filter(
          qs([
            ['themes[]', t01],
            ['themes[]', '开办网吧'],
          ]),
        )
      ).total,
    ).toBe(canteenOrCafe);
    expect((await post({ themes: ['开办餐饮店', '开办网吧'] })).total).toBe(canteenOrCafe);
    expect((await filter(qs([['themes', 'no such theme']]))).total).toBe(0);

    const approval = countWhere((p) => p.approval_departments.includes('区行政审批局'));
    const city = countWhere((p) => p.approval_departments.some((d) => d.startsWith('市')));
    expect((await filter(qs([['departments', '区行政审批局']]))).total).toBe(approval);
    expect((await filter(qs([['department', '区行政']]))).total).toBe(approval);
    expect((await filter(qs([['departments[]', '市']]))).total).toBe(city);
    expect((await post({ department: '市' })).total).toBe(city);

    const all = await filter(
      qs([
        ['regions', GUANGAN],
        ['themes', '开办餐饮店'],
        ['departments', '区行政审批局'],
        ['q', '登记'],
      ]),
    );
    const expected = permits().filter(
      (p) => p.region_code === GUANGAN && p.themes.includes('开办餐饮店') && p.approval_departments.includes('区行政审批局') && p.name.includes('登记'),
    );
    expect(all.permits.map((p: { name: string }) => p.name).sort()).toEqual(expected.map((p) => p.name).sort());
  });

  it('searches permit names literally, wildcards and quotes included', async () => {
    expect(
      (
        await filter(
          qs([
            ['regions', QIANFENG],
            ['q', '许可'],
          ]),
        )
      ).total,
    ).toBe(countWhere((p) => p.region_code === QIANFENG && p.name.includes('许可')));
    expect((await post({ search_text: '登记' })).total).toBe(countWhere((p) => p.name.includes('登记')));
    for (const text of ['%', '_', '\\', "' OR '1'='1", '%%登记']) expect((await filter(qs([['q', text]]))).total).toBe(0);
    expect((await filter(qs([['departments', '%']]))).total).toBe(0);
    await w.t.dbh.db
      .insertInto('permits')
      .values(permitRow(w.seed.regions.get(CITY)!, 'PCT', '合格率100%_抽检\\备案'))
      .execute();
    for (const text of ['100%_', '%_抽', '\\备']) expect((await filter(qs([['q', text]]))).total).toBe(1);
    await w.t.dbh.db.deleteFrom('permits').where('code', '=', 'PCT').execute();
  });

  it('filters on visibility, all by default, and refuses anything else', async () => {
    const hidden = countWhere((p) => !p.visible);
    expect((await filter('visibility=visible')).total).toBe(990 - hidden);
    expect((await filter('visibility=hidden')).total).toBe(hidden);
    expect((await filter('visibility=HIDDEN')).permits.every((p: { visible: boolean }) => !p.visible)).toBe(true);
    expect((await post({ visibility: 'all' })).total).toBe(990);
    const bad = await w.get('/admin/permits/advanced-filter?visibility=some');
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ success: false, message: 'visibility 只能是 visible、hidden 或 all' });
    const tooMany = await w.send('POST', '/admin/permits/advanced-filter', { departments: Array.from({ length: 201 }, (_, i) => `d${i}`) });
    expect(tooMany.statusCode).toBe(400);
  });

  it('defaults and clamps limit and offset', async () => {
    const cases: Array<[string, number, number, number]> = [
      ['limit=abc', 100, 0, 100],
      ['limit=2.5', 100, 0, 100],
      ['limit=0', 1, 0, 1],
      ['limit=-3', 1, 0, 1],
      ['limit=5000', 1000, 0, 990],
      ['offset=x', 100, 0, 100],
      ['offset=-5', 100, 0, 100],
      ['offset=980', 100, 980, 10],
      ['offset=5000', 100, 5000, 0],
    ];
    for (const [q, limit, offset, n] of cases) {
      const data = await filter(q);
      expect([data.limit, data.offset, data.permits.length, data.total]).toEqual([limit, offset, n, 990]);
    }
    const page = await post({ limit: 5, offset: 5 });
    const wider = await post({ limit: 10 });
    expect(page.permits.map((p: { id: string }) => p.id)).toEqual(wider.permits.slice(5).map((p: { id: string }) => p.id));
  });

  it('keeps a department administrator inside its region, totals included', async () => {
    const ga = countWhere((p) => p.region_code === GUANGAN);
    expect((await filter('', w.district)).total).toBe(ga);
    expect(await filter(`regions=${QIANFENG}`, w.district)).toMatchObject({ total: 0, permits: [] });
    expect(
      (
        await filter(
          qs([
            ['regions', QIANFENG],
            ['regions', GUANGAN],
          ]),
          w.district,
        )
      ).total,
    ).toBe(ga);
    expect((await filter('q=登记', w.district)).permits.every((p: { region_name: string }) => p.region_name === '广安区')).toBe(true);
    expect((await filter('', w.unbound)).total).toBe(0);
    expect((await w.get('/admin/permits/advanced-filter', null)).statusCode).toBe(401);
  });

  it('offers regions, themes and the departments used, per region when asked', async () => {
    const used = (region?: string) =>
      [
        ...new Set(
          permits()
            .filter((p) => !region || p.region_code === region)
            .flatMap((p) => p.approval_departments),
        ),
      ].sort();
    const names = (list: Array<{ name: string }>) => list.map((d) => d.name).sort();
    const all = (await w.get('/admin/permits/filter-options')).json().data;
    expect(all.regions.map((r: { code: string }) => r.code)).toEqual([CITY, GUANGAN, QIANFENG]);
    expect(all.themes).toHaveLength(15);
    expect(names(all.departments)).toEqual(used());
    const city = (await w.get(`/admin/permits/filter-options?region_id=${w.seed.regions.get(CITY)}`)).json().data;
    expect(names(city.departments)).toEqual(used(CITY));
    expect(city.regions).toHaveLength(3);

    const district = (await w.get('/admin/permits/filter-options', w.district)).json().data;
    expect(district.regions.map((r: { code: string }) => r.code)).toEqual([GUANGAN]);
    expect(names(district.departments)).toEqual(used(GUANGAN));
    expect((await w.get(`/admin/permits/filter-options?region_id=${QIANFENG}`, w.district)).json().data.departments).toEqual([]);
    expect((await w.get('/admin/permits/filter-options?region_id=nowhere')).json().data.departments).toEqual([]);
  });
});
