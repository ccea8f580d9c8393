import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDialects } from '../../../test/helpers/databases.js';
import { createDepartment, createUser } from '../../../test/helpers/fixtures.js';
import { loadCorpus } from '../../../test/helpers/seed-catalog.js';
import { API, buildTestApp, type TestApp } from '../../../test/helpers/test-app.js';
import { nowIso } from '../../db/dialect.js';
import { dumpDatabase, importer, json, manifest, seedCorpusRegions, workbookBytes, type ManifestFinding } from './import.test-helpers.js';

const bad = manifest.workbooks.filter((w) => w.file.startsWith('bad/'));
const readable = bad.filter((w) => w.file !== 'bad/not-a-workbook.xlsx');

/** A finding as the manifest writes it: the column by its header name. */
const asManifest = (f: any): ManifestFinding => ({ sheet: f.sheet, row: f.row, column: f.header, severity: f.severity, problem: f.message });

describe.each(testDialects())('findings of the bad workbooks on %s', (dialect) => {
  let t: TestApp;
  let admin = '';
  let clerk = '';
  let imp: ReturnType<typeof importer>;

  beforeAll(async () => {
    t = await buildTestApp(dialect);
    const regions = await seedCorpusRegions(t.dbh.db);
    // The catalog themes exist, so only the problems the manifest lists are reported.
    for (const theme of loadCorpus().themes) {
      await t.dbh.db.insertInto('themes').values({ name: theme.name, created_at: nowIso() }).execute();
    }
    const dept = await createDepartment(t.dbh.db, { name: '区市场监管局', code: 'SCJG', region_id: regions['广安区'] });
    await createUser(t.dbh.db, { username: 'scjg', password: 'Clerk-Pass-123', department_id: dept, grade: 50 });
    admin = await t.login();
    clerk = await t.login('scjg', 'Clerk-Pass-123');
    imp = importer(t);
  });
  afterAll(async () => t?.close());

  it('refuses a file that is not a workbook at upload, with the parser message and no session', async () => {
    const res = await imp.upload(admin, workbookBytes('bad/not-a-workbook.xlsx'), 'not-a-workbook.xlsx');
    expect(res.statusCode).toBe(400);
    expect(json(res)).toEqual({ success: false, message: '文件不是有效的 Excel 工作簿，无法解析' });
    expect(await t.dbh.db.selectFrom('import_sessions').select('id').execute()).toEqual([]);
  });

  it.each(readable.map((w) => [w.file, w] as const))('%s: exactly the findings of the manifest, and a commit writes nothing', async (_file, wb) => {
    const res = await imp.upload(admin, workbookBytes(wb.file), wb.file.split('/')[1]);
    expect(res.statusCode).toBe(200);
    const data = json(res).data;
    const findings = [...data.findings, ...data.sheets.flatMap((s: any) => s.findings)];
    expect(findings.map(asManifest)).toEqual(wb.expected_findings!.map(({ severity_below_grade_90: _s, ...f }) => f));
    expect(data.sheets.map((s: any) => [s.name, s.header_row, s.data_rows])).toEqual(wb.sheets.map((s) => [s.name, s.header_row, s.data_rows]));

    const before = await dumpDatabase(t.dbh.db);
    const errors = wb.expected_findings!.some((f) => f.severity === 'error');
    if (!errors) return; // unknown-region: only warnings for an administrator (committed below)
    const commit = await imp.commit(admin, { session_id: data.session_id });
    expect(commit.statusCode).toBe(400);
    expect(json(commit).success).toBe(false);
    expect(await dumpDatabase(t.dbh.db)).toEqual(before);
  });

  it('names the errors of a refused commit: sheet, row, column and message', async () => {
    const up = await imp.upload(admin, workbookBytes('bad/blank-risk-point.xlsx'), 'blank-risk-point.xlsx');
    const res = await imp.commit(admin, { session_id: json(up).data.session_id, sheet_names: '风险清单' });
    expect(res.statusCode).toBe(400);
    const body = json(res);
    expect(body.message).toContain('工作表“风险清单” 第 3 行');
    expect(body.message).toContain('风险行的“风险点”为空');
    expect(body.data.errors.map((e: any) => e.row)).toEqual([3, 7]);
  });

  it('unknown regions: a warning for a city-level account, an error for a department account', async () => {
    const wb = bad.find((w) => w.file === 'bad/unknown-region.xlsx')!;
    const content = workbookBytes(wb.file);

    const clerkUp = await imp.upload(clerk, content, 'unknown-region.xlsx');
    expect(clerkUp.statusCode).toBe(200);
    const clerkData = json(clerkUp).data;
    expect(clerkData).toMatchObject({ binding_mode: 'department', department: { name: '区市场监管局', region_name: '广安区' } });
    expect(clerkData.sheets[0].findings.map(asManifest)).toEqual(
      wb.expected_findings!.map((f) => ({ ...f, severity: f.severity_below_grade_90 })).map(({ severity_below_grade_90: _s, ...f }) => f),
    );
    const before = await dumpDatabase(t.dbh.db);
    const refused = await imp.commit(clerk, { session_id: clerkData.session_id });
    expect(refused.statusCode).toBe(400);
    expect(json(refused).message).toContain('将新建区域：华蓥市');
    expect(await dumpDatabase(t.dbh.db)).toEqual(before);

    const adminUp = await imp.upload(admin, content, 'unknown-region.xlsx');
    expect(json(adminUp).data.regions_to_create).toEqual(['华蓥市', '广安新区']);
    const done = await imp.commit(admin, { session_id: json(adminUp).data.session_id });
    expect(done.statusCode).toBe(200);
    expect(json(done).data.regions_created.map((r: any) => r.name)).toEqual(['华蓥市', '广安新区']);
    const regions = await t.dbh.db.selectFrom('regions').select('name').orderBy('id').execute();
    expect(regions.map((r) => r.name)).toEqual(['广安市', '广安区', '前锋区', '华蓥市', '广安新区']);
    const inNew = await t.dbh.db
      .selectFrom('permits as p')
      .innerJoin('regions as r', 'r.id', 'p.region_id')
      .select(['r.name', 'p.name as permit'])
      .where('r.name', 'in', ['华蓥市', '广安新区'])
      .execute();
    expect(inNew.map((r) => r.name).sort()).toEqual(['华蓥市', '广安新区'].sort());
    // Searchable, by the new region too, as soon as the commit has answered.
    for (const { name, permit } of inNew) {
      const found = json(await t.app.inject({ url: `${API}/v2?query=${encodeURIComponent(permit)}&region=${encodeURIComponent(name)}` })).data;
      const items = found.risk_subject.map((s: { permit: { name: string }; region: { name: string } }) => [s.permit.name, s.region.name]);
      expect(items, name).toContainEqual([permit, name]);
      expect(
        items.every(([, region]: string[]) => region === name),
        name,
      ).toBe(true);
    }
  });
});
