import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { loadCorpus } from '../../../test/helpers/seed-catalog.js';
import type { TestApp } from '../../../test/helpers/test-app.js';
import {
  dumpDatabase,
  editWorkbook,
  GUANGAN_CITY,
  GUANGAN_DISTRICT,
  importer,
  importerApp,
  json,
  manifest,
  QIANFENG,
  workbookBytes,
} from './import.test-helpers.js';

const MARKER = 'INJECT-FAIL';

/** Makes the database itself refuse one risk row, the way a full disk or a constraint would halfway through. */
async function injectFailure(t: TestApp): Promise<void> {
  if (t.dbh.kind === 'sqlite') {
    await sql
      .raw(
        `CREATE TRIGGER inject_failure BEFORE INSERT ON risks WHEN NEW.title LIKE '%${MARKER}%'
      BEGIN SELECT RAISE(ABORT, 'injected failure'); END`,
      )
      .execute(t.dbh.db);
    return;
  }
  await sql
    .raw(
      `CREATE FUNCTION inject_failure() RETURNS trigger AS $$
    BEGIN IF NEW.title LIKE '%${MARKER}%' THEN RAISE EXCEPTION 'injected failure'; END IF; RETURN NEW; END $$ LANGUAGE plpgsql`,
    )
    .execute(t.dbh.db);
  await sql`CREATE TRIGGER inject_failure BEFORE INSERT ON risks FOR EACH ROW EXECUTE FUNCTION inject_failure()`.execute(t.dbh.db);
}

