import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { loadCorpus, type CorpusPermit } from '../../../test/helpers/seed-catalog.js';
import { GUANGAN, maintenanceWorld, QIANFENG, type MaintenanceWorld } from './maintenance.fixture.js';
import { copyRiskFields } from './risk.schema.js';

const MULTI_THEME = '511A0074300005'; // 个体工商户设立登记: 开办餐饮店, 开办超市便利店, 开办美容美发店
const HIDDEN = '511A0147300000'; // 户口迁移审批, hidden from search
const SHARED_NAME = '城市建筑物、设施上张挂、张贴宣传品审批'; // twice in 广安区

const corpusPermit = (region: string, code: string) => loadCorpus().permits.find((p) => p.region_code === region && p.code === code)!;
const riskContent = (p: CorpusPermit) => p.risks.map((r, position) => ({ position, ...copyRiskFields(r) }));
const withoutIds = (risks: Array<Record<string, unknown>>) => risks.map(({ id: _id, ...rest }) => rest);

describe.each(testDialects())('permit browsing and details on %s', (dialect) => {
  let w: MaintenanceWorld;
  const idOf = (region: string, code: string) => String(w.seed.permits.get(`${region}:${code}`));
  const themeId = (key: string) => String(w.seed.themes.get(key));
  beforeAll(async () => {
    w = await maintenanceWorld(dialect);
  });
  afterAll(async () => w?.close());

  it('lists the catalogue of a region without risks, hidden permits included', async () => {
    const res = await w.get(`/admin/permits?region_id=${GUANGAN}`);
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data.region).toBe(GUANGAN);
    expect(data).not.toHaveProperty('theme');
    expect(data.permits).toHaveLength(536);
    expect(data.permits.every((p: object) => !('risks' in p))).toBe(true);
    const hidden = data.permits.find((p: { id: string }) => p.id === idOf(GUANGAN, HIDDEN));
    expect(hidden).toMatchObject({ visible: false, risk_count: 2, region_name: '广安区', approval_departments: ['区公安分局'] });
    const names = data.permits.map((p: { name: string }) => p.name);
    expect(names).toEqual([...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)));
  });

  it('lists the permits of a theme with their risks, the theme named by id or name', async () => {
    const expected = loadCorpus().permits.filter((p) => p.region_code === GUANGAN && p.themes.includes('开办餐饮店'));
    for (const q of [`region=广安区&theme=开办餐饮店`, `region=${GUANGAN}&theme_id=${themeId('T01')}`]) {
      const data = (await w.get(`/admin/permits?${q}`)).json().data;
      expect(data.theme_info).toEqual({ id: themeId('T01'), name: '开办餐饮店' });
      expect(data.permits.map((p: { id: string }) => p.id).sort()).toEqual(expected.map((p) => idOf(GUANGAN, p.code)).sort());
      for (const p of data.permits) {
        const source = expected.find((c) => idOf(GUANGAN, c.code) === p.id)!;
        expect(withoutIds(p.risks)).toEqual(riskContent(source));
      }
    }
    expect((await w.get(`/admin/permits?region=${QIANFENG}&theme=开办餐饮店`)).json().data.theme).toBe('开办餐饮店');
    const unknown = await w.get(`/admin/permits?region=${GUANGAN}&theme=no-such-theme`);
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ success: false, message: 'Theme not found', data: {} });
  });

  it('requires a region and keeps other regions away from a department administrator', async () => {
    for (const q of ['', '?theme=开办餐饮店', '?region=%20']) {
      const res = await w.get(`/admin/permits${q}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ success: false, message: 'region is required', data: {} });
    }
    expect((await w.get(`/admin/permits?region=${GUANGAN}`, w.district)).json().data.permits).toHaveLength(536);
    const other = await w.get(`/admin/permits?region=${QIANFENG}`, w.district);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual({ success: false, message: 'Region not found', data: {} });
    expect((await w.get(`/admin/permits?region=前锋区&theme=开办餐饮店`, w.district)).statusCode).toBe(404);
  });

  it('reads permit details by id, code or exact name, with risks', async () => {
    const source = corpusPermit(GUANGAN, HIDDEN);
    for (const permit of [idOf(GUANGAN, HIDDEN), HIDDEN, HIDDEN.toLowerCase(), encodeURIComponent(source.name)]) {
      const res = await w.get(`/admin/permit-details?region=${GUANGAN}&permit=${permit}`);
      expect(res.statusCode).toBe(200);
      const data = res.json().data;
      expect(data.permit).toMatchObject({ id: idOf(GUANGAN, HIDDEN), name: source.name, visible: false, themes: [], theme: null });
      expect(withoutIds(data.permit.risks)).toEqual(riskContent(source));
      expect(data).toMatchObject({ region: GUANGAN, theme: null, theme_display: null, selected_theme_id: '' });
    }
    const alias = await w.get(`/admin/permit-details?region_id=广安区&permit_id=${idOf(GUANGAN, HIDDEN)}`);
    expect(alias.json().data.permit.id).toBe(idOf(GUANGAN, HIDDEN));
    const shared = await w.get(`/admin/permit-details?region=${GUANGAN}&permit=${encodeURIComponent(SHARED_NAME)}`);
    expect(shared.statusCode).toBe(400);
    expect(shared.json().message).toContain('请改用许可 ID 或事项编码');
  });

  it('selects the theme in the order of the interface', async () => {
    const base = `/admin/permit-details?region=${GUANGAN}&permit=${MULTI_THEME}`;
    const canteen = { id: themeId('T01'), name: '开办餐饮店' };
    const market = { id: themeId('T02'), name: '开办超市便利店' };
    const salon = { id: themeId('T06'), name: '开办美容美发店' };

    // 1. The permit's theme matching the given token (by name or id).
    for (const token of ['开办超市便利店', market.id]) {
      const data = (await w.get(`${base}&theme=${encodeURIComponent(token)}`)).json().data;
      expect(data).toMatchObject({ theme: token, theme_display: market, selected_theme_id: market.id });
      expect(data.permit.theme).toEqual(market);
    }
    // 2. No token: the theme resolved from the permit (the first its region offers), not its own theme.
    const resolved = (await w.get(base)).json().data;
    expect(resolved).toMatchObject({ theme: canteen.id, theme_display: canteen, selected_theme_id: canteen.id });
    expect(resolved.permit.themes).toEqual([salon, market, canteen]);
    expect(resolved.permit.theme).toEqual(canteen);
    // A theme the region no longer offers falls behind the offered ones.
    const db = w.t.dbh.db;
    const region = w.seed.regions.get(GUANGAN)!;
    await db.deleteFrom('region_themes').where('region_id', '=', region).where('theme_id', '=', Number(canteen.id)).execute();
    expect((await w.get(base)).json().data.theme_display).toEqual(market);
    await db
      .insertInto('region_themes')
      .values({ region_id: region, theme_id: Number(canteen.id) })
      .execute();
    // 3. A token naming none of its themes: no resolution, so the permit's own theme.
    const own = (await w.get(`${base}&theme_id=${themeId('T04')}`)).json().data;
    expect(own).toMatchObject({ theme: themeId('T04'), theme_display: salon, selected_theme_id: salon.id });
  });

  it('answers missing input with 400 and unknown or out-of-scope permits with 404', async () => {
    for (const q of ['', `?region=${GUANGAN}`, `?permit=${HIDDEN}`, `?region=%20&permit=%20`]) {
      const res = await w.get(`/admin/permit-details${q}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ success: false, message: 'region and permit are required', data: {} });
    }
    const notFound = { success: false, message: 'Permit not found', data: {} };
    const qfPermit = loadCorpus().permits.find((p) => p.region_code === QIANFENG)!;
    for (const q of [
      `region=${GUANGAN}&permit=999999`,
      `region=${GUANGAN}&permit=${idOf(QIANFENG, qfPermit.code)}`,
      `region=nowhere&permit=${HIDDEN}`,
      `region=${GUANGAN}&permit=${encodeURIComponent("1' OR '1'='1")}`,
      `region=${GUANGAN}&permit=${encodeURIComponent('../../etc/passwd')}`,
      `region=${GUANGAN}&permit=99999999999999999999`,
      `region=${encodeURIComponent("x'; DROP TABLE permits; --")}&permit=1`,
    ]) {
      const res = await w.get(`/admin/permit-details?${q}`);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual(notFound);
    }
    const own = await w.get(`/admin/permit-details?region=${GUANGAN}&permit=${HIDDEN}`, w.district);
    expect(own.statusCode).toBe(200);
    const other = await w.get(`/admin/permit-details?region=${QIANFENG}&permit=${qfPermit.code}`, w.district);
    expect(other.statusCode).toBe(404);
    expect(other.json()).toEqual(notFound);
    expect((await w.get(`/admin/permit-details?region=${QIANFENG}&permit=${qfPermit.code}`, w.city)).statusCode).toBe(200);
    expect(
      Number(
        (
          await w.t.dbh.db
            .selectFrom('permits')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      ),
    ).toBe(990);
  });
});
