import type { Row, Worksheet } from 'exceljs';
import { cellText } from './cell-text.js';
import { COLUMNS, columnLetter, matchHeader } from './columns.js';
import { FindingList, MESSAGES } from './findings.js';
import type { ColumnMapping, FieldKey } from './types.js';

/** The header row needs this many distinct known column names; fewer is a title or note row. */
export const MIN_HEADER_COLUMNS = 3;

export interface HeaderScan {
  /** 'empty': no cell holds any text; 'none': content but no header row. */
  status: 'found' | 'empty' | 'none';
  headerRow: number | null;
  columns: ColumnMapping[];
  /** Field → 1-based column index, for the mapped columns only. */
  fieldColumns: Map<FieldKey, number>;
}

/** Header cell texts of one row; a horizontally merged header repeats its master, which is skipped. */
function headerCells(row: Row, rowNumber: number): Array<{ index: number; text: string }> {
  const cells: Array<{ index: number; text: string }> = [];
  row.eachCell((cell, index) => {
    if (cell.isMerged && cell.master !== cell && Number(cell.master.row) === rowNumber) return;
    const text = cellText(cell.value);
    if (text !== '') cells.push({ index, text });
  });
  return cells;
}

function knownFieldCount(cells: Array<{ text: string }>): number {
  const fields = new Set<FieldKey>();
  for (const c of cells) {
    const spec = matchHeader(c.text);
    if (spec) fields.add(spec.field);
  }
  return fields.size;
}

function mapColumns(cells: Array<{ index: number; text: string }>, headerRow: number, findings: FindingList): HeaderScan {
  const columns: ColumnMapping[] = [];
  const fieldColumns = new Map<FieldKey, number>();
  for (const { index, text } of cells) {
    const letter = columnLetter(index);
    const spec = matchHeader(text);
    if (spec && !fieldColumns.has(spec.field)) {
      fieldColumns.set(spec.field, index);
      columns.push({ letter, index, header: text, field: spec.field, canonical: spec.canonical });
      continue;
    }
    columns.push({ letter, index, header: text, field: null, canonical: null });
    if (spec) {
      const first = columnLetter(fieldColumns.get(spec.field) as number);
      findings.warning('DUPLICATE_COLUMN', headerRow, letter, text, MESSAGES.duplicateColumn(text, spec.canonical, first));
    } else {
      findings.warning('UNKNOWN_COLUMN', headerRow, letter, text, MESSAGES.unknownColumn(text));
    }
  }
  for (const spec of COLUMNS) {
    if (spec.required && !fieldColumns.has(spec.field)) {
      findings.error('MISSING_REQUIRED_COLUMN', headerRow, null, spec.canonical, MESSAGES.missingColumn(spec));
    }
  }
  return { status: 'found', headerRow, columns, fieldColumns };
}

/** Finds the first row naming at least three known columns and maps its cells to fields. */
export function scanHeader(ws: Worksheet, findings: FindingList): HeaderScan {
  const last = ws.rowCount;
  let sawContent = false;
  for (let r = 1; r <= last; r++) {
    const row = ws.findRow(r);
    if (!row) continue;
    const cells = headerCells(row, r);
    if (cells.length === 0) continue;
    sawContent = true;
    if (cells.length >= MIN_HEADER_COLUMNS && knownFieldCount(cells) >= MIN_HEADER_COLUMNS) {
      return mapColumns(cells, r, findings);
    }
  }
  if (sawContent) findings.warning('HEADER_NOT_FOUND', null, null, null, MESSAGES.headerNotFound());
  else findings.error('SHEET_EMPTY', null, null, null, MESSAGES.sheetEmpty());
  return { status: sawContent ? 'none' : 'empty', headerRow: null, columns: [], fieldColumns: new Map() };
}
