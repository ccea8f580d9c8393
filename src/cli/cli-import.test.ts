import { join } from 'node:path';
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHILD_PROCESSES, cliEnv, countTables, findingTables, runBin, runInProcess } from '../../test/helpers/cli.js';
import { createTestDatabase, testDialects, type TestDatabase } from '../../test/helpers/databases.js';
import { loadCorpus } from '../../test/helpers/seed-catalog.js';
import type { DatabaseHandle } from '../db/connect.js';
import type { Executor } from '../db/database.js';
import { COLUMNS } from '../modules/importer/parser/columns.js';
import { CANONICAL_HEADER, row, workbookBuffer } from '../modules/importer/parser/test-support.js';
import { corpusAsStored, dumpDatabase, GUANGAN_CITY, manifest, storedCatalogue, WORKBOOKS } from '../modules/importer/import.test-helpers.js';
import { TEMPLATE_SHEET } from '../modules/importer/template/template-content.js';

const CITY = fileURLToPath(new URL(GUANGAN_CITY, WORKBOOKS));
const BAD = (file: string) => fileURLToPath(new URL(`bad/${file}`, WORKBOOKS));
const cityManifest = manifest.workbooks.find((w) => w.file === GUANGAN_CITY)!;

/**
 * A workbook of 广安市 whose texts a spreadsheet would take for formulas, a text that really
 * begins with an apostrophe, a hidden permit and a permit without code or risks.
 */
async function trickyWorkbook(): Promise<Buffer> {
  return workbookBuffer([
    CANONICAL_HEADER,
    row({
      区域: '广安市',
      主题: '=主题公式、开办餐饮店',
      许可事项: '@公式测试许可',
      事项编码: 'FX-001',
      实施层级: '市级',
      审批部门: '-测试部门、市行政审批局',
      内部联系人: '=HYPERLINK("http://x")',
      对外咨询电话: '+86 0826',
      风险类型: '=类型',
      风险点: '=1+1\n@SUM(A1)',
      法律依据: '-罚款依据',
      法律后果: '+后果',
      防范建议: "''=引号开头",
      风险等级: '高',
      检索可见: '否',
    }),
    row({ 许可事项: '@公式测试许可', 事项编码: 'FX-001', 风险点: '@SUM(A1)', 风险等级: '低' }),
    row({ 区域: '广安市', 许可事项: '无编码许可', 检索可见: '是' }),
  ]);
}

/** What the tricky workbook stores (the catalogue's shape, see storedCatalogue). */
const TRICKY = {
  '广安市:FX-001': {
    name: '@公式测试许可',
    implementation_level: '市级',
    internal_contact: '=HYPERLINK("http://x")',
    contact_info: '+86 0826',
    visible: false,
    approval_departments: ['-测试部门', '市行政审批局'],
    themes: ['=主题公式', '举办大型活动', '开办餐饮店'],
    risks: [
      { risk_type: '=类型', level: '高', title: '=1+1', description: '@SUM(A1)', legal_basis: '-罚款依据', consequence: '+后果', prevention: "'=引号开头" },
      { risk_type: null, level: '低', title: '@SUM(A1)', description: null, legal_basis: null, consequence: null, prevention: null },
    ],
  },
  '广安市:无编码许可': {
    name: '无编码许可',
    implementation_level: null,
    internal_contact: null,
    contact_info: null,
    visible: true,
    approval_departments: [],
    themes: ['举办大型活动'],
    risks: [],
  },
};

async function themesOffered(db: Executor) {
  const rows = await db
    .selectFrom('region_themes as rt')
    .innerJoin('regions as r', 'r.id', 'rt.region_id')
    .innerJoin('themes as t', 't.id', 'rt.theme_id')
    .select(['r.name as region', 't.name as theme'])
    .execute();
  return rows.map((r) => `${r.region}/${r.theme}`).sort();
}

const cliLogs = (db: Executor, type: string) =>
  db.selectFrom('operation_logs').selectAll().where('operator_username', '=', 'cli').where('operation_type', '=', type).orderBy('id').execute();

