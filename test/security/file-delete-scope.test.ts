import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dumpDatabase } from '../../src/modules/importer/import.test-helpers.js';
import { testDialects } from '../helpers/databases.js';
import { ledger, permitRow, REGION_A, REGION_B, twoRegions, type TwoRegions } from './two-regions.js';

/**
 * Deleting an archived workbook follows the rule of handing out its content (download,
 * re-import): below grade 90 the whole workbook must be in the user's scope — its recorded region
 * and every permit still linked to it. Here the workbooks a region-A department account can see
 * (some of their permits are region A's) while other regions' rows are in them, as the real import
 * path leaves them: a workbook archived for region B, and a city-wide one.
 */

const REFUSED = '该文件包含其他区域的数据，无权';
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex');

describe.each(testDialects())('deleting archived workbooks across regions on %s', (dialect) => {
  let w: TwoRegions;
  /** Archived for region B (its rows bound to B's department), later also confirming region-A permits. */
  let bFile = '';
  let bBytes: Buffer;
  /** A city-wide workbook (both regions' rows), whose region-B permit was confirmed by a later workbook. */
  let mixedFile = '';
  let mixedBytes: Buffer;
  /** Wholly region A's. */
  let aFile = '';

  const fileRow = (id: string) =>
    w.t.dbh.db.selectFrom('permit_files').select(['id', 'region_id', 'sha256', 'content']).where('id', '=', Number(id)).executeTakeFirst();
  const linkedRegions = async (id: string) =>
    (await w.t.dbh.db.selectFrom('permits').select('region_id').distinct().where('source_file_id', '=', Number(id)).execute())
      .map((r) => String(r.region_id))
      .sort();

  beforeAll(async () => {
    w = await twoRegions(dialect);
    const admin = w.cookies.admin!;
    const district = w.cookies.district!;

    // Rows without a region: each department's upload binds them to its own region. Region B's
    // department archives the workbook (recorded as region B's); region A's uploads the same file
    // under the same name, which the archive keeps once, so region-A permits link to B's file.
    const unbound = [permitRow('', 'S-001', '自报事项一'), permitRow('', 'S-002', '自报事项二')];
    bBytes = await ledger({ 自报台账: unbound });
    bFile = (await w.importWorkbook(w.districtB, bBytes, '自报台账.xlsx')).file_id;
    expect((await w.importWorkbook(district, bBytes, '自报台账.xlsx')).file_id).toBe(bFile);
    // Region B's permits then confirmed by another workbook: only region-A permits still link to B's file.
    await w.importWorkbook(admin, await ledger({ 复核: unbound.map((r) => ({ ...r, region: REGION_B.name })) }), '乙区复核台账.xlsx');

    const mixedRows = [permitRow(REGION_A.name, 'A-601', '混合事项'), permitRow(REGION_B.name, 'B-601', '混合事项')];
    mixedBytes = await ledger({ 混合: mixedRows });
    mixedFile = (await w.importWorkbook(admin, mixedBytes, '甲乙混合台账.xlsx')).file_id;
    await w.importWorkbook(admin, await ledger({ 复核: [mixedRows[1]] }), '乙区混合复核.xlsx');

    aFile = (await w.importWorkbook(district, await ledger({ 甲区: [permitRow(REGION_A.name, 'A-701', '自有事项')] }), '甲区自有台账.xlsx')).file_id;
  });
  afterAll(async () => w?.close());

  it('has built the workbooks it is about: listed to the region-A user, other regions in their content', async () => {
    expect(await fileRow(bFile)).toMatchObject({ region_id: Number(w.regionB) });
    expect(await linkedRegions(bFile)).toEqual([w.regionA]);
    expect(await fileRow(mixedFile)).toMatchObject({ region_id: null });
    expect(await linkedRegions(mixedFile)).toEqual([w.regionA]);
    expect(await fileRow(aFile)).toMatchObject({ region_id: Number(w.regionA) });
    const listed = (await w.call('district', { method: 'GET', url: '/admin/permit-files?limit=100' })).json().data.files.map((f: { id: string }) => f.id);
    expect(listed).toEqual(expect.arrayContaining([bFile, mixedFile, aFile]));
  });

  it('refuses the region-A department account the deletion of a workbook holding region-B rows or mixed rows, as it refuses their content, and changes nothing', async () => {
    for (const [id, bytes] of [
      [bFile, bBytes],
      [mixedFile, mixedBytes],
    ] as const) {
      const before = await dumpDatabase(w.t.dbh.db);
      const res = await w.call('district', { method: 'DELETE', url: `/admin/permit-files/${id}` });
      expect(res.statusCode, id).toBe(403);
      expect(res.json()).toEqual({ success: false, message: `${REFUSED}删除` });
      // The file row, its stored bytes and the permits' links are all still there.
      expect(await dumpDatabase(w.t.dbh.db)).toEqual(before);
      const row = (await fileRow(id))!;
      expect(Buffer.from(row.content).equals(bytes)).toBe(true);
      expect(row.sha256).toBe(sha256(bytes));
      expect(await linkedRegions(id)).toEqual([w.regionA]);
      const log = await w.t.dbh.db
        .selectFrom('operation_logs')
        .select(['outcome', 'target_id'])
        .where('operation_type', '=', 'file_delete')
        .orderBy('id', 'desc')
        .executeTakeFirstOrThrow();
      expect(log).toEqual({ outcome: 'failure', target_id: id });

      // The same rule as the workbook's content.
      const download = await w.call('district', { method: 'GET', url: `/admin/permit-files/${id}/download` });
      expect([download.statusCode, download.json()]).toEqual([403, { success: false, message: `${REFUSED}下载` }]);
      const reimport = await w.call('district', { method: 'POST', url: `/admin/permit-files/${id}/reimport` });
      expect([reimport.statusCode, reimport.json()]).toEqual([403, { success: false, message: `${REFUSED}重新导入` }]);
    }
  });

  it('lets the region-A department account delete a workbook wholly of region A, and the city-level user delete the others', async () => {
    const own = await w.call('district', { method: 'DELETE', url: `/admin/permit-files/${aFile}` });
    expect([own.statusCode, own.json()]).toEqual([200, { success: true, message: '文件已删除' }]);
    expect(await fileRow(aFile)).toBeUndefined();
    const a701 = await w.t.dbh.db.selectFrom('permits').select(['source_file_id']).where('code', '=', 'A-701').execute();
    expect(a701).toEqual([{ source_file_id: null }]);

    for (const id of [bFile, mixedFile]) {
      const res = await w.call('city', { method: 'DELETE', url: `/admin/permit-files/${id}` });
      expect([res.statusCode, res.json()], id).toEqual([200, { success: true, message: '文件已删除' }]);
      expect(await fileRow(id)).toBeUndefined();
      expect(await linkedRegions(id)).toEqual([]);
    }
  });
});
