import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { loadCorpus } from '../../../test/helpers/seed-catalog.js';
import { GUANGAN, maintenanceWorld, type MaintenanceWorld } from '../permits/maintenance.fixture.js';

describe.each(testDialects())('regions on %s', (dialect) => {
  let w: MaintenanceWorld;
  beforeAll(async () => {
    w = await maintenanceWorld(dialect);
  });
  afterAll(async () => w?.close());

  const count = async (table: 'regions' | 'region_themes') =>
    Number(
      (
        await w.t.dbh.db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  it('seeds the whole corpus', async () => {
    const corpus = loadCorpus();
    const db = w.t.dbh.db;
    const n = async (table: 'permits' | 'risks' | 'permit_themes' | 'permit_approval_departments' | 'themes') =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    expect(await n('permits')).toBe(990);
    expect(await n('risks')).toBe(3397);
    expect(await n('themes')).toBe(15);
    expect(await n('permit_themes')).toBe(corpus.permits.reduce((s, p) => s + p.themes.length, 0));
    expect(await n('permit_approval_departments')).toBe(corpus.permits.reduce((s, p) => s + p.approval_departments.length, 0));
    expect(w.seed.permits.size).toBe(990);
    expect(w.seed.risks.size).toBe(3397);
  });

  it('lists the regions with what uses them, within the data scope', async () => {
    const all = await w.get('/admin/regions');
    expect(all.statusCode).toBe(200);
    expect(all.json().data.regions.map((r: { code: string; permit_count: number }) => [r.code, r.permit_count])).toEqual([
      ['511600', 159],
      ['511602', 536],
      ['511603', 295],
    ]);
    const district = (await w.get('/admin/regions', w.district)).json();
    expect(district).toEqual({
      success: true,
      data: { regions: [{ id: String(w.seed.regions.get(GUANGAN)), code: GUANGAN, name: '广安区', permit_count: 536, department_count: 1 }] },
    });
    expect((await w.get('/admin/regions', w.unbound)).json().data.regions).toEqual([]);
    expect((await w.get('/admin/regions', null)).statusCode).toBe(401);
  });

  it('creates a region (admin guard), refusing blanks and duplicates without writing anything', async () => {
    const before = await count('regions');
    const denied = await w.send('POST', '/admin/regions', { name: '华蓥市', code: '511681' }, w.district);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ success: false, message: '权限不足' });
    const blank = await w.send('POST', '/admin/regions', { name: '  ', code: 'X1' });
    expect(blank.json()).toEqual({ success: false, message: '区域名称不能为空' });
    expect(blank.statusCode).toBe(400);
    const dupName = await w.send('POST', '/admin/regions', { name: '广安区', code: 'NEW' });
    expect(dupName.statusCode).toBe(400);
    expect(dupName.json().message).toBe('区域名称已存在：广安区');
    const dupCode = await w.send('POST', '/admin/regions', { name: '新区', code: '511602' });
    expect(dupCode.statusCode).toBe(400);
    expect(dupCode.json().message).toBe('区域编码已存在：511602');
    expect(await count('regions')).toBe(before);

    w.changes.length = 0;
    const created = await w.send('POST', '/admin/regions', { name: ' 华蓥市 ', code: '511681' }, w.city);
    expect(created.statusCode).toBe(200);
    const region = created.json().data.region;
    expect(region).toMatchObject({ name: '华蓥市', code: '511681' });
    expect(w.changes).toEqual([{ kind: 'all' }]);
    expect(await w.lastLog()).toMatchObject({
      operation_type: 'create',
      target_type: 'region',
      target_id: region.id,
      target_name: '华蓥市',
      outcome: 'success',
      operator_username: 'city',
    });
    const form = await w.form('POST', '/admin/regions', { name: 'Test Town' });
    expect(form.json().data.region).toMatchObject({ name: 'Test Town', code: null });
    const caseDup = await w.send('POST', '/admin/regions', { name: 'TEST town' });
    expect(caseDup.statusCode).toBe(400);
    expect(await count('regions')).toBe(before + 2);
  });

  it('renames a region and changes or clears its code', async () => {
    const id = (await w.send('POST', '/admin/regions', { name: '改名前', code: 'RN1' })).json().data.region.id;
    const renamed = await w.send('PATCH', `/admin/regions/${id}`, { name: '改名后' });
    expect(renamed.json()).toEqual({ success: true, data: { region: { id, name: '改名后', code: 'RN1' } } });
    const cleared = await w.send('PATCH', `/admin/regions/${id}`, { code: '' });
    expect(cleared.json().data.region.code).toBeNull();
    expect(await w.lastLog()).toMatchObject({ operation_type: 'update', target_id: id, outcome: 'success' });

    const none = await w.send('PATCH', `/admin/regions/${id}`, { other: 'x' });
    expect(none.statusCode).toBe(400);
    expect(none.json().message).toBe('没有需要更新的字段');
    const dup = await w.send('PATCH', `/admin/regions/${id}`, { name: '前锋区' });
    expect(dup.statusCode).toBe(400);
    for (const bad of ['999999', 'abc', '1%20or%201=1', '99999999999999999999', '..%2F..%2Fetc']) {
      const res = await w.send('PATCH', `/admin/regions/${bad}`, { name: '任意' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, message: '区域不存在' });
    }
    expect((await w.t.dbh.db.selectFrom('regions').select('name').where('id', '=', Number(id)).executeTakeFirst())?.name).toBe('改名后');
    expect((await w.send('PATCH', `/admin/regions/${id}`, { name: 'x' }, w.district)).statusCode).toBe(403);
  });

  it('deletes an unused region with its theme options, and refuses one that is still used', async () => {
    const db = w.t.dbh.db;
    const withPermits = await w.send('DELETE', `/admin/regions/${w.seed.regions.get(GUANGAN)}`);
    expect(withPermits.statusCode).toBe(400);
    expect(withPermits.json().message).toBe('区域“广安区”下仍有 536 个许可事项，无法删除');
    expect(await w.lastLog()).toMatchObject({ operation_type: 'delete', outcome: 'failure' });

    const id = Number((await w.send('POST', '/admin/regions', { name: '临时区', code: 'TMP' })).json().data.region.id);
    await db
      .insertInto('region_themes')
      .values({ region_id: id, theme_id: w.seed.themes.get('T01')! })
      .execute();
    const dept = await db
      .insertInto('service_departments')
      .values({
        name: '临时单位',
        code: 'TMPD',
        phone: null,
        parent_id: null,
        region_id: id,
        description: null,
        grade: 0,
        unit_level: null,
        created_at: 'x',
        updated_at: 'x',
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    const withDept = await w.send('DELETE', `/admin/regions/${id}`);
    expect(withDept.statusCode).toBe(400);
    expect(withDept.json().message).toBe('区域“临时区”仍被 1 个服务部门使用，无法删除');
    expect((await w.send('DELETE', `/admin/regions/${id}`, undefined, w.district)).statusCode).toBe(403);
    await db.deleteFrom('service_departments').where('id', '=', dept.id).execute();

    const optionsBefore = await count('region_themes');
    w.changes.length = 0;
    const ok = await w.send('DELETE', `/admin/regions/${id}`);
    expect(ok.json()).toEqual({ success: true, data: { deleted: true, region: { id: String(id), name: '临时区', code: 'TMP' } } });
    expect(await db.selectFrom('regions').select('id').where('id', '=', id).executeTakeFirst()).toBeUndefined();
    expect(await count('region_themes')).toBe(optionsBefore - 1);
    expect(w.changes).toEqual([{ kind: 'all' }]);
    expect((await w.send('DELETE', `/admin/regions/${id}`)).statusCode).toBe(404);
    expect((await w.send('DELETE', '/admin/regions/not-a-number')).json()).toEqual({ success: false, message: '区域不存在' });
  });
});
