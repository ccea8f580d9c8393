import ExcelJS from 'exceljs';
import { describe, it, expect } from 'vitest';
import { COLUMNS } from '../parser/columns.js';
import { parseWorkbook } from '../parser/parse-workbook.js';
import { findingsOf, workbookBuffer } from '../parser/test-support.js';
import { buildTemplateWorkbook, neutralizeFormula } from './build-template.js';

async function loadTemplate(): Promise<ExcelJS.Workbook> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load((await buildTemplateWorkbook()) as unknown as ExcelJS.Buffer);
  return wb;
}

describe('neutralizeFormula', () => {
  it('prefixes text that a spreadsheet would read as a formula', () => {
    expect(['=1+2', '+86', '-罚款', '@SUM(A1)', '\t=x'].map(neutralizeFormula)).toEqual(["'=1+2", "'+86", "'-罚款", "'@SUM(A1)", "'\t=x"]);
    expect(['普通文本', '', "'已有", '1=1'].map(neutralizeFormula)).toEqual(['普通文本', '', "'已有", '1=1']);
    // An apostrophe that belongs to the text keeps its place behind the protective one.
    expect(["'=x", "''+1"].map(neutralizeFormula)).toEqual(["''=x", "'''+1"]);
  });

  it('round-trips through the parser unchanged', async () => {
    const values = ['=HYPERLINK("http://x")', '+1', "'-罚款", '@cmd'];
    const buf = await workbookBuffer([
      ['许可事项', '风险点', '法律依据', '法律后果', '防范建议'],
      ['事项', ...values.map(neutralizeFormula)],
    ]);
    const risk = (await parseWorkbook(buf)).sheets[0].permits[0].risks[0];
    expect([risk.title, risk.legalBasis, risk.consequence, risk.prevention]).toEqual(values);
  });
});

describe('import template', () => {
  it('parses with no error into the two example permits', async () => {
    const parsed = await parseWorkbook(await buildTemplateWorkbook());
    expect(findingsOf(parsed).filter((f) => f.severity === 'error')).toEqual([]);
    expect(findingsOf(parsed).map((f) => [f.sheet, f.code])).toEqual([['填写说明', 'HEADER_NOT_FOUND']]);
    const [sheet] = parsed.sheets;
    expect([sheet.name, sheet.headerRow, sheet.firstDataRow, sheet.dataRows]).toEqual(['许可事项风险清单', 1, 2, 4]);
    expect(sheet.columns.map((c) => c.canonical)).toEqual(COLUMNS.map((c) => c.canonical));
    expect(sheet.permits.map((p) => ({ ...p, risks: p.risks.map((r) => [r.row, r.riskType, r.title, r.level]) }))).toEqual([
      {
        rows: [2, 3],
        region: '广安区',
        code: '511A0005200004',
        name: '食品(含保健食品)经营许可核发',
        implementationLevel: '县级',
        approvalDepartments: ['区行政审批局', '区市场监管局'],
        internalContact: '市场准入审批科 0826-2381681',
        contactInfo: '0826-2306250',
        themes: ['开办餐饮店', '开办超市便利店'],
        visible: true,
        risks: [
          [2, '无证经营', '未取得食品经营许可即开展餐饮服务或食品销售', '高'],
          [3, '承诺不实', '告知承诺办理后现场条件与承诺不符', '中'],
        ],
      },
      {
        rows: [4, 5],
        region: '广安区',
        code: '511A0146000000',
        name: '旅馆业特种行业许可证核发',
        implementationLevel: '县级',
        approvalDepartments: ['区公安分局'],
        internalContact: '治安管理大队 0826-2340469',
        contactInfo: '0826-2300952',
        themes: ['开办宾馆旅馆'],
        visible: true,
        risks: [
          [4, '无证经营', '未取得特种行业许可证经营旅馆（含民宿、日租房）', '高'],
          [5, '经营管理', '不按规定查验登记住宿旅客身份', '高'],
        ],
      },
    ]);
    expect(sheet.permits.flatMap((p) => p.risks).every((r) => r.description && r.legalBasis && r.consequence && r.prevention)).toBe(true);
  });

  it('has a styled, frozen header with widths and leaves the carried-down permit cells blank', async () => {
    const ws = (await loadTemplate()).getWorksheet('许可事项风险清单')!;
    expect(ws.getRow(1).values).toEqual([undefined, ...COLUMNS.map((c) => c.canonical)]);
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(ws.getCell('A1').font?.bold).toBe(true);
    expect(COLUMNS.every((_c, i) => (ws.getColumn(i + 1).width ?? 0) >= 10)).toBe(true);
    expect(['A3', 'C3', 'D3', 'F3', 'O3'].map((a) => ws.getCell(a).value ?? '')).toEqual(['', '', '', '', '']);
  });

  it('offers value lists on 风险等级 and 检索可见 for rows 2 to 5000', async () => {
    const ws = (await loadTemplate()).getWorksheet('许可事项风险清单')!;
    const level = COLUMNS.findIndex((c) => c.field === 'level') + 1;
    const visible = COLUMNS.findIndex((c) => c.field === 'visible') + 1;
    for (const r of [2, 3, 5000]) {
      expect(ws.getCell(r, level).dataValidation).toMatchObject({ type: 'list', formulae: ['"高,中,低"'] });
      expect(ws.getCell(r, visible).dataValidation).toMatchObject({ type: 'list', formulae: ['"是,否"'] });
    }
    expect(ws.getCell(1, level).dataValidation).toBeUndefined();
    expect(ws.getCell(5001, visible).dataValidation).toBeUndefined();
  });

  it('explains every column with its aliases and the filling rules', async () => {
    const ws = (await loadTemplate()).getWorksheet('填写说明')!;
    const texts: string[] = [];
    ws.eachRow((row) => row.eachCell((cell) => texts.push(String(cell.value))));
    const all = texts.join('\n');
    for (const c of COLUMNS) {
      const line = ws.getRows(1, ws.rowCount)!.find((r) => r.getCell(1).value === c.canonical);
      expect(line?.getCell(2).value ?? '', c.canonical).toBe(c.aliases.join('、'));
      expect(String(line?.getCell(3).value)).toBe(c.requirement);
    }
    for (const phrase of ['表头行', '沿用上一行', '“、”', '单元格内换行', '留空视为“是”']) expect(all).toContain(phrase);
  });
});