describe.each(testDialects())('committing imports on %s', (dialect) => {
  let t: TestApp;
  let admin = '';
  let imp: ReturnType<typeof importer>;

  beforeAll(async () => {
    ({ t, admin, imp } = await importerApp(dialect));
    await imp.importFile(admin, GUANGAN_CITY);
  });
  afterAll(async () => t?.close());

  it('previews a re-import with one risk changed as exactly that change, and snapshots the old risk list', async () => {
    const changed = await editWorkbook(workbookBytes(GUANGAN_CITY), (wb) => {
      wb.worksheets[0].getCell('L3').value = '《道路运输条例》第六十三条（修订）';
    });
    const up = json(await imp.upload(admin, changed, GUANGAN_CITY)).data;
    expect(up.totals).toMatchObject({ permits: 159, new: 0, changed: 1, unchanged: 158, risks_added: 1, risks_removed: 1 });
    const permits = up.sheets[0].permits.filter((p: any) => p.status !== 'unchanged');
    expect(permits).toEqual([
      {
        rows: [2, 3, 4, 5],
        name: '道路旅客运输经营许可（新增）',
        code: '511A0014200001',
        region: '广安市',
        status: 'changed',
        changed_fields: ['risks'],
        risks_added: 1,
        risks_removed: 1,
        themes: ['道路运输经营'],
      },
    ]);

    const res = await imp.commit(admin, { session_id: up.session_id, edited_by: 'reviewer', change_summary: '修订法律依据' });
    expect(res.statusCode).toBe(200);
    const result = json(res).data;
    expect(result.totals).toMatchObject({ changed: 1, unchanged: 158, risks_added: 1, risks_removed: 1 });
    expect(result.snapshot_batch_id).not.toBeNull();
    const batch = await t.dbh.db.selectFrom('snapshot_batches').selectAll().where('id', '=', Number(result.snapshot_batch_id)).executeTakeFirstOrThrow();
    expect(batch).toMatchObject({ reason: 'import', edited_by: 'reviewer', change_summary: '修订法律依据', permit_count: 1, risk_count: 4 });
    const old = loadCorpus().permits.find((p) => p.key === '511600:511A0014200001')!;
    const saved = await t.dbh.db
      .selectFrom('snapshot_risks as sr')
      .innerJoin('snapshot_permits as sp', 'sp.id', 'sr.snapshot_permit_id')
      .select(['sr.risk_type', 'sr.level', 'sr.title', 'sr.description', 'sr.legal_basis', 'sr.consequence', 'sr.prevention'])
      .where('sp.batch_id', '=', Number(result.snapshot_batch_id))
      .orderBy('sr.position')
      .execute();
    expect(saved).toEqual(old.risks.map(({ key: _k, ...r }) => r));
    const now = await t.dbh.db.selectFrom('risks').select('legal_basis').where('title', '=', old.risks[1].title).execute();
    expect(now.map((r) => r.legal_basis)).toContain('《道路运输条例》第六十三条（修订）');

    const batches = await t.dbh.db.selectFrom('snapshot_batches').select('id').execute();
    const files = await t.dbh.db.selectFrom('permit_files').select('id').execute();
    const again = json(await imp.commit(admin, { sessionId: up.session_id })).data;
    expect(again.totals).toMatchObject({ permits: 159, new: 0, changed: 0, unchanged: 159, risks_added: 0, risks_removed: 0 });
    expect(again.snapshot_batch_id).toBeNull();
    expect(again.file_id).toBe(result.file_id);
    const reuploaded = await imp.importFile(admin, GUANGAN_CITY, {}, changed);
    expect(reuploaded).toMatchObject({ file_id: result.file_id, snapshot_batch_id: null, totals: { unchanged: 159 } });
    expect(await t.dbh.db.selectFrom('snapshot_batches').select('id').execute()).toEqual(batches);
    expect(await t.dbh.db.selectFrom('permit_files').select('id').execute()).toEqual(files);

    const log = await t.dbh.db.selectFrom('operation_logs').selectAll().where('operation_type', '=', 'import').orderBy('id').execute();
    expect(log.at(-1)).toMatchObject({ outcome: 'success', target_type: 'file', target_id: result.file_id, target_name: GUANGAN_CITY });
    expect(log.at(-1)!.summary).toContain('159 个许可事项');
  });

  it('leaves every table as it was when the commit fails in its last sheet, and answers 500 with the cause', async () => {
    await imp.importFile(admin, GUANGAN_DISTRICT);
    const broken = await editWorkbook(workbookBytes(GUANGAN_DISTRICT), (wb) => {
      wb.worksheets[0].getCell('L4').value = '《公路法》（修订）';
      const last = wb.worksheets.at(-1)!;
      last.getCell('K8').value = `${MARKER} ${String(last.getCell('K8').value)}`;
    });
    const up = json(await imp.upload(admin, broken, 'broken.xlsx')).data;
    expect(up.totals).toMatchObject({ changed: 2, unchanged: 534 });
    await injectFailure(t);
    const before = await dumpDatabase(t.dbh.db);
    const res = await imp.commit(admin, { session_id: up.session_id });
    expect(res.statusCode).toBe(500);
    expect(json(res)).toEqual({ success: false, message: expect.stringContaining('injected failure') });
    expect(await dumpDatabase(t.dbh.db)).toEqual(before);
    const log = await t.dbh.db.selectFrom('operation_logs').selectAll().orderBy('id', 'desc').executeTakeFirstOrThrow();
    expect(log).toMatchObject({ operation_type: 'import', outcome: 'failure' });
  });

  it('applies only the chosen sheets, with overrides and theme bindings', async () => {
    const qf = manifest.workbooks.find((w) => w.file === QIANFENG)!;
    const up = json(await imp.upload(admin, workbookBytes(QIANFENG), QIANFENG)).data;
    const unknown = await imp.commit(admin, { session_id: up.session_id, sheets: ['开办网吧', '没有这个表'] });
    expect(unknown.statusCode).toBe(400);
    expect(json(unknown).message).toBe('工作表不存在：没有这个表');
    const badVisibility = await imp.commit(admin, { session_id: up.session_id, overrides: { 开办网吧: { visibility: 'maybe' } } });
    expect(json(badVisibility).message).toBe('overrides.开办网吧.visibility 只能是 visible 或 hidden');

    const first = json(
      await imp.commit(admin, {
        session_id: up.session_id,
        selectedSheets: '开办网吧',
        overrides: { 开办网吧: { visibility: 'hidden', themes: ['开办网吧', '网吧专项检查'] } },
      }),
    ).data;
    expect(first.sheets.map((s: any) => s.sheet)).toEqual(['开办网吧']);
    expect(first.totals).toMatchObject({ permits: 3, new: 3, risks: 13, themes_linked: 6 });
    expect(first.themes_created.map((t: any) => t.name)).toEqual(['网吧专项检查']);
    const stored = await t.dbh.db.selectFrom('permits').select(['id', 'visible']).where('source_file_id', '=', Number(first.file_id)).execute();
    expect(stored.map((p) => p.visible)).toEqual([0, 0, 0]);

    const second = json(
      await imp.commit(admin, { session_id: up.session_id, sheet_names: ['开办网吧'], theme_bindings: { 开办网吧: qf.theme_bindings!['开办网吧'] } }),
    ).data;
    // Visible again (the sheet says 是), themes are the union of what the permits had and the binding.
    expect(second.totals).toMatchObject({ permits: 3, changed: 3, themes_linked: 0 });
    const links = await t.dbh.db
      .selectFrom('permit_themes')
      .select('theme_id')
      .where(
        'permit_id',
        'in',
        stored.map((p) => p.id),
      )
      .execute();
    expect(links).toHaveLength(6);
  });
});
