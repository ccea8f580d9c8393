import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { loadCorpus } from '../../../test/helpers/seed-catalog.js';
import { loadSearchDocs } from '../search/search-docs.repository.js';
import type { TestApp } from '../../../test/helpers/test-app.js';
import {
  corpusAsStored,
  GUANGAN_CITY,
  GUANGAN_DISTRICT,
  importer,
  importerApp,
  json,
  manifest,
  QIANFENG,
  storedCatalogue,
  workbookBytes,
} from './import.test-helpers.js';

const good = manifest.workbooks.filter((w) => !w.file.startsWith('bad/'));

describe.each(testDialects())('importing the corpus workbooks on %s', (dialect) => {
  let t: TestApp;
  let cookie = '';
  let imp: ReturnType<typeof importer>;

  beforeAll(async () => {
    ({ t, admin: cookie, imp } = await importerApp(dialect));
  });
  afterAll(async () => t?.close());

  it('previews each good workbook with exactly the sheets, rows and counts of the manifest', async () => {
    for (const wb of good) {
      const res = await imp.upload(cookie, workbookBytes(wb.file), wb.file);
      expect(res.statusCode, wb.file).toBe(200);
      const data = json(res).data;
      expect(data).toMatchObject({ filename: wb.file, uploaded_by: '超级管理员', binding_mode: 'auto', department: null, error_count: 0 });
      expect(
        data.sheets.map((s: any) => ({
          name: s.name,
          header_row: s.header_row,
          first_data_row: s.first_data_row,
          data_rows: s.data_rows,
          permits: s.counts.permits,
          risks: s.counts.risks,
        })),
      ).toEqual(
        wb.sheets.map((s) => ({
          name: s.name,
          header_row: s.header_row,
          first_data_row: s.first_data_row,
          data_rows: s.data_rows,
          permits: s.permits,
          risks: s.risks,
        })),
      );
      expect(data.totals).toMatchObject({ permits: wb.permits, risks: wb.risks, new: wb.permits, changed: 0, unchanged: 0, risks_added: wb.risks });
      for (const s of data.sheets) expect(s.permits.every((p: any) => p.status === 'new')).toBe(true);
    }
  });

  it('commits them so the database holds exactly the corpus: permits, risks, departments, visibility and themes', async () => {
    const city = await imp.importFile(cookie, GUANGAN_CITY);
    expect(city.totals).toMatchObject({ permits: 159, risks: 583, new: 159, risks_added: 583 });
    expect(city.snapshot_batch_id).toBeNull();
    const district = await imp.importFile(cookie, GUANGAN_DISTRICT);
    expect(district.totals).toMatchObject({ permits: 536, risks: 1826, new: 536 });
    expect(district.sheets).toHaveLength(23);
    const qf = manifest.workbooks.find((w) => w.file === QIANFENG)!;
    const qianfeng = await imp.importFile(cookie, QIANFENG, { theme_bindings: qf.theme_bindings });
    expect(qianfeng.totals).toMatchObject({ permits: 295, risks: 988, new: 295 });
    expect(qianfeng.sheets.map((s: any) => [s.sheet, s.permits, s.risks])).toEqual(qf.sheets.map((s) => [s.name, s.permits, s.risks]));
    expect(qianfeng.regions_created).toEqual([]);

    const corpus = loadCorpus();
    const stored = await storedCatalogue(t.dbh.db);
    expect(stored.size).toBe(corpus.permits.length);
    for (const p of corpus.permits) {
      expect(stored.get(p.key), p.key).toEqual(corpusAsStored(p));
    }
    const themes = await t.dbh.db.selectFrom('themes').select('name').execute();
    expect(themes.map((r) => r.name).sort()).toEqual(corpus.themes.map((r) => r.name).sort());
    const hidden = await t.dbh.db.selectFrom('permits').select('id').where('visible', '=', 0).execute();
    expect(hidden).toHaveLength(corpus.permits.filter((p) => !p.visible).length);
    // Each region offers the themes its permits use.
    const options = await t.dbh.db
      .selectFrom('region_themes as rt')
      .innerJoin('regions as r', 'r.id', 'rt.region_id')
      .select(['r.name as region', (eb) => eb.fn.countAll<number>().as('n')])
      .groupBy('r.name')
      .execute();
    const used = (region: string) => new Set(corpus.permits.filter((p) => p.region === region).flatMap((p) => p.themes)).size;
    for (const o of options) expect(Number(o.n), o.region).toBe(used(o.region));
    // One archived workbook per import, linked to every permit it brought.
    const files = await t.dbh.db.selectFrom('permit_files').select(['id', 'filename', 'region_id']).orderBy('id').execute();
    expect(files.map((f) => f.filename)).toEqual([GUANGAN_CITY, GUANGAN_DISTRICT, QIANFENG]);
    const unlinked = await t.dbh.db.selectFrom('permits').select('id').where('source_file_id', 'is', null).execute();
    expect(unlinked).toEqual([]);
  });

  it('indexes each committed permit exactly as the database holds it', async () => {
    // New permits' documents come from the commit itself (commit-search-docs.ts), not from a read.
    const ids = (await t.dbh.db.selectFrom('permits').select('id').execute()).map((r) => r.id);
    const stored = await loadSearchDocs(t.dbh.db, ids);
    expect(stored).toHaveLength(loadCorpus().permits.length);
    const index = t.app.searchIndex.current;
    for (const doc of stored) expect(index.document(doc.permitId), doc.name).toEqual(doc);
    expect(index.size).toBe(stored.length);
  });

  it('reports every permit unchanged when the same workbook comes again, adding no file and no snapshot', async () => {
    const again = await imp.importFile(cookie, GUANGAN_DISTRICT);
    expect(again.totals).toMatchObject({ permits: 536, new: 0, changed: 0, unchanged: 536, risks_added: 0, risks_removed: 0 });
    expect(again.snapshot_batch_id).toBeNull();
    const files = await t.dbh.db.selectFrom('permit_files').select('id').execute();
    expect(files).toHaveLength(3);
  });
});
