import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { loadCorpus } from '../../../test/helpers/seed-catalog.js';
import { GUANGAN, maintenanceWorld, QIANFENG, type MaintenanceWorld } from '../permits/maintenance.fixture.js';
import { createSnapshotBatch } from '../permits/create-snapshot.js';
import { permitRow } from '../../../test/helpers/permit-row.js';

const COMPANY = '511A0064100070'; // 公司设立登记: three themes, two approval departments, three risks
const themedCodes = (region: string) =>
  loadCorpus()
    .permits.filter((p) => p.region_code === region && p.themes.length > 0)
    .map((p) => p.code);

/** A permit payload with risk ids and update time left out: what a restore must reproduce exactly. */
function restorable(permit: Record<string, unknown>) {
  const { updated_at: _u, risks, ...rest } = permit as { updated_at: string; risks: Array<Record<string, unknown>> };
  return { ...rest, risks: risks.map(({ id: _id, ...r }) => r) };
}

describe.each(testDialects())('permit risk snapshots on %s', (dialect) => {
  let w: MaintenanceWorld;
  const db = () => w.t.dbh.db;
  const idOf = (region: string, code: string) => w.seed.permits.get(`${region}:${code}`)!;
  const details = async (code: string) => (await w.get(`/admin/permit-details?region=${GUANGAN}&permit=${code}`)).json().data.permit;
  const del = async (region: string, code: string) => {
    const res = await w.send('DELETE', '/admin/permits', { region_id: region, permit_id: code });
    expect(res.statusCode).toBe(200);
    return res.json().data.snapshot_batch_id as string;
  };
  const restore = (batch: string, body?: unknown, cookie?: string | null) => w.send('POST', `/admin/permit-risk-snapshots/${batch}/restore`, body, cookie);
  const batchCount = async () =>
    Number(
      (
        await db()
          .selectFrom('snapshot_batches')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );

  beforeAll(async () => {
    w = await maintenanceWorld(dialect);
  });
  afterAll(async () => w?.close());

  it('round trip: delete, list, restore gives back the same permit, id, themes, departments and risks', async () => {
    const before = await details(COMPANY);
    expect(before.themes).toHaveLength(3);
    expect(before.approval_departments).toEqual(['区行政审批局', '区市场监管局']);
    const batch = await del(GUANGAN, COMPANY);
    expect((await w.get(`/admin/permit-details?region=${GUANGAN}&permit=${COMPANY}`)).statusCode).toBe(404);

    const listed = (await w.get('/admin/permit-risk-snapshots')).json().data;
    expect(listed.snapshots[0]).toEqual({
      batch_id: batch,
      region_id: String(w.seed.regions.get(GUANGAN)),
      region_name: '广安区',
      permit_id: before.id,
      permit_name: '公司设立登记',
      permit_code: COMPANY,
      edited_by: 'admin',
      change_summary: null,
      reason: 'delete',
      created_at: expect.any(String),
      risk_count: 3,
    });

    w.changes.length = 0;
    const res = await restore(batch);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ success: true, data: { batch_id: batch, restored_permits: [before.id], new_snapshot_batch_id: null, risk_count: 3 } });
    expect(restorable(await details(COMPANY))).toEqual(restorable(before));
    expect(w.changes).toEqual([{ kind: 'permits', permitIds: [Number(before.id)] }]);
    expect(await w.lastLog()).toMatchObject({ operation_type: 'restore', target_type: 'snapshot_batch', target_id: batch, outcome: 'success' });

    // The recreated id does not disturb new ids (PostgreSQL's sequence is already past it).
    const fresh = await db()
      .insertInto('permits')
      .values(permitRow(w.seed.regions.get(GUANGAN)!, 'NEW-1', '新事项'))
      .returning('id')
      .executeTakeFirstOrThrow();
    expect(fresh.id).toBeGreaterThan(Math.max(...w.seed.permits.values()));
  });

  it('saves the current state as a new batch before restoring, so a restore can be undone', async () => {
    const id = idOf(GUANGAN, COMPANY);
    const original = await details(COMPANY);
    const batch = (await w.get(`/admin/permit-risk-snapshots?permit_id=${id}`)).json().data.snapshots[0].batch_id;
    // Change the permit: rename it, drop a risk, unlink a theme.
    await db().updateTable('permits').set({ name: '公司设立登记（改）' }).where('id', '=', id).execute();
    await db().deleteFrom('risks').where('permit_id', '=', id).where('position', '=', 0).execute();
    await db().deleteFrom('permit_themes').where('permit_id', '=', id).where('theme_id', '=', Number(original.themes[0].id)).execute();
    const changed = await details(COMPANY);

    const res = await w.form('POST', `/admin/permit-risk-snapshots/${batch}/restore`, { edited_by: '李四', change_summary: '  ' });
    expect(res.statusCode).toBe(200);
    const data = res.json().data;
    expect(data).toMatchObject({ batch_id: batch, restored_permits: [String(id)], risk_count: 3 });
    expect(restorable(await details(COMPANY))).toEqual(restorable(original));
    const saved = await db().selectFrom('snapshot_batches').selectAll().where('id', '=', Number(data.new_snapshot_batch_id)).executeTakeFirstOrThrow();
    expect(saved).toMatchObject({ reason: 'restore', edited_by: '李四', change_summary: null, permit_count: 1, risk_count: 2 });

    const undo = await restore(data.new_snapshot_batch_id, { change_summary: '撤销恢复' });
    expect(undo.json().data).toMatchObject({ restored_permits: [String(id)], risk_count: 2 });
    expect(restorable(await details(COMPANY))).toEqual(restorable(changed));
    const undoBatch = await db()
      .selectFrom('snapshot_batches')
      .selectAll()
      .where('id', '=', Number(undo.json().data.new_snapshot_batch_id))
      .executeTakeFirstOrThrow();
    expect(undoBatch).toMatchObject({ edited_by: 'admin', change_summary: '撤销恢复', risk_count: 3 });
    await restore(batch);
  });

  it('answers an unknown batch with 404 and refuses a restore that would clash, changing nothing', async () => {
    for (const bad of ['999999', 'abc', '1e3', '-1', '99999999999999999999', '1%3B%20DROP%20TABLE%20risks']) {
      const res = await restore(bad);
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ success: false, message: '快照批次不存在' });
    }
    const code = themedCodes(GUANGAN)[1];
    const batch = await del(GUANGAN, code);
    const taken = await db()
      .insertInto('permits')
      .values(permitRow(w.seed.regions.get(GUANGAN)!, code, '占用编码'))
      .returning('id')
      .executeTakeFirstOrThrow();
    const batches = await batchCount();
    const res = await restore(batch);
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toContain(`事项编码为 ${code}`);
    expect(await batchCount()).toBe(batches);
    expect(await db().selectFrom('permits').select('id').where('id', '=', idOf(GUANGAN, code)).executeTakeFirst()).toBeUndefined();
    await db().deleteFrom('permits').where('id', '=', taken.id).execute();
    expect((await restore(batch)).statusCode).toBe(200);
  });

  it('filters, pages and clamps the list, newest first', async () => {
    const qf = themedCodes(QIANFENG);
    await w.send('DELETE', '/admin/permits', { region_id: QIANFENG, permit_id: qf[0], edited_by: '王五' });
    await w.send('DELETE', '/admin/permits', { region_id: QIANFENG, permit_id: qf[1], edited_by: '王五' });
    const all = (await w.get('/admin/permit-risk-snapshots?limit=200')).json().data;
    const ids = all.snapshots.map((s: { batch_id: string }) => Number(s.batch_id));
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    expect(all.pagination).toEqual({ limit: 200, offset: 0, total: all.snapshots.length });

    const byRegion = (await w.get(`/admin/permit-risk-snapshots?region_id=${QIANFENG}`)).json().data;
    expect(byRegion.pagination.total).toBe(2);
    expect(byRegion.snapshots.map((s: { permit_code: string }) => s.permit_code)).toEqual([qf[1], qf[0]]);
    expect((await w.get('/admin/permit-risk-snapshots?region=前锋区')).json().data.pagination.total).toBe(2);
    expect((await w.get('/admin/permit-risk-snapshots?edited_by=王五')).json().data.pagination.total).toBe(2);
    expect((await w.get('/admin/permit-risk-snapshots?edited_by=nobody')).json().data.pagination.total).toBe(0);
    const name = loadCorpus().permits.find((p) => p.region_code === QIANFENG && p.code === qf[0])!.name;
    for (const permit of [String(idOf(QIANFENG, qf[0])), qf[0], encodeURIComponent(name)]) {
      const found = (await w.get(`/admin/permit-risk-snapshots?region=${QIANFENG}&permit=${permit}`)).json().data;
      expect(found.snapshots.map((s: { permit_code: string }) => s.permit_code)).toEqual([qf[0]]);
    }
    expect((await w.get('/admin/permit-risk-snapshots?region=nowhere')).json().data.pagination.total).toBe(0);

    const page = (await w.get('/admin/permit-risk-snapshots?limit=2&offset=1')).json().data;
    expect(page.snapshots.map((s: { batch_id: string }) => Number(s.batch_id))).toEqual(ids.slice(1, 3));
    const clamps: Array<[string, number, number]> = [
      ['limit=0', 1, 0],
      ['limit=500', 200, 0],
      ['limit=abc', 20, 0],
      ['limit=2.5', 20, 0],
      ['offset=-5', 20, 0],
      ['offset=x', 20, 0],
    ];
    for (const [q, limit, offset] of clamps) {
      const p = (await w.get(`/admin/permit-risk-snapshots?${q}`)).json().data.pagination;
      expect([p.limit, p.offset]).toEqual([limit, offset]);
    }
  });

  it('shows and restores only the own region to a department administrator', async () => {
    const own = (await w.get('/admin/permit-risk-snapshots?limit=200', w.district)).json().data;
    const regionId = String(w.seed.regions.get(GUANGAN));
    expect(own.snapshots.length).toBeGreaterThan(0);
    expect(own.snapshots.every((s: { region_id: string }) => s.region_id === regionId)).toBe(true);
    const all = (await w.get('/admin/permit-risk-snapshots?limit=200')).json().data.snapshots;
    expect(own.pagination.total).toBe(all.filter((s: { region_id: string }) => s.region_id === regionId).length);
    expect((await w.get(`/admin/permit-risk-snapshots?region=${QIANFENG}`, w.district)).json().data.pagination.total).toBe(0);
    expect((await w.get('/admin/permit-risk-snapshots', w.unbound)).json().data).toEqual({ snapshots: [], pagination: { limit: 20, offset: 0, total: 0 } });

    const foreign = all.find((s: { region_id: string }) => s.region_id !== regionId).batch_id;
    const batches = await batchCount();
    const hidden = await restore(foreign, {}, w.district);
    expect(hidden.statusCode).toBe(404);
    expect(hidden.json()).toEqual({ success: false, message: '快照批次不存在' });
    // A batch spanning two regions (as an import makes) is refused outright.
    const mixed = await db()
      .transaction()
      .execute((trx) =>
        createSnapshotBatch(trx, {
          reason: 'import',
          editedBy: 'admin',
          changeSummary: null,
          now: new Date().toISOString(),
          permitIds: [idOf(GUANGAN, themedCodes(GUANGAN)[5]), idOf(QIANFENG, themedCodes(QIANFENG)[5])],
        }),
      );
    const refused = await restore(String(mixed), {}, w.district);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ success: false, message: '无权操作该区域的数据' });
    expect(await batchCount()).toBe(batches + 1);
    const ownBatch = own.snapshots[0].batch_id;
    expect((await restore(ownBatch, {}, w.district)).statusCode).toBe(200);
    expect((await restore(ownBatch, {}, null)).statusCode).toBe(401);
  });
});
