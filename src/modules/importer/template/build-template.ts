import ExcelJS from 'exceljs';
import { COLUMNS, columnLetter } from '../parser/columns.js';
import type { FieldKey } from '../parser/types.js';
import { neutralizeFormula } from './neutralize-formula.js';
import { COLUMN_WIDTHS, EXAMPLE_ROWS, INSTRUCTIONS_SHEET, RULES, TEMPLATE_SHEET, VALIDATED_LAST_ROW } from './template-content.js';

export { neutralizeFormula } from './neutralize-formula.js';

const HEADER_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FF1F4E79' } };
const REQUIRED_FILL: ExcelJS.Fill = { type: 'pattern', pattern: 'solid', fgColor: { argb: 'FFC00000' } };
const THIN: ExcelJS.Border = { style: 'thin', color: { argb: 'FFBFBFBF' } };
const BORDER: Partial<ExcelJS.Borders> = { top: THIN, left: THIN, bottom: THIN, right: THIN };

/** exceljs has range data validations but leaves them out of its type definitions. */
interface RangeValidations {
  add(range: string, validation: ExcelJS.DataValidation): void;
}

/** One row of the risk sheet: the text of each column, by field (blank when absent). */
export type RiskSheetRow = Partial<Record<FieldKey, string>>;

function listValidation(field: FieldKey, values: string[], prompt: string, lastRow: number): [string, ExcelJS.DataValidation] {
  const letter = columnLetter(COLUMNS.findIndex((c) => c.field === field) + 1);
  return [
    `${letter}2:${letter}${lastRow}`,
    {
      type: 'list',
      allowBlank: true,
      formulae: [`"${values.join(',')}"`],
      showErrorMessage: true,
      errorStyle: 'stop',
      errorTitle: '取值不正确',
      error: prompt,
    },
  ];
}

/**
 * The risk sheet of the import template layout: the columns of docs/import.md under a styled,
 * frozen header, one row per entry, value lists on 风险等级 and 检索可见. Shared by the template
 * (its example rows) and the region export (the stored data); every text is neutralised.
 */
export function addRiskSheet(wb: ExcelJS.Workbook, rows: readonly RiskSheetRow[]): ExcelJS.Worksheet {
  const ws = wb.addWorksheet(TEMPLATE_SHEET, { views: [{ state: 'frozen', xSplit: 0, ySplit: 1, topLeftCell: 'A2', activeCell: 'A2' }] });
  ws.columns = COLUMNS.map((c) => ({ width: COLUMN_WIDTHS[c.field] }));

  const header = ws.addRow(COLUMNS.map((c) => c.canonical));
  header.height = 24;
  header.eachCell((cell, col) => {
    cell.font = { bold: true, color: { argb: 'FFFFFFFF' } };
    cell.fill = COLUMNS[col - 1].required ? REQUIRED_FILL : HEADER_FILL;
    cell.alignment = { vertical: 'middle', horizontal: 'center', wrapText: true };
    cell.border = BORDER;
  });

  for (const entry of rows) {
    const row = ws.addRow(COLUMNS.map((c) => neutralizeFormula(entry[c.field] ?? '')));
    row.eachCell({ includeEmpty: true }, (cell) => {
      cell.alignment = { vertical: 'top', wrapText: true };
      cell.border = BORDER;
    });
  }

  const lastRow = Math.max(VALIDATED_LAST_ROW, rows.length + 1);
  const validations = (ws as unknown as { dataValidations: RangeValidations }).dataValidations;
  validations.add(...listValidation('level', ['高', '中', '低'], '风险等级请填写 高、中 或 低', lastRow));
  validations.add(...listValidation('visible', ['是', '否'], '检索可见请填写 是 或 否（留空视为 是）', lastRow));
  return ws;
}

function addInstructionSheet(wb: ExcelJS.Workbook): void {
  const ws = wb.addWorksheet(INSTRUCTIONS_SHEET);
  ws.columns = [{ width: 16 }, { width: 34 }, { width: 22 }, { width: 50 }, { width: 40 }];
  const title = ws.addRow([neutralizeFormula('许可事项法律风险清单导入模板 填写说明')]);
  title.font = { bold: true, size: 14 };
  ws.addRow([]);
  ws.addRow(['一、列说明']).font = { bold: true };
  const head = ws.addRow(['列名', '可用别名', '是否必填', '含义', '示例']);
  head.eachCell((cell) => {
    cell.font = { bold: true, color: { argb: 'FFFFFFFF' } };
    cell.fill = HEADER_FILL;
    cell.border = BORDER;
  });
  for (const c of COLUMNS) {
    const row = ws.addRow([c.canonical, c.aliases.join('、'), c.requirement, c.meaning, c.example].map(neutralizeFormula));
    row.eachCell((cell) => {
      cell.alignment = { vertical: 'top', wrapText: true };
      cell.border = BORDER;
    });
  }
  ws.addRow([]);
  ws.addRow(['二、填写规则']).font = { bold: true };
  RULES.forEach((rule, i) => {
    const row = ws.addRow([neutralizeFormula(`${i + 1}. ${rule}`)]);
    ws.mergeCells(row.number, 1, row.number, 5);
    row.getCell(1).alignment = { vertical: 'top', wrapText: true };
    row.height = Math.max(20, Math.ceil(rule.length / 70) * 18);
  });
}

/** The import template (.xlsx): the risk sheet with examples and value lists, and the instruction sheet. */
export async function buildTemplateWorkbook(): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.creator = '许可事项法律风险查询与管理服务';
  addRiskSheet(wb, EXAMPLE_ROWS);
  addInstructionSheet(wb);
  return Buffer.from(await wb.xlsx.writeBuffer());
}
