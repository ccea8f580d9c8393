import type ExcelJS from 'exceljs';
import { NOT_A_WORKBOOK_MESSAGE, tooManyRows, WorkbookRejected } from './errors.js';
import { FindingList, MESSAGES } from './findings.js';
import { parseSheet } from './sheet-parser.js';
import { readWorksheets } from './sheet-reader.js';
import { DEFAULT_PARSE_LIMITS } from './parse-limits.js';
import type { ParseLimits, ParsedSheet, ParsedWorkbook } from './types.js';
import { checkEntries, inspectZip } from './zip-guard.js';

export { WorkbookRejected } from './errors.js';

/**
 * Sheet parts the parser never looks at. Skipping them saves load time, and a data validation
 * or conditional format over whole columns would otherwise be expanded cell by cell by exceljs.
 * Hyperlink targets are dropped too: a hyperlink cell keeps its displayed text.
 */
const IGNORED_SHEET_NODES = [
  'dataValidations',
  'conditionalFormatting',
  'extLst',
  'hyperlinks',
  'pageMargins',
  'pageSetup',
  'headerFooter',
  'printOptions',
  'rowBreaks',
  'autoFilter',
  'drawing',
  'picture',
  'tableParts',
  'sheetProtection',
];

/** The workbook's sheets one by one, a workbook exceljs cannot read refused as one (never a 500). */
async function* worksheetsOf(buf: Buffer, limits: ParseLimits): AsyncGenerator<ExcelJS.Worksheet> {
  // maxRows stops exceljs inside an oversized sheet instead of after building all of it.
  const sheets = readWorksheets(buf, { maxRows: limits.maxRows + 1, ignoreNodes: IGNORED_SHEET_NODES });
  for (;;) {
    let next: IteratorResult<ExcelJS.Worksheet>;
    try {
      next = await sheets.next();
    } catch (err) {
      if (err instanceof Error && /^Max row count \(\d+\) exceeded$/.test(err.message)) throw tooManyRows(limits.maxRows);
      throw new WorkbookRejected(NOT_A_WORKBOOK_MESSAGE, 'unreadable');
    }
    if (next.done) return;
    yield next.value;
  }
}

/**
 * Parses an uploaded workbook into sheets, permits, risks and findings. Pure: no database, no
 * files. Throws WorkbookRejected when the buffer cannot be read as a workbook at all. Sheets are
 * read and parsed one at a time (sheet-reader.ts), so memory follows the largest sheet, not the
 * whole workbook.
 */
export async function parseWorkbook(buf: Buffer, limits?: Partial<ParseLimits>): Promise<ParsedWorkbook> {
  const effective: ParseLimits = { ...DEFAULT_PARSE_LIMITS, ...limits };
  await checkEntries(buf, inspectZip(buf, effective.maxUncompressedBytes), effective);

  let rows = 0;
  const sheets: ParsedSheet[] = [];
  for await (const ws of worksheetsOf(buf, effective)) {
    rows += ws.actualRowCount;
    if (rows > effective.maxRows) throw tooManyRows(effective.maxRows);
    sheets.push(parseSheet(ws, sheets.length, effective));
  }
  const findings = new FindingList(null);
  if (sheets.length === 0) findings.error('NO_SHEETS', null, null, null, MESSAGES.noSheets());
  return { sheets, findings: findings.items };
}
