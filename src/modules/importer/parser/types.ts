/** Shapes produced by the workbook parser; the import service and preview consume them as they are. */

import type { RiskTexts } from '../../permits/risk.schema.js';

export type FieldKey =
  | 'region'
  | 'themes'
  | 'permitName'
  | 'permitCode'
  | 'implementationLevel'
  | 'approvalDepartments'
  | 'internalContact'
  | 'contactInfo'
  | 'riskType'
  | 'riskPoint'
  | 'legalBasis'
  | 'consequence'
  | 'prevention'
  | 'level'
  | 'visible';

export interface ParseLimits {
  /** Rows holding values, summed over every sheet of one workbook. */
  maxRows: number;
  /** Cells (`<c>` elements) summed over every sheet of one workbook, counted before exceljs reads any. */
  maxCells: number;
  /** Entries (`<si>`) of the shared-strings table, counted before exceljs reads it. */
  maxSharedStrings: number;
  /** Characters (code points) in one cell after trimming. */
  maxCellChars: number;
  /**
   * Sum of the uncompressed sizes the zip central directory declares (zip-bomb guard); it bounds
   * each part too, and so the largest part the reader holds as one string.
   */
  maxUncompressedBytes: number;
}

export interface Finding {
  severity: 'error' | 'warning';
  /** Stable machine code, see FINDING_CODES in findings.ts. */
  code: string;
  sheet: string | null;
  /** Excel row number, 1-based. */
  row: number | null;
  /** Column letter, e.g. 'D'. */
  column: string | null;
  /** Canonical column name (e.g. '许可事项'), or the file's header text for unknown columns. */
  header: string | null;
  /** Chinese, for a clerk. */
  message: string;
}

export interface ColumnMapping {
  letter: string;
  index: number;
  /** Header text as in the file (trimmed). */
  header: string;
  field: FieldKey | null;
  canonical: string | null;
}

export interface ParsedRisk extends RiskTexts {
  row: number;
}

export interface ParsedPermit {
  /** Every Excel row of the permit, risk rows and permit-only rows alike, in sheet order. */
  rows: number[];
  region: string | null;
  code: string | null;
  name: string;
  implementationLevel: string | null;
  approvalDepartments: string[];
  internalContact: string | null;
  contactInfo: string | null;
  themes: string[];
  visible: boolean;
  risks: ParsedRisk[];
}

export interface ParsedSheet {
  name: string;
  /** 0-based position of the sheet in the workbook. */
  index: number;
  headerRow: number | null;
  firstDataRow: number | null;
  dataRows: number;
  columns: ColumnMapping[];
  permits: ParsedPermit[];
  findings: Finding[];
}

export interface ParsedWorkbook {
  sheets: ParsedSheet[];
  /** Workbook-level findings (not tied to one sheet). */
  findings: Finding[];
}
