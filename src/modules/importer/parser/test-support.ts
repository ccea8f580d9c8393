import ExcelJS from 'exceljs';
import { COLUMNS } from './columns.js';
import { handWrittenXlsx, rowXml, type SheetCell } from './test-zip.js';
import type { Finding, ParsedWorkbook } from './types.js';

/** Builders shared by the parser and template tests. */

export const CANONICAL_HEADER: string[] = COLUMNS.map((c) => c.canonical);

export type RowInput = Array<ExcelJS.CellValue>;

/** A one-sheet workbook from rows of cell values; `edit` can merge cells or set odd values. */
export async function workbookBuffer(rows: RowInput[], edit?: (ws: ExcelJS.Worksheet, wb: ExcelJS.Workbook) => void, sheetName = '风险清单'): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet(sheetName);
  for (const row of rows) ws.addRow(row);
  edit?.(ws, wb);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** A row in canonical column order, from a partial record keyed by canonical name. */
export function row(cells: Partial<Record<string, ExcelJS.CellValue>>): RowInput {
  return CANONICAL_HEADER.map((name) => cells[name] ?? null);
}

export function findingsOf(wb: ParsedWorkbook): Finding[] {
  return [...wb.findings, ...wb.sheets.flatMap((s) => s.findings)];
}

/** Findings reduced to what a test usually states: code, row, column letter. */
export function briefFindings(wb: ParsedWorkbook): Array<[string, number | null, string | null]> {
  return findingsOf(wb).map((f) => [f.code, f.row, f.column]);
}

/**
 * The canonical header and `dataRows` rows of a cell in every column, deflated as generated: a
 * workbook as large as wanted in cells (one over the cell limit, one a small parse memory cannot
 * hold) that a spreadsheet program opens as it is. By default each cell is a distinct text.
 */
export function gridWorkbook(dataRows: number, cell: (row: number, column: number) => SheetCell = (r, c) => `${CANONICAL_HEADER[c]}${r}`): Promise<Buffer> {
  function* rows() {
    yield rowXml(1, CANONICAL_HEADER);
    for (let r = 2; r <= dataRows + 1; r++)
      yield rowXml(
        r,
        CANONICAL_HEADER.map((_h, c) => cell(r, c)),
      );
  }
  return handWrittenXlsx({ sheets: [{ name: '风险清单', rows: rows() }] });
}
