import { readFileSync } from 'node:fs';
import { describe, it, expect } from 'vitest';
import { parseWorkbook, WorkbookRejected } from './parse-workbook.js';
import type { ParsedPermit, ParsedWorkbook } from './types.js';

const CORPUS = new URL('../../../../test/fixtures/corpus/', import.meta.url);
const WORKBOOKS = new URL('workbooks/', CORPUS);

interface ManifestSheet {
  name: string;
  header_row: number | null;
  first_data_row?: number;
  data_rows: number;
  permits?: number;
  risks?: number;
  theme_binding?: string | null;
  region_cell?: string;
}
interface ManifestFinding {
  sheet: string | null;
  row: number | null;
  column: string | null;
  severity: string;
  problem: string;
}
interface ManifestEntry {
  file: string;
  layout: string;
  regions: string[];
  permits?: number;
  risks?: number;
  data_rows?: number;
  multi_theme_permits?: number;
  sheets?: ManifestSheet[];
  expected_findings?: ManifestFinding[];
}
interface CorpusRisk {
  risk_type: string;
  level: string;
  title: string;
  description: string | null;
  legal_basis: string;
  consequence: string;
  prevention: string;
}
interface CorpusPermit {
  region: string;
  region_code: string;
  code: string;
  name: string;
  implementation_level: string;
  approval_departments: string[];
  internal_contact: string;
  contact_info: string;
  visible: boolean;
  themes: string[];
  risks: CorpusRisk[];
}
interface Corpus {
  regions: Array<{ code: string; name: string }>;
  permits: CorpusPermit[];
}

const manifest = JSON.parse(readFileSync(new URL('manifest.json', WORKBOOKS), 'utf8')) as { workbooks: ManifestEntry[] };
const corpus = JSON.parse(readFileSync(new URL('corpus.json', CORPUS), 'utf8')) as Corpus;
const entry = (file: string) => manifest.workbooks.find((w) => w.file === file)!;
const read = (file: string) => readFileSync(new URL(file, WORKBOOKS));

const parsedCache = new Map<string, Promise<ParsedWorkbook>>();
const parsed = (file: string) => {
  if (!parsedCache.has(file)) parsedCache.set(file, parseWorkbook(read(file)));
  return parsedCache.get(file)!;
};

const allFindings = (wb: ParsedWorkbook) => [...wb.findings, ...wb.sheets.flatMap((s) => s.findings)];
const riskCount = (permits: ParsedPermit[]) => permits.reduce((n, p) => n + p.risks.length, 0);

const DISTRICT = '广安区行政许可事项法律风险清单.xlsx';
const QIANFENG = '前锋区许可事项风险台账.xlsx';
const CITY = '广安市市级许可事项风险清单.xlsx';

describe('bad corpus workbooks', () => {
  const checked = manifest.workbooks.filter((w) => w.layout === 'bad' && !['bad/unknown-region.xlsx', 'bad/not-a-workbook.xlsx'].includes(w.file));

  it.each(checked.map((w) => [w.file, w] as const))('%s reports exactly the expected findings', async (_file, w) => {
    const wb = await parsed(w.file);
    const got = allFindings(wb).map((f) => ({ sheet: f.sheet, row: f.row, column: f.header, severity: f.severity, problem: f.message }));
    expect(got).toEqual(w.expected_findings);
    // The column letter agrees with the header mapping of the sheet.
    for (const f of allFindings(wb)) {
      if (f.column === null) continue;
      const sheet = wb.sheets.find((s) => s.name === f.sheet)!;
      expect(sheet.columns.find((c) => c.letter === f.column)?.canonical).toBe(f.header);
    }
  });

  it('unknown-region.xlsx parses without findings and reports the region text as written', async () => {
    const wb = await parsed('bad/unknown-region.xlsx');
    expect(allFindings(wb)).toEqual([]);
    const regions = wb.sheets[0].permits.map((p) => [p.rows[0], p.region]);
    expect(regions).toEqual([
      [2, '广安区'],
      [7, '华蓥市'],
      [8, '广安新区'],
    ]);
  });

  it('not-a-workbook.xlsx is rejected', async () => {
    const err = await parseWorkbook(read('bad/not-a-workbook.xlsx')).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(WorkbookRejected);
    expect((err as WorkbookRejected).message).toBe('文件不是有效的 Excel 工作簿，无法解析');
  });

  it('each bad workbook matches its manifest sheet layout', async () => {
    for (const w of manifest.workbooks.filter((x) => x.layout === 'bad' && x.sheets?.length)) {
      const wb = await parsed(w.file);
      expect(
        wb.sheets.map((s) => ({ name: s.name, header_row: s.headerRow, data_rows: s.dataRows })),
        w.file,
      ).toEqual(w.sheets!.map((s) => ({ name: s.name, header_row: s.header_row, data_rows: s.data_rows })));
    }
  });
});

