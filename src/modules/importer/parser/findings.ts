import type { ColumnSpec } from './columns.js';
import type { Finding } from './types.js';

/** Every finding code the parser emits, with its severity and what it means. */
export const FINDING_CODES = {
  NO_SHEETS: 'error, workbook level: the workbook holds no worksheet',
  SHEET_EMPTY: 'error: the sheet has no cell at all, so no header row',
  HEADER_NOT_FOUND: 'warning: the sheet has content but no row with three known column names (e.g. an instruction sheet); it is not imported',
  NO_DATA_ROWS: 'error: the header row is followed by no data row',
  MISSING_REQUIRED_COLUMN: 'error: 许可事项 or 风险点 (and all their aliases) is absent from the header row',
  UNKNOWN_COLUMN: 'warning: a header cell names no known column; the column is ignored',
  DUPLICATE_COLUMN: 'warning: a second header cell names a column already mapped; the later one is ignored',
  CELL_TOO_LONG: 'error: a cell is longer than maxCellChars',
  FORMULA_WITHOUT_RESULT: 'warning: a cell holds a formula without a cached result; formulas are never calculated, so it reads as blank',
  MISSING_PERMIT_NAME: 'error: a row starts a permit (or precedes every permit) without a 许可事项 name; its rows are dropped',
  BLANK_RISK_POINT: 'error: a risk row (some risk column filled) has a blank 风险点; the risk is dropped',
  INVALID_VISIBLE: 'error: 检索可见 is neither 是 nor 否',
  INVALID_LEVEL: 'warning: 风险等级 is not 高/中/低; the level is left empty',
  PERMIT_FIELD_CONFLICT: 'warning: rows of one permit give different values for a permit column; the first value is kept',
} as const;

export type FindingCode = keyof typeof FINDING_CODES;

/** Collects the findings of one sheet (or, with sheet null, of the workbook). */
export class FindingList {
  readonly items: Finding[] = [];

  constructor(private readonly sheet: string | null) {}

  error(code: FindingCode, row: number | null, column: string | null, header: string | null, message: string): void {
    this.items.push({ severity: 'error', code, sheet: this.sheet, row, column, header, message });
  }

  warning(code: FindingCode, row: number | null, column: string | null, header: string | null, message: string): void {
    this.items.push({ severity: 'warning', code, sheet: this.sheet, row, column, header, message });
  }
}

export const MESSAGES = {
  noSheets: () => '工作簿中没有工作表',
  sheetEmpty: () => '工作表为空，找不到表头行（至少三个已知列名）',
  headerNotFound: () => '找不到表头行（没有一行含有至少三个已知列名，如 许可事项、风险点、法律依据），该工作表不导入',
  noDataRows: () => '工作表只有表头，没有数据行',
  missingColumn: (spec: ColumnSpec) => `缺少必填列：${spec.canonical}（别名 ${spec.aliases.join('、')} 均不存在）`,
  unknownColumn: (header: string) => `未识别的列“${header}”，已忽略`,
  duplicateColumn: (header: string, canonical: string, firstLetter: string) => `列“${header}”与 ${firstLetter} 列同为“${canonical}”，已忽略`,
  cellTooLong: (length: number, max: number) => `单元格长度 ${length} 超过 ${max} 字符`,
  formulaWithoutResult: (formula: string) =>
    `单元格是没有计算结果的公式“=${formula.length > 40 ? `${formula.slice(0, 40)}…` : formula}”，按空白读取（系统不计算公式；请在 Excel 中打开并保存后重新上传）`,
  missingPermitName: () => '“许可事项”为空，无法确定本行所属的许可事项',
  blankRiskPoint: () => '风险行的“风险点”为空',
  invalidVisible: (value: string) => `取值“${value}”不是 是/否`,
  invalidLevel: (value: string) => `风险等级“${value}”不是 高/中/低，已留空`,
  permitFieldConflict: (canonical: string, value: string, firstRow: number, kept: string) =>
    `本行“${canonical}”为“${value}”，与本事项第 ${firstRow} 行的“${kept}”不一致，以第 ${firstRow} 行为准`,
} as const;
