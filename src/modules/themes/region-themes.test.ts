import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { loadCorpus } from '../../../test/helpers/seed-catalog.js';
import { GUANGAN, maintenanceWorld, QIANFENG, type MaintenanceWorld } from '../permits/maintenance.fixture.js';
import { permitRow } from '../../../test/helpers/permit-row.js';

interface Option {
  id: string;
  name: string;
  option_id: string | null;
  permit_count: number;
}

describe.each(testDialects())('GET /admin/themes on %s', (dialect) => {
  let w: MaintenanceWorld;
  beforeAll(async () => {
    w = await maintenanceWorld(dialect);
  });
  afterAll(async () => w?.close());

  it('lists each theme of the region once, with its option id and permit count', async () => {
    const res = await w.get('/admin/themes?region=广安区');
    expect(res.statusCode).toBe(200);
    const { region, region_info, themes } = res.json().data as { region: string; region_info: object; themes: Option[] };
    expect(region).toBe('广安区');
    expect(region_info).toEqual({ id: String(w.seed.regions.get(GUANGAN)), code: GUANGAN, name: '广安区' });
    const expected = new Map<string, number>();
    for (const p of loadCorpus().permits.filter((p) => p.region_code === GUANGAN)) {
      for (const t of p.themes) expected.set(t, (expected.get(t) ?? 0) + 1);
    }
    expect(new Set(themes.map((t) => t.id)).size).toBe(themes.length);
    expect(Object.fromEntries(themes.map((t) => [t.name, t.permit_count]))).toEqual(Object.fromEntries(expected));
    const options = await w.t.dbh.db.selectFrom('region_themes').selectAll().where('region_id', '=', w.seed.regions.get(GUANGAN)!).execute();
    for (const t of themes) {
      expect(t.option_id).toBe(String(options.find((o) => o.theme_id === Number(t.id))!.id));
    }
  });

  it('matches the region by id, by code or name case-insensitively, through either alias', async () => {
    const db = w.t.dbh.db;
    const town = await db.insertInto('regions').values({ name: 'River Town', code: 'rt-01', created_at: 'x' }).returning('id').executeTakeFirstOrThrow();
    const theme = w.seed.themes.get('T04')!;
    const offered = w.seed.themes.get('T05')!;
    const permit = await db
      .insertInto('permits')
      .values(permitRow(town.id, 'P1', '网吧许可', { visible: 0 }))
      .returning('id')
      .executeTakeFirstOrThrow();
    // Linked through a permit only (no option row), and offered without any permit.
    await db.insertInto('permit_themes').values({ permit_id: permit.id, theme_id: theme }).execute();
    const option = await db.insertInto('region_themes').values({ region_id: town.id, theme_id: offered }).returning('id').executeTakeFirstOrThrow();
    const expected = [
      { id: String(theme), name: '开办网吧', option_id: null, permit_count: 1 },
      { id: String(offered), name: '开办歌舞娱乐场所', option_id: String(option.id), permit_count: 0 },
    ];
    for (const q of [`region=${town.id}`, 'region=river%20town', 'region_id=RIVER%20TOWN', 'region=RT-01', `region_id=${town.id}`]) {
      const res = await w.get(`/admin/themes?${q}`);
      expect(res.statusCode).toBe(200);
      expect(res.json().data.themes).toEqual(expected);
    }
  });

  it('answers a blank region with 400 and data {}, an unknown or out-of-scope one with 404', async () => {
    for (const q of ['', '?region=', '?region=%20%20', '?region_id=']) {
      const res = await w.get(`/admin/themes${q}`);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ success: false, message: 'region is required', data: {} });
    }
    const unknown = await w.get('/admin/themes?region=%27%20OR%201%3D1%20--');
    expect(unknown.statusCode).toBe(404);
    expect(unknown.json()).toEqual({ success: false, message: 'Region not found', data: {} });
    expect((await w.get('/admin/themes?region=99999999999999999999')).statusCode).toBe(404);

    expect((await w.get(`/admin/themes?region=${GUANGAN}`, w.district)).statusCode).toBe(200);
    const hidden = await w.get(`/admin/themes?region=${QIANFENG}`, w.district);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual(unknown.json());
    expect((await w.get(`/admin/themes?region=${GUANGAN}`, w.unbound)).statusCode).toBe(404);
    expect((await w.get(`/admin/themes?region=${GUANGAN}`, null)).statusCode).toBe(401);
  });
});