describe('good corpus workbooks: layout and counts', () => {
  it.each([DISTRICT, QIANFENG, CITY])('%s matches the manifest sheet by sheet', async (file) => {
    const w = entry(file);
    const wb = await parsed(file);
    expect(
      wb.sheets.map((s) => ({
        name: s.name,
        header_row: s.headerRow,
        first_data_row: s.firstDataRow,
        data_rows: s.dataRows,
        permits: s.permits.length,
        risks: riskCount(s.permits),
      })),
    ).toEqual(
      w.sheets!.map((s) => ({
        name: s.name,
        header_row: s.header_row,
        first_data_row: s.first_data_row,
        data_rows: s.data_rows,
        permits: s.permits,
        risks: s.risks,
      })),
    );
    expect(wb.sheets.reduce((n, s) => n + s.dataRows, 0)).toBe(w.data_rows);
  });

  it('counts permits and risks per region as the corpus does', async () => {
    const district = (await parsed(DISTRICT)).sheets.flatMap((s) => s.permits);
    expect([district.length, riskCount(district)]).toEqual([536, 1826]);

    // The same 前锋区 permit sits on several theme sheets; distinct by code.
    const qf = (await parsed(QIANFENG)).sheets.flatMap((s) => s.permits);
    const distinct = new Map(qf.map((p) => [p.code, p]));
    expect([distinct.size, riskCount([...distinct.values()])]).toEqual([295, 988]);

    const city = (await parsed(CITY)).sheets.flatMap((s) => s.permits);
    expect([city.length, riskCount(city)]).toEqual([159, 583]);
    expect(city.filter((p) => p.themes.length > 1)).toHaveLength(entry(CITY).multi_theme_permits!);
  });

  it('reports only the unknown 序号 column of every 前锋区 sheet, and nothing for the others', async () => {
    expect(allFindings(await parsed(DISTRICT))).toEqual([]);
    expect(allFindings(await parsed(CITY))).toEqual([]);
    const qf = await parsed(QIANFENG);
    expect(allFindings(qf)).toEqual(
      qf.sheets.map((s) => ({
        severity: 'warning',
        code: 'UNKNOWN_COLUMN',
        sheet: s.name,
        row: 3,
        column: 'A',
        header: '序号',
        message: '未识别的列“序号”，已忽略',
      })),
    );
    expect(qf.sheets.every((s) => s.columns[0].field === null && s.columns.length === 15)).toBe(true);
  });
});

/** The corpus permit as the parser should have read it (themes handled per workbook). */
function expectedPermit(c: CorpusPermit) {
  return {
    code: c.code,
    name: c.name,
    implementationLevel: c.implementation_level,
    approvalDepartments: c.approval_departments,
    internalContact: c.internal_contact,
    contactInfo: c.contact_info,
    visible: c.visible,
    risks: c.risks.map((r) => ({
      riskType: r.risk_type,
      title: r.title,
      description: r.description,
      legalBasis: r.legal_basis,
      consequence: r.consequence,
      prevention: r.prevention,
      level: r.level,
    })),
  };
}

function actualPermit(p: ParsedPermit) {
  const { rows: _rows, region: _region, themes: _themes, risks, ...rest } = p;
  return { ...rest, risks: risks.map(({ row: _row, ...risk }) => risk) };
}

describe('good corpus workbooks: content equals corpus.json field by field', () => {
  const regionName = new Map(
    corpus.regions.flatMap(
      (r) =>
        [
          [r.code, r.name],
          [r.name, r.name],
        ] as const,
    ),
  );
  const corpusOf = (region: string) => corpus.permits.filter((p) => p.region === region);
  const byCode = <T extends { code: string | null }>(a: T, b: T) => (a.code! < b.code! ? -1 : 1);

  it.each([
    [DISTRICT, '广安区'],
    [CITY, '广安市'],
  ])('%s: every permit and risk, themes included', async (file, region) => {
    const permits = (await parsed(file)).sheets.flatMap((s) => s.permits).sort(byCode);
    expect(permits.map((p) => regionName.get(p.region!))).toEqual(permits.map(() => region));
    expect(permits.map((p) => ({ ...actualPermit(p), themes: p.themes }))).toEqual(
      corpusOf(region)
        .sort(byCode)
        .map((c) => ({ ...expectedPermit(c), themes: c.themes })),
    );
  });

  it('前锋区: every permit and risk; themes come from the sheet bindings', async () => {
    const w = entry(QIANFENG);
    const wb = await parsed(QIANFENG);
    const themes = new Map<string, string[]>();
    const seen = new Map<string, ReturnType<typeof actualPermit>>();
    for (const sheet of wb.sheets) {
      const binding = w.sheets!.find((s) => s.name === sheet.name)!;
      for (const p of sheet.permits) {
        expect(regionName.get(p.region!), `${sheet.name} row ${p.rows[0]}`).toBe('前锋区');
        expect(p.region).toBe(binding.region_cell);
        expect(p.themes).toEqual([]); // the sheets carry no theme column
        const previous = seen.get(p.code!);
        if (previous) expect(actualPermit(p)).toEqual(previous); // same content on every sheet
        seen.set(p.code!, actualPermit(p));
        const list = themes.get(p.code!) ?? [];
        if (binding.theme_binding) list.push(binding.theme_binding);
        themes.set(p.code!, list);
      }
    }
    const expected = corpusOf('前锋区').sort(byCode);
    expect([...seen.values()].sort(byCode)).toEqual(expected.map(expectedPermit));
    for (const c of expected) expect([...themes.get(c.code)!].sort(), c.code).toEqual([...c.themes].sort());
  });

  it('gives every risk its own Excel row inside the rows of its permit', async () => {
    for (const file of [DISTRICT, QIANFENG, CITY]) {
      for (const sheet of (await parsed(file)).sheets) {
        const rows = sheet.permits.flatMap((p) => p.risks.map((r) => r.row));
        expect(new Set(rows).size).toBe(rows.length);
        for (const p of sheet.permits) for (const r of p.risks) expect(p.rows).toContain(r.row);
      }
    }
  });
});
