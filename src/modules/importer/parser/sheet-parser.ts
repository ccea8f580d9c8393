import ExcelJS from 'exceljs';
import type { Cell, Row, Worksheet } from 'exceljs';
import { cellText, formulaWithoutResult } from './cell-text.js';
import { COLUMN_BY_FIELD, columnLetter } from './columns.js';
import { FindingList, MESSAGES } from './findings.js';
import { scanHeader } from './header.js';
import { charCount, parseLevel, parseVisible } from './normalize.js';
import { PermitCollector, type RowFacts, type RowValues } from './permit-collector.js';
import type { FieldKey, ParseLimits, ParsedSheet } from './types.js';

const MERGE = ExcelJS.ValueType.Merge;

interface Slot {
  field: FieldKey;
  col: number;
  letter: string;
  /** Last merge master seen in this column and its text: a vertical merge repeats it row after row. */
  master: Cell | null;
  masterText: string;
}

function blankValues(): RowValues {
  return {
    region: '',
    themes: '',
    permitName: '',
    permitCode: '',
    implementationLevel: '',
    approvalDepartments: '',
    internalContact: '',
    contactInfo: '',
    riskType: '',
    riskPoint: '',
    legalBasis: '',
    consequence: '',
    prevention: '',
    level: '',
    visible: '',
  };
}

/** Parses one worksheet: header, data rows, permits and findings. */
export function parseSheet(ws: Worksheet, index: number, limits: ParseLimits): ParsedSheet {
  const findings = new FindingList(ws.name);
  const header = scanHeader(ws, findings);
  const sheet: ParsedSheet = {
    name: ws.name,
    index,
    headerRow: header.headerRow,
    firstDataRow: null,
    dataRows: 0,
    columns: header.columns,
    permits: [],
    findings: findings.items,
  };
  if (header.headerRow === null) return sheet;

  const slots: Slot[] = [...header.fieldColumns].map(([field, col]) => ({ field, col, letter: columnLetter(col), master: null, masterText: '' }));
  const letters = new Map(slots.map((s) => [s.field, s.letter] as const));
  const collector = header.fieldColumns.has('permitName') ? new PermitCollector(findings, letters, header.fieldColumns.has('riskPoint')) : null;

  for (let r = header.headerRow + 1, last = ws.rowCount; r <= last; r++) {
    const row = ws.findRow(r);
    if (!row) continue;
    const facts = readRow(row, r, slots, findings, limits);
    if (!facts) continue;
    sheet.dataRows++;
    if (sheet.firstDataRow === null) sheet.firstDataRow = r;
    collector?.addRow(facts);
  }
  if (sheet.dataRows === 0) findings.error('NO_DATA_ROWS', header.headerRow, null, null, MESSAGES.noDataRows());
  if (collector) sheet.permits = collector.permits;
  return sheet;
}

/** Reads and validates the mapped cells of one row; null for a row with no mapped value. */
function readRow(row: Row, r: number, slots: Slot[], findings: FindingList, limits: ParseLimits): RowFacts | null {
  const values = blankValues();
  let merged: Set<FieldKey> | null = null;
  let any = false;
  for (const slot of slots) {
    const cell = row.findCell(slot.col);
    if (!cell) continue;
    let text: string;
    let fromMerge = false;
    if (cell.type === MERGE) {
      const master = cell.master;
      // A horizontal merge would copy one column's text into its neighbour: treat it as blank.
      if (Number(master.row) === r) continue;
      if (master !== slot.master) {
        slot.master = master;
        slot.masterText = cellText(master.value);
      }
      text = slot.masterText;
      fromMerge = true;
      (merged ??= new Set()).add(slot.field);
    } else {
      text = cellText(cell.value);
      const formula = text === '' ? formulaWithoutResult(cell.value) : null;
      if (formula !== null) {
        findings.warning('FORMULA_WITHOUT_RESULT', r, slot.letter, canonicalOf(slot.field), MESSAGES.formulaWithoutResult(formula));
      }
    }
    if (text === '') continue;
    values[slot.field] = text;
    any = true;
    if (!fromMerge && text.length > limits.maxCellChars) {
      const length = charCount(text);
      if (length > limits.maxCellChars) {
        const canonical = canonicalOf(slot.field);
        findings.error('CELL_TOO_LONG', r, slot.letter, canonical, MESSAGES.cellTooLong(length, limits.maxCellChars));
      }
    }
  }
  if (!any) return null;

  let visible: boolean | undefined;
  if (values.visible !== '') {
    visible = parseVisible(values.visible);
    if (visible === undefined && !merged?.has('visible')) {
      findings.error('INVALID_VISIBLE', r, letterOf(slots, 'visible'), '检索可见', MESSAGES.invalidVisible(values.visible));
    }
  }
  let level: string | null = null;
  if (values.level !== '') {
    level = parseLevel(values.level);
    if (level === null && !merged?.has('level')) {
      findings.warning('INVALID_LEVEL', r, letterOf(slots, 'level'), '风险等级', MESSAGES.invalidLevel(values.level));
    }
  }
  return { row: r, values, merged, visible, level };
}

function letterOf(slots: Slot[], field: FieldKey): string | null {
  return slots.find((s) => s.field === field)?.letter ?? null;
}

function canonicalOf(field: FieldKey): string {
  return COLUMN_BY_FIELD.get(field)!.canonical;
}
