import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { loadCorpus } from '../../../test/helpers/seed-catalog.js';
import { GUANGAN, maintenanceWorld, QIANFENG, type MaintenanceWorld } from './maintenance.fixture.js';

/** Permits of a region bound to at least one theme, in corpus order. */
const themed = (region: string) => loadCorpus().permits.filter((p) => p.region_code === region && p.themes.length > 0);

describe.each(testDialects())('DELETE /admin/permits on %s', (dialect) => {
  let w: MaintenanceWorld;
  const db = () => w.t.dbh.db;
  const idOf = (region: string, code: string) => w.seed.permits.get(`${region}:${code}`)!;
  const count = async (table: 'permits' | 'risks' | 'snapshot_batches' | 'snapshot_risks' | 'permit_themes') =>
    Number(
      (
        await db()
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  const state = async () => Promise.all([count('permits'), count('risks'), count('snapshot_batches'), count('permit_themes')]);

  beforeAll(async () => {
    w = await maintenanceWorld(dialect);
  });
  afterAll(async () => w?.close());

  it('refuses missing input, unknown permits and permits without a theme, changing nothing', async () => {
    const before = await state();
    for (const payload of [{}, { region_id: GUANGAN }, { permit_id: '1' }, { region: ' ', permit: ' ' }]) {
      const res = await w.send('DELETE', '/admin/permits', payload);
      expect(res.statusCode).toBe(400);
      expect(res.json()).toEqual({ success: false, message: 'region_id 和 permit_id 均为必填' });
    }
    const unbound = loadCorpus().permits.find((p) => p.region_code === GUANGAN && p.themes.length === 0)!;
    const noTheme = await w.send('DELETE', '/admin/permits', { region_id: GUANGAN, permit_id: unbound.code });
    expect(noTheme.statusCode).toBe(400);
    expect(noTheme.json()).toEqual({ success: false, message: '未找到许可所属主题,无法删除' });
    const [p] = themed(GUANGAN);
    const foreignTheme = loadCorpus().themes.find((t) => !p.themes.includes(t.name))!;
    const wrongTheme = await w.send('DELETE', '/admin/permits', { region_id: GUANGAN, permit_id: p.code, theme: foreignTheme.name });
    expect(wrongTheme.json()).toEqual({ success: false, message: '未找到许可所属主题,无法删除' });
    for (const payload of [
      { region_id: GUANGAN, permit_id: '999999' },
      { region_id: GUANGAN, permit_id: String(idOf(QIANFENG, themed(QIANFENG)[0].code)) },
      { region_id: GUANGAN, permit_id: '1; DELETE FROM permits; --' },
    ]) {
      const res = await w.send('DELETE', '/admin/permits', payload);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, message: 'Permit not found' });
    }
    const noRegion = await w.send('DELETE', '/admin/permits', { region_id: 'nowhere', permit_id: p.code });
    expect(noRegion.json()).toEqual({ success: false, message: 'Region not found' });
    expect(await state()).toEqual(before);
    expect(await w.lastLog()).toMatchObject({ operation_type: 'delete', target_type: 'permit', outcome: 'failure', error_message: 'Region not found' });
  });

  it('snapshots and deletes a permit in one go (JSON body), resolving its theme', async () => {
    const p = themed(GUANGAN)[0];
    const id = idOf(GUANGAN, p.code);
    const [permits, risks, batches] = await state();
    w.changes.length = 0;
    const res = await w.send('DELETE', '/admin/permits', { region_id: GUANGAN, permit_id: String(id) });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    const resolved = Math.min(...p.themes.map((name) => w.seed.themesByName.get(name)!));
    expect(data).toEqual({
      deleted: true,
      permit_id: String(id),
      permit_name: p.name,
      region_id: String(w.seed.regions.get(GUANGAN)),
      theme_id: String(resolved),
      snapshot_batch_id: data.snapshot_batch_id,
      risk_count: p.risks.length,
    });
    expect(await state()).toEqual([permits - 1, risks - p.risks.length, batches + 1, expect.any(Number)]);
    expect(await db().selectFrom('permit_themes').select('theme_id').where('permit_id', '=', id).execute()).toEqual([]);
    const batch = await db().selectFrom('snapshot_batches').selectAll().where('id', '=', Number(data.snapshot_batch_id)).executeTakeFirstOrThrow();
    expect(batch).toMatchObject({ reason: 'delete', edited_by: 'admin', change_summary: null, permit_count: 1, risk_count: p.risks.length });
    const saved = await db()
      .selectFrom('snapshot_risks as sr')
      .innerJoin('snapshot_permits as sp', 'sp.id', 'sr.snapshot_permit_id')
      .select(['sr.title', 'sp.permit_id'])
      .where('sp.batch_id', '=', batch.id)
      .orderBy('sr.position')
      .execute();
    expect(saved.map((r) => r.title)).toEqual(p.risks.map((r) => r.title));
    expect(w.changes).toEqual([{ kind: 'permits', permitIds: [id] }]);
    expect(await w.lastLog()).toMatchObject({
      operation_type: 'delete',
      target_type: 'permit',
      target_id: String(id),
      target_name: p.name,
      outcome: 'success',
      operator_username: 'admin',
    });
    const again = await w.send('DELETE', '/admin/permits', { region_id: GUANGAN, permit_id: String(id) });
    expect(again.statusCode).toBe(404);
  });

  it('takes a form body or the query string, a given theme, edited_by and change_summary', async () => {
    const [, p1, p2] = themed(GUANGAN);
    const theme = p1.themes.at(-1)!;
    const form = await w.form('DELETE', '/admin/permits', { region: '广安区', permit: p1.code, theme, edited_by: '  张三 ', change_summary: '重复事项' });
    expect(form.statusCode).toBe(200);
    expect(form.json().data.theme_id).toBe(String(w.seed.themesByName.get(theme)));
    const batch = await db().selectFrom('snapshot_batches').selectAll().where('id', '=', Number(form.json().data.snapshot_batch_id)).executeTakeFirstOrThrow();
    expect(batch).toMatchObject({ edited_by: '张三', change_summary: '重复事项' });

    const query = await w.send('DELETE', `/admin/permits?region_id=${GUANGAN}&permit_id=${p2.code}&change_summary=%20`, undefined, w.city);
    expect(query.statusCode).toBe(200);
    const cityBatch = await db()
      .selectFrom('snapshot_batches')
      .selectAll()
      .where('id', '=', Number(query.json().data.snapshot_batch_id))
      .executeTakeFirstOrThrow();
    // edited_by defaults to the username, then the display name.
    expect(cityBatch).toMatchObject({ edited_by: 'city', change_summary: null });
  });

  it('lets a department administrator delete only in its own region', async () => {
    const before = await state();
    const qf = themed(QIANFENG)[0];
    const denied = await w.send('DELETE', '/admin/permits', { region_id: QIANFENG, permit_id: qf.code }, w.district);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({ success: false, message: '无权操作该区域的数据' });
    expect(await state()).toEqual(before);
    const own = themed(GUANGAN)[3];
    const ok = await w.send('DELETE', '/admin/permits', { region_id: GUANGAN, permit_id: own.code }, w.district);
    expect(ok.statusCode).toBe(200);
    expect((await db().selectFrom('snapshot_batches').select('edited_by').orderBy('id', 'desc').executeTakeFirstOrThrow()).edited_by).toBe('district');
    expect((await w.send('DELETE', '/admin/permits', { region_id: GUANGAN, permit_id: themed(GUANGAN)[4].code }, null)).statusCode).toBe(401);
  });

  it('keeps the snapshot and the deletion in one transaction', async () => {
    const p = themed(GUANGAN)[5];
    // Make the deletion itself fail after the snapshot was written.
    if (dialect === 'sqlite') {
      await sql`create trigger refuse_delete before delete on permits begin select raise(abort, 'deletion refused'); end`.execute(db());
    } else {
      await sql`create function refuse_delete() returns trigger language plpgsql as $$ begin raise exception 'deletion refused'; end $$`.execute(db());
      await sql`create trigger refuse_delete before delete on permits for each row execute function refuse_delete()`.execute(db());
    }
    const before = await state();
    const res = await w.send('DELETE', '/admin/permits', { region_id: GUANGAN, permit_id: p.code });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ success: false, message: expect.stringContaining('deletion refused') });
    expect(await state()).toEqual(before);
    await sql`drop trigger refuse_delete${sql.raw(dialect === 'sqlite' ? '' : ' on permits')}`.execute(db());
    expect((await w.send('DELETE', '/admin/permits', { region_id: GUANGAN, permit_id: p.code })).statusCode).toBe(200);
  });
});