describe.each(testDialects())('lawrisk import, export and checkpoint on %s', (dialect) => {
  let a: TestDatabase;
  let b: TestDatabase;
  let dbA: DatabaseHandle;
  let dbB: DatabaseHandle;
  let envA: Record<string, string>;
  let envB: Record<string, string>;
  let tricky = '';
  let exported = '';

  beforeAll(async () => {
    [a, b] = await Promise.all([createTestDatabase(dialect), createTestDatabase(dialect)]);
    envA = cliEnv(a);
    envB = cliEnv(b);
    for (const env of [envA, envB]) expect((await runInProcess(['migrate'], { env })).code).toBe(0);
    dbA = a.open();
    dbB = b.open();
    tricky = join(a.dataDir, '广安市补充.xlsx');
    writeFileSync(tricky, await trickyWorkbook());
    exported = join(a.dataDir, '广安市导出.xlsx');
  });
  afterAll(async () => {
    await dbA?.close();
    await dbB?.close();
    await a?.drop();
    await b?.drop();
  });

  it(
    'previews workbooks (findings, per-sheet counts, progress) and writes nothing without --commit',
    async () => {
      const before = await dumpDatabase(dbA.db);
      const run = await runBin(['import', CITY, tricky, '--theme-binding', '风险清单=举办大型活动'], { env: envA });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).toBe(`[1/2] reading and checking ${GUANGAN_CITY}\n[2/2] reading and checking 广安市补充.xlsx\n`);
      expect(run.stdout).toContain(`== ${GUANGAN_CITY}: 1 sheet, 0 errors, 13 warnings\n`);
      const [cityFindings] = findingTables(run.stdout);
      expect(cityFindings).toContainEqual(['市级许可事项', '2', 'A 区域', 'warning', '将新建区域：广安市']);
      const [cityCounts, trickyCounts] = countTables(run.stdout);
      const sheet = cityManifest.sheets[0];
      expect(cityCounts).toEqual([
        [sheet.name, String(sheet.permits), String(sheet.risks), String(sheet.permits), '0', '0', String(sheet.risks), '0', '46'],
        ['total', '159', '583', '159', '0', '0', '583', '0', '46'],
      ]);
      // The theme binding applies to the workbook that has the sheet: both permits are linked to 举办大型活动.
      expect(trickyCounts).toEqual([
        ['风险清单', '2', '2', '2', '0', '0', '2', '0', '4'],
        ['total', '2', '2', '2', '0', '0', '2', '0', '4'],
      ]);
      expect(run.stdout.endsWith('preview only: nothing was written (add --commit to import)\n')).toBe(true);
      expect(await dumpDatabase(dbA.db)).toEqual(before);
      expect(await cliLogs(dbA.db, 'import')).toEqual([]);
    },
    CHILD_PROCESSES,
  );

  it(
    'refuses workbooks with errors or unknown sheets with status 1, importing none of them',
    async () => {
      const before = await dumpDatabase(dbA.db);
      const run = await runInProcess(['import', BAD('blank-risk-point.xlsx'), CITY, '--commit'], { env: envA });
      expect(run.code).toBe(1);
      const expected = manifest.workbooks.find((w) => w.file === 'bad/blank-risk-point.xlsx')!.expected_findings!;
      const [badFindings] = findingTables(run.stdout);
      for (const f of expected) {
        expect(badFindings).toContainEqual([f.sheet, String(f.row), `K ${f.column}`, f.severity, '风险行的“风险点”为空']);
      }
      expect(run.stdout).toContain('refused: 所选工作表存在错误，未导入任何数据：工作表“风险清单” 第 3 行 K 列（风险点）');
      expect(run.stderr).toBe(
        '[1/4] reading and checking blank-risk-point.xlsx\n[2/4] reading and checking 广安市市级许可事项风险清单.xlsx\n' +
          'lawrisk import: 1 of 2 workbooks would be refused (see above): nothing was imported\n',
      );

      const notAWorkbook = await runInProcess(['import', BAD('not-a-workbook.xlsx')], { env: envA });
      expect(notAWorkbook.code).toBe(1);
      expect(notAWorkbook.stdout).toMatch(/^== not-a-workbook\.xlsx: refused: \S+/);
      const unknownSheet = await runInProcess(['import', CITY, '--sheet', '不存在'], { env: envA });
      expect(unknownSheet).toMatchObject({ code: 1, stdout: '' });
      expect(unknownSheet.stderr.endsWith('lawrisk import: no workbook has a sheet named "不存在"\n')).toBe(true);
      const unknownDepartment = await runInProcess(['import', CITY, '--department', '999'], { env: envA });
      expect(unknownDepartment).toMatchObject({ code: 1, stderr: 'lawrisk import: 部门不存在：999\n' });

      expect(await dumpDatabase(dbA.db)).toEqual(before);
      // The refused --commit is logged as the import pages log a refused commit.
      const [refused] = await cliLogs(dbA.db, 'import');
      expect(refused).toMatchObject({ outcome: 'failure', target_type: 'file', target_name: 'blank-risk-point.xlsx' });
      expect(refused.error_message).toMatch(/^所选工作表存在错误，未导入任何数据/);
    },
    CHILD_PROCESSES,
  );

  it(
    'commits with --commit: the data and counts of the corpus, logged like the import pages',
    async () => {
      const run = await runBin(['import', CITY, tricky, '--commit', '--theme-binding', '风险清单=举办大型活动', '--edited-by', '值班员'], { env: envA });
      expect(run.code, run.stderr).toBe(0);
      expect(countTables(run.stdout)[0][0]).toEqual(['市级许可事项', '159', '583', '159', '0', '0', '583', '0', '46']);
      expect(run.stdout).toContain(
        `committed ${GUANGAN_CITY}: 159 permits (159 new, 0 changed, 0 unchanged), 583 risks (583 added, 0 removed); archived as file 1\n`,
      );
      expect(run.stdout).toContain('committed 广安市补充.xlsx: 2 permits (2 new, 0 changed, 0 unchanged), 2 risks (2 added, 0 removed); archived as file 2\n');
      expect(run.stderr).toContain('[3/4] committing 广安市市级许可事项风险清单.xlsx\n[4/4] committing 广安市补充.xlsx\n');

      const stored = await storedCatalogue(dbA.db);
      const city = loadCorpus().permits.filter((p) => p.region === '广安市');
      expect(stored.size).toBe(city.length + 2);
      for (const p of city) {
        expect(stored.get(`广安市:${p.code}`), p.key).toEqual(corpusAsStored(p));
      }
      for (const [key, permit] of Object.entries(TRICKY)) expect(stored.get(key), key).toEqual(permit);

      const logs = await cliLogs(dbA.db, 'import');
      expect(logs.slice(1).map((l) => [l.outcome, l.target_id, l.target_name, l.summary])).toEqual([
        ['success', '1', GUANGAN_CITY, `导入 ${GUANGAN_CITY}：159 个许可事项（新增 159、更新 0、未变 0），583 条风险（新增 583、移除 0）`],
        ['success', '2', '广安市补充.xlsx', '导入 广安市补充.xlsx：2 个许可事项（新增 2、更新 0、未变 0），2 条风险（新增 2、移除 0）'],
      ]);
      const files = await dbA.db.selectFrom('permit_files').select(['filename', 'uploaded_by']).orderBy('id').execute();
      expect(files.map((f) => f.filename)).toEqual([GUANGAN_CITY, '广安市补充.xlsx']);
      expect(files[0].uploaded_by).toMatch(/^命令行（.+）$/);
      const sessions = await dbA.db.selectFrom('import_sessions').select('committed_at').execute();
      expect(sessions.map((s) => s.committed_at !== null)).toEqual([true, true]);
    },
    CHILD_PROCESSES,
  );

  it(
    'exports a region to a workbook that imports into a new database as the same data, formula-like texts included',
    async () => {
      const run = await runBin(['export', '广安市', '--output', exported], { env: envA });
      expect(run).toMatchObject({ code: 0, stderr: '', stdout: `exported 广安市: 161 permits, 585 risks → ${exported}\n` });

      // Every cell is a string cell (no formula); text that could be one carries the apostrophe.
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.readFile(exported);
      expect(wb.worksheets.map((w) => w.name)).toEqual([TEMPLATE_SHEET]);
      const ws = wb.worksheets[0];
      expect(ws.getRow(1).values).toEqual([undefined, ...COLUMNS.map((c) => c.canonical)]);
      let cells = 0;
      ws.eachRow((r) =>
        r.eachCell((cell) => {
          cells++;
          expect(cell.type, cell.address).toBe(ExcelJS.ValueType.String);
        }),
      );
      expect(cells).toBeGreaterThan(585 * 9);
      const trickyRow = ws.getRows(2, ws.rowCount - 1)!.find((r) => r.getCell(3).value === "'@公式测试许可")!;
      expect(COLUMNS.map((_c, i) => trickyRow.getCell(i + 1).value)).toEqual([
        '广安市',
        "'=主题公式、举办大型活动、开办餐饮店",
        "'@公式测试许可",
        'FX-001',
        '市级',
        "'-测试部门、市行政审批局",
        '\'=HYPERLINK("http://x")',
        "'+86 0826",
        "'=类型",
        "'=1+1\n@SUM(A1)",
        "'-罚款依据",
        "'+后果",
        "''=引号开头",
        '高',
        '否',
      ]);

      const again = await runInProcess(['export', '广安市', '-o', exported], { env: envA });
      expect(again).toMatchObject({ code: 1, stderr: `lawrisk export: ${exported} exists (add --force to replace it)\n` });
      const unknown = await runInProcess(['export', '火星'], { env: envA });
      expect(unknown).toMatchObject({ code: 1, stderr: 'lawrisk export: unknown region "火星" (give its id, code or name)\n' });

      const imported = await runBin(['import', exported, '--commit'], { env: envB });
      expect(imported.code, imported.stderr).toBe(0);
      expect(imported.stdout).toContain('committed 广安市导出.xlsx: 161 permits (161 new, 0 changed, 0 unchanged), 585 risks (585 added, 0 removed)');
      expect(await storedCatalogue(dbB.db)).toEqual(await storedCatalogue(dbA.db));
      const themeNames = (db: Executor) => db.selectFrom('themes').select('name').orderBy('name').execute();
      expect(await themeNames(dbB.db)).toEqual(await themeNames(dbA.db));
      expect(await themesOffered(dbB.db)).toEqual(await themesOffered(dbA.db));
      const stored = await storedCatalogue(dbB.db);
      for (const [key, permit] of Object.entries(TRICKY)) expect(stored.get(key), key).toEqual(permit);
    },
    CHILD_PROCESSES,
  );

  it(
    'creates, lists and restores checkpoints, announcing the restore to every running instance',
    async () => {
      const before = await storedCatalogue(dbA.db);
      const created = await runInProcess(['checkpoint', 'create', '--description', '导入之后'], { env: envA });
      expect(created.code, created.stderr).toBe(0);
      expect(created.stdout).toMatch(/^created checkpoint 1: \d+ rows of 16 tables, [\d.]+ kB\n$/);

      // A mistake to undo: a permit deleted behind the service's back.
      await dbA.db.deleteFrom('permits').where('code', '=', 'FX-001').execute();
      const listed = await runBin(['checkpoint', 'list'], { env: envA });
      expect(listed.code).toBe(0);
      expect(listed.stdout.split('\n')[0].split(/ {2,}/)).toEqual(['id', 'created at', 'kind', 'by', 'rows', 'size', 'description']);
      expect(listed.stdout.split('\n')[2].trim().split(/ {2,}/)).toMatchObject([
        '1',
        expect.any(String),
        'manual',
        'cli',
        expect.any(String),
        expect.any(String),
        '导入之后',
      ]);

      const restored = await runBin(['checkpoint', 'restore', '1', '--yes', '--batch-size', '500'], { env: envA });
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stdout).toMatch(/^restored checkpoint 1: \d+ rows in 16 tables; the data before it is in checkpoint 2\n$/);
      expect(await storedCatalogue(dbA.db)).toEqual(before);
      const feed = await dbA.db.selectFrom('data_changes').select(['origin', 'kind']).orderBy('id', 'desc').executeTakeFirstOrThrow();
      expect(feed.kind).toBe('all');
      expect(feed.origin).toMatch(/^cli:/);

      const missing = await runInProcess(['checkpoint', 'restore', '99', '--yes'], { env: envA });
      expect(missing).toMatchObject({ code: 1, stderr: 'lawrisk checkpoint: Checkpoint not found\n' });
      const list = await runInProcess(['checkpoint', 'list'], { env: envA });
      expect(
        list.stdout
          .split('\n')
          .slice(2, 4)
          .map((l) => l.trim().split(/ {2,}/).slice(0, 3)),
      ).toEqual([
        ['2', expect.any(String), 'auto_backup'],
        ['1', expect.any(String), 'manual'],
      ]);
      const logs = [...(await cliLogs(dbA.db, 'checkpoint')), ...(await cliLogs(dbA.db, 'restore'))];
      expect(logs.map((l) => [l.target_id, l.outcome, l.summary])).toEqual([
        ['1', 'success', expect.stringMatching(/^创建检查点 1（\d+ 行）$/)],
        ['1', 'success', expect.stringMatching(/^从检查点 1 恢复 \d+ 行（每批 500 行），自动备份为检查点 2$/)],
        ['99', 'failure', '恢复检查点'],
      ]);
    },
    CHILD_PROCESSES,
  );
});
