import ExcelJS from 'exceljs';
import { NOT_A_WORKBOOK_MESSAGE, tooManyRows, WorkbookRejected } from './errors.js';
import { FindingList, MESSAGES } from './findings.js';
import { parseSheet } from './sheet-parser.js';
import type { ParseLimits, ParsedWorkbook } from './types.js';
import { checkEntries, inspectZip } from './zip-guard.js';

export { WorkbookRejected } from './errors.js';

export const DEFAULT_PARSE_LIMITS: Readonly<ParseLimits> = {
  maxRows: 200_000,
  maxCellChars: 5_000,
  maxUncompressedBytes: 200 * 1024 * 1024,
};

/**
 * Sheet parts the parser never looks at. Skipping them saves load time, and a data validation
 * or conditional format over whole columns would otherwise be expanded cell by cell by exceljs.
 * Hyperlink targets are dropped too: a hyperlink cell keeps its displayed text.
 */
const IGNORED_SHEET_NODES = [
  'dataValidations', 'conditionalFormatting', 'extLst', 'hyperlinks', 'pageMargins', 'pageSetup',
  'headerFooter', 'printOptions', 'rowBreaks', 'autoFilter', 'drawing', 'picture', 'tableParts',
  'sheetProtection',
];

async function loadWorkbook(buf: Buffer, limits: ParseLimits): Promise<ExcelJS.Workbook> {
  const workbook = new ExcelJS.Workbook();
  try {
    // maxRows stops exceljs inside an oversized sheet instead of after building all of it.
    const options = { maxRows: limits.maxRows + 1, ignoreNodes: IGNORED_SHEET_NODES };
    await workbook.xlsx.load(buf as unknown as ExcelJS.Buffer, options as Partial<ExcelJS.XlsxReadOptions>);
  } catch (err) {
    if (err instanceof Error && /^Max row count \(\d+\) exceeded$/.test(err.message)) throw tooManyRows(limits.maxRows);
    throw new WorkbookRejected(NOT_A_WORKBOOK_MESSAGE, 'unreadable');
  }
  return workbook;
}

/**
 * Parses an uploaded workbook into sheets, permits, risks and findings. Pure: no database, no
 * files. Throws WorkbookRejected when the buffer cannot be read as a workbook at all.
 */
export async function parseWorkbook(buf: Buffer, limits?: Partial<ParseLimits>): Promise<ParsedWorkbook> {
  const effective: ParseLimits = { ...DEFAULT_PARSE_LIMITS, ...limits };
  await checkEntries(buf, inspectZip(buf, effective.maxUncompressedBytes), effective.maxRows);
  const workbook = await loadWorkbook(buf, effective);

  let rows = 0;
  for (const ws of workbook.worksheets) rows += ws.actualRowCount;
  if (rows > effective.maxRows) throw tooManyRows(effective.maxRows);

  const findings = new FindingList(null);
  if (workbook.worksheets.length === 0) findings.error('NO_SHEETS', null, null, null, MESSAGES.noSheets());
  const sheets = workbook.worksheets.map((ws, index) => parseSheet(ws, index, effective));
  return { sheets, findings: findings.items };
}
