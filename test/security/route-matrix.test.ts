import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dumpDatabase } from '../../src/modules/importer/import.test-helpers.js';
import { testDialects } from '../helpers/databases.js';
import { rows, scopedRoute, withTargets, type MatrixWorld, type Req } from './route-matrix.rows.js';
import { B_HIDDEN, B_MARK, ledger, MIXED_FILE, REGION_B, ROLES, routeKey, twoRegions } from './two-regions.js';

/**
 * Every registered route × {anonymous, department administrator of region A (grade 50), city-level
 * user (grade 90, not role admin), super administrator}: each caller gets exactly what the guards
 * of docs/accounts.md and the data scope allow (the rows: route-matrix.rows.ts), and no answer to the
 * region-A user carries anything of region B (every region-B text carries the marker 乙区). A route
 * registered without a row fails the first test. The app is built once per dialect.
 */

const json = (res: { json(): unknown }) => res.json() as { success: boolean; message?: string; data: any };

describe.each(testDialects())('authorisation of every route on %s', (dialect) => {
  let w: MatrixWorld;

  beforeAll(async () => {
    w = await withTargets(await twoRegions(dialect));
  });
  afterAll(async () => w?.close());

  it('has a row for every registered route, and a registered route for every row', () => {
    const registered = new Set<string>();
    for (const r of w.routes) {
      for (const method of [r.method].flat()) {
        if (method === 'HEAD') continue; // answered by the GET route's handler and hooks (checked below)
        registered.add(routeKey(method, r.url));
      }
    }
    expect([...registered].sort()).toEqual(rows.map((r) => r.route).sort());
  });

  it.each(rows.map((r) => [r.route, r] as const))('%s', async (_route, row) => {
    const registered = w.routes.find((r) => routeKey([r.method].flat()[0], r.url) === row.route);
    const extra = registered?.config?.failureExtra ?? {};
    for (const role of ROLES) {
      const req = await row.request(w, role);
      const res = await w.call(role, req);
      await row.expect[role](res, { w, req, role, extra });
      if (role === 'district' && scopedRoute(row.route)) {
        expect(res.body, `${row.route} shows region B to the region-A user`).not.toContain(B_MARK);
      }
      if (role === 'anon' && req.method === 'GET') {
        const head = await w.call(role, { ...req, method: 'HEAD' });
        expect(head.statusCode, `HEAD ${req.url}`).toBe(res.statusCode);
      }
    }
  });

  // Beyond the matrix: the ways region-B data could still reach the region-A user.

  it('lists a city-wide workbook to the region-A user with its region-A permit only, and never hands out its content', async () => {
    const district = (req: Req) => w.call('district', req);
    const listed = json(await district({ method: 'GET', url: '/admin/permit-files' })).data.files;
    expect(listed.find((f: { id: string }) => f.id === w.files.mixed)).toMatchObject({ filename: MIXED_FILE, permit_count: 1, region_id: null });
    const refused: Array<[Req, string]> = [
      [{ method: 'GET', url: `/admin/permit-files/${w.files.mixed}/download` }, '该文件包含其他区域的数据，无权下载'],
      [{ method: 'GET', url: `/admin/permit-file/download?region=${w.regionA}&permit=A-005` }, '该文件包含其他区域的数据，无权下载'],
      [{ method: 'POST', url: `/admin/permit-files/${w.files.mixed}/reimport` }, '该文件包含其他区域的数据，无权重新导入'],
      [{ method: 'DELETE', url: `/admin/permit-files/${w.files.mixed}` }, '该文件包含其他区域的数据，无权删除'],
    ];
    for (const [req, message] of refused) {
      const res = await district(req);
      expect(res.statusCode, String(req.url)).toBe(403);
      expect(res.json()).toEqual({ success: false, message });
    }
    expect(await w.t.dbh.db.selectFrom('permit_files').select('id').where('id', '=', Number(w.files.mixed)).execute()).toHaveLength(1);
    // A workbook wholly of region A is the region-A user's to download and re-import; the city-wide one is the city user's.
    const own = await district({ method: 'GET', url: `/admin/permit-files/${w.files.a}/download` });
    expect(own.statusCode).toBe(200);
    const again = await district({ method: 'POST', url: `/admin/permit-files/${w.files.a}/reimport` });
    expect(json(again).data).toMatchObject({ binding_mode: 'department', error_count: 0 });
    expect(again.body).not.toContain(B_MARK);
    expect((await w.call('city', { method: 'GET', url: `/admin/permit-files/${w.files.mixed}/download` })).statusCode).toBe(200);
  });

  it('shows the region-A user only the region-A part of a snapshot batch spanning both, and refuses to restore it', async () => {
    const list = json(await w.call('district', { method: 'GET', url: `/admin/permit-risk-snapshots?limit=200` })).data.snapshots;
    const part = list.filter((e: { batch_id: string }) => e.batch_id === w.batches.mixed);
    expect(part.map((e: { permit_name: string }) => e.permit_name)).toEqual(['甲区合并事项']);
    const before = await dumpDatabase(w.t.dbh.db);
    const refused = await w.call('district', { method: 'POST', url: `/admin/permit-risk-snapshots/${w.batches.mixed}/restore`, payload: {} });
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({ success: false, message: '无权操作该区域的数据' });
    const after = await dumpDatabase(w.t.dbh.db);
    delete before.operation_logs;
    delete after.operation_logs;
    expect(after).toEqual(before);
    // Its own region's batch it restores.
    const own = await w.call('district', { method: 'POST', url: `/admin/permit-risk-snapshots/${w.batches.a}/restore`, payload: {} });
    expect(json(own).data.restored_permits).toHaveLength(1);
  });

  it('shows none of the stored region-B data in the preview of a workbook naming region B, and commits nothing', async () => {
    // Codes of stored region-B permits under other names: a preview comparing with stored data would show their names.
    const probe = await ledger({
      试探: [
        { region: REGION_B.name, theme: '餐饮服务', name: '试探事项一', code: 'B-001', dept: '试探局', contact: '试探', risk: '试探风险' },
        { region: REGION_B.code, theme: '餐饮服务', name: '试探事项二', code: 'B-003', dept: '试探局', contact: '试探', risk: '试探风险' },
      ],
    });
    const up = await w.upload(w.cookies.district!, probe, '试探.xlsx');
    expect(up.statusCode).toBe(200);
    const preview = json(up).data;
    expect(preview.error_count).toBeGreaterThan(0);
    expect(JSON.stringify(preview.sheets)).toContain('region_out_of_scope');
    expect(preview.totals).toMatchObject({ permits: 0, new: 0, changed: 0, unchanged: 0 });
    for (const stored of ['乙区食品经营许可', B_HIDDEN, '乙区联系人', '乙区市场监管局', '乙区食品经营许可风险']) {
      expect(up.body, stored).not.toContain(stored);
    }
    const before = await dumpDatabase(w.t.dbh.db);
    const commit = await w.call('district', { method: 'POST', url: '/admin/permit-import/commit', payload: { session_id: preview.session_id } });
    expect(commit.statusCode).toBe(400);
    expect(json(commit).message).toContain('无权导入区域：乙区');
    const after = await dumpDatabase(w.t.dbh.db);
    delete before.operation_logs;
    delete after.operation_logs;
    expect(after).toEqual(before);
  });
});
