import { createRequire } from 'node:module';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';

// exceljs's own parts for each piece of a workbook (it has no public API to read one sheet at a
// time); their results are what `workbook.xlsx.load` would build, sheet by sheet.
const require = createRequire(import.meta.url);
const JSZip = require('jszip') as { loadAsync(data: Buffer): Promise<Zip> };
type XformClass = new (options?: unknown) => { parseStream(stream: Readable): Promise<unknown>; reconcile(model: unknown, options: unknown): void };
const WorkbookXform = require('exceljs/lib/xlsx/xform/book/workbook-xform.js') as XformClass;
const RelationshipsXform = require('exceljs/lib/xlsx/xform/core/relationships-xform.js') as XformClass;
const SharedStringsXform = require('exceljs/lib/xlsx/xform/strings/shared-strings-xform.js') as XformClass;
const StylesXform = require('exceljs/lib/xlsx/xform/style/styles-xform.js') as XformClass;
const WorksheetXform = require('exceljs/lib/xlsx/xform/sheet/worksheet-xform.js') as XformClass;
const Worksheet = require('exceljs/lib/doc/worksheet.js') as new (options: object) => ExcelJS.Worksheet;

interface ZipFile {
  async(type: 'string'): Promise<string>;
}
interface Zip {
  file(name: string): ZipFile | null;
}

/** What exceljs's workbook part parser answers, as far as the sheets are concerned. */
interface BookModel {
  properties?: { date1904?: boolean };
  sheets?: Array<{ id: number; name: string; state: string; rId: string }>;
}

export interface SheetReadOptions {
  /** Rows one sheet may hold before exceljs stops reading it. */
  maxRows: number;
  /** Sheet parts never looked at. */
  ignoreNodes: string[];
}

/** A zip part, by name with or without the leading slash some writers put there. */
const part = (zip: Zip, name: string) => zip.file(name) ?? zip.file(`/${name}`);

/** A part's XML as exceljs's parsers take it: a stream of 16 KB strings. */
async function xmlStream(file: ZipFile): Promise<Readable> {
  const content = await file.async('string');
  const chunks: string[] = [];
  for (let i = 0; i < content.length; i += 16 * 1024) chunks.push(content.substring(i, i + 16 * 1024));
  return Readable.from(chunks, { objectMode: true });
}

/** A part's model; undefined when the part is absent, an error when it is there but cannot be read. */
async function parsePart(zip: Zip, name: string, xform: InstanceType<XformClass>): Promise<unknown> {
  const file = part(zip, name);
  if (!file) return undefined;
  const model = await xform.parseStream(await xmlStream(file));
  if (model === undefined) throw new Error(`${name} cannot be read`);
  return model;
}

async function loadedXform<T extends InstanceType<XformClass>>(zip: Zip, name: string, xform: T): Promise<T | undefined> {
  const file = part(zip, name);
  if (!file) return undefined;
  await xform.parseStream(await xmlStream(file));
  return xform;
}

/**
 * The worksheets of a workbook in workbook order, each as the exceljs Worksheet that
 * `workbook.xlsx.load` would have built, but one at a time: only one sheet's cells are in
 * memory at once (the caller parses a sheet before asking for the next), where exceljs would
 * build every sheet's cells, twice over, before handing any of them out. Shared strings, styles,
 * the 1904 date system and the sheet names come from the workbook's parts exactly as exceljs
 * reads them; drawings, media, comments and tables are not read.
 */
export async function* readWorksheets(buf: Buffer, options: SheetReadOptions): AsyncGenerator<ExcelJS.Worksheet> {
  const zip = await JSZip.loadAsync(buf);
  const book = (await parsePart(zip, 'xl/workbook.xml', new WorkbookXform())) as BookModel | undefined;
  const rels = ((await parsePart(zip, 'xl/_rels/workbook.xml.rels', new RelationshipsXform())) ?? []) as Array<{ Id: string; Target: string }>;
  // Like exceljs: the parsers themselves are the lookups, absent when the part is.
  const sharedStrings = await loadedXform(zip, 'xl/sharedStrings.xml', new SharedStringsXform());
  const styles = await loadedXform(zip, 'xl/styles.xml', new StylesXform());
  const sheetOptions = {
    styles,
    sharedStrings,
    date1904: book?.properties?.date1904,
    media: [],
    mediaIndex: {},
    drawings: {},
    comments: {},
    tables: {},
    vmlDrawings: {},
  };
  const owner = new ExcelJS.Workbook();
  const targets = new Map(rels.map((r) => [r.Id, r.Target]));
  let orderNo = 0;
  for (const sheet of book?.sheets ?? []) {
    const target = targets.get(sheet.rId);
    // As exceljs resolves it; a chart sheet (chartsheets/…) is not a worksheet and is skipped.
    const name = target === undefined ? null : `xl/${target.replace(/^(\s|\/xl\/)+/, '')}`;
    if (!name || !/xl\/worksheets\/sheet\d+[.]xml/.test(name)) continue;
    const xform = new WorksheetXform(options);
    const model = (await parsePart(zip, name, xform)) as object | undefined;
    if (model === undefined) continue;
    xform.reconcile(model, sheetOptions);
    // What exceljs's workbook reconcile adds to each sheet's model (the Worksheet takes its name from it).
    Object.assign(model, { id: sheet.id, name: sheet.name, state: sheet.state });
    const worksheet = new Worksheet({ workbook: owner, id: sheet.id, name: sheet.name, orderNo: orderNo++, state: sheet.state });
    worksheet.model = model as ExcelJS.WorksheetModel;
    yield worksheet;
  }
}
