import { createInflateRaw } from 'node:zlib';
import { NOT_A_WORKBOOK_MESSAGE, tooManyCells, tooManyRows, tooManySharedStrings, WorkbookRejected } from './errors.js';
import { TagCounter } from './tag-counter.js';
import type { ParseLimits } from './types.js';

/**
 * Reads the zip before exceljs sees the buffer. From the central directory: refuses input that is
 * not a zip, a zip that is not a workbook (a .docx has word/, not xl/workbook.xml), and a zip
 * whose declared uncompressed total is above the limit. Then inflates every entry once without
 * keeping it (checkEntries): an entry that inflates to more than it declared (a zip bomb that
 * lies in its directory) is stopped at its declared size, and the rows and cells of the sheets and
 * the entries of the shared-strings table are counted on the way, so a workbook over one of those
 * limits is refused before exceljs builds any of it.
 */

const EOCD_SIG = 0x06054b50;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const ZIP64_EOCD_SIG = 0x06064b50;
const CENTRAL_SIG = 0x02014b50;
const EOCD_MIN = 22;
const OLE2_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

export interface ZipEntryInfo {
  name: string;
  /** 0 stored, 8 deflated; exceljs (JSZip) reads nothing else. */
  method: number;
  compressedSize: number;
  /** Uncompressed size as the directory declares it. */
  size: number;
  localOffset: number;
}

export interface ZipSummary {
  entries: number;
  uncompressedBytes: number;
  names: string[];
  items: ZipEntryInfo[];
}

function notWorkbook(): never {
  throw new WorkbookRejected(NOT_A_WORKBOOK_MESSAGE, 'not_xlsx');
}

function findEocd(buf: Buffer): number {
  const lowest = Math.max(0, buf.length - EOCD_MIN - 0xffff);
  for (let i = buf.length - EOCD_MIN; i >= lowest; i--) {
    if (buf.readUInt32LE(i) === EOCD_SIG) return i;
  }
  return -1;
}

function u64(buf: Buffer, at: number): number {
  return Number(buf.readBigUInt64LE(at));
}

/** Directory position and entry count, following the ZIP64 record when the classic fields overflow. */
function locateDirectory(buf: Buffer, eocd: number): { offset: number; count: number } {
  let count = buf.readUInt16LE(eocd + 10);
  let offset = buf.readUInt32LE(eocd + 16);
  const loc = eocd - 20;
  if ((count === 0xffff || offset === 0xffffffff) && loc >= 0 && buf.readUInt32LE(loc) === ZIP64_LOCATOR_SIG) {
    const rec = u64(buf, loc + 8);
    if (rec + 56 > buf.length || buf.readUInt32LE(rec) !== ZIP64_EOCD_SIG) notWorkbook();
    count = u64(buf, rec + 32);
    offset = u64(buf, rec + 48);
  }
  return { offset, count };
}

/**
 * Sizes and offset of one entry. A saturated 32-bit field is read from the ZIP64 extra field,
 * which holds (in this order) only the saturated ones: uncompressed size, compressed size, offset.
 */
function entryFields(buf: Buffer, at: number, extraStart: number, extraLen: number) {
  const fields = { size: buf.readUInt32LE(at + 24), compressedSize: buf.readUInt32LE(at + 20), localOffset: buf.readUInt32LE(at + 42) };
  const saturated = (Object.keys(fields) as Array<keyof typeof fields>).filter((k) => fields[k] === 0xffffffff);
  if (saturated.length === 0) return fields;
  let p = extraStart;
  const end = extraStart + extraLen;
  while (p + 4 <= end) {
    const id = buf.readUInt16LE(p);
    const len = buf.readUInt16LE(p + 2);
    if (id === 0x0001) {
      saturated.forEach((k, i) => {
        if (p + 4 + 8 * (i + 1) <= Math.min(end, p + 4 + len)) fields[k] = u64(buf, p + 4 + 8 * i);
      });
      break;
    }
    p += 4 + len;
  }
  return fields;
}

function formatSize(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1) return `${Number(mb.toFixed(1))} MB`;
  return `${Number((bytes / 1024).toFixed(1))} KB`;
}

export function inspectZip(buf: Buffer, maxUncompressedBytes: number): ZipSummary {
  if (buf.length >= OLE2_MAGIC.length && buf.subarray(0, OLE2_MAGIC.length).equals(OLE2_MAGIC)) {
    throw new WorkbookRejected(`${NOT_A_WORKBOOK_MESSAGE}：这是旧版 .xls 或加密的工作簿，请在 Excel 中另存为 .xlsx（不设密码）后重新上传`, 'legacy_format');
  }
  if (buf.length < EOCD_MIN) notWorkbook();
  const eocd = findEocd(buf);
  if (eocd < 0) notWorkbook();
  const { offset, count } = locateDirectory(buf, eocd);
  const names: string[] = [];
  const items: ZipEntryInfo[] = [];
  let total = 0;
  let p = offset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== CENTRAL_SIG) notWorkbook();
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const nameStart = p + 46;
    if (nameStart + nameLen + extraLen > buf.length) notWorkbook();
    const name = buf.toString('utf8', nameStart, nameStart + nameLen);
    const fields = entryFields(buf, p, nameStart + nameLen, extraLen);
    names.push(name);
    items.push({ name, method: buf.readUInt16LE(p + 10), ...fields });
    total += fields.size;
    if (total > maxUncompressedBytes) {
      throw new WorkbookRejected(`工作簿解压后超过 ${formatSize(maxUncompressedBytes)}，已拒绝`, 'too_large');
    }
    p = nameStart + nameLen + extraLen + commentLen;
  }
  if (!names.some((n) => n.replace(/^\//, '').toLowerCase() === 'xl/workbook.xml')) notWorkbook();
  return { entries: count, uncompressedBytes: total, names, items };
}

const LOCAL_SIG = 0x04034b50;
/** The sheet parts exceljs reads as worksheets (its own pattern). */
const WORKSHEET = /xl\/worksheets\/sheet(\d+)[.]xml/;
/** The one shared-strings part the reader loads (sheet-reader.ts). */
const SHARED_STRINGS = 'xl/sharedStrings.xml';

function entryData(buf: Buffer, e: ZipEntryInfo): Buffer {
  const at = e.localOffset;
  if (at + 30 > buf.length || buf.readUInt32LE(at) !== LOCAL_SIG) notWorkbook();
  const start = at + 30 + buf.readUInt16LE(at + 26) + buf.readUInt16LE(at + 28);
  if (start + e.compressedSize > buf.length) notWorkbook();
  return buf.subarray(start, start + e.compressedSize);
}

/**
 * Inflates `data` chunk by chunk, handing each chunk on and keeping none. Resolves false as soon
 * as the output passes `limit` or `onChunk` says stop; rejects on a corrupt stream.
 */
function inflateEach(data: Buffer, limit: number, onChunk: (chunk: Buffer) => boolean): Promise<boolean> {
  return new Promise((resolve, reject) => {
    const inflate = createInflateRaw();
    let total = 0;
    let settled = false;
    const finish = (ok: boolean) => {
      if (settled) return;
      settled = true;
      inflate.destroy();
      resolve(ok);
    };
    inflate.on('data', (chunk: Buffer) => {
      if (settled) return;
      total += chunk.length;
      if (total > limit || !onChunk(chunk)) finish(false);
    });
    inflate.on('end', () => finish(true));
    inflate.on('error', (err) => {
      if (settled) return;
      settled = true;
      reject(err);
    });
    inflate.end(data);
  });
}

/** What the guard counted in a workbook's parts: the figures its limits bound. */
export interface WorkbookCounts {
  /** Row records (`</row>`) of every sheet, what exceljs's own row limit counts. */
  rows: number;
  /** Cells (`<c>` elements) of every sheet, empty styled cells included: exceljs builds each one. */
  cells: number;
  /** Entries (`<si>`) of the shared-strings table, which exceljs reads whole before any sheet. */
  sharedStrings: number;
}

export type CountLimits = Pick<ParseLimits, 'maxRows' | 'maxCells' | 'maxSharedStrings'>;

/** One count of the guard: its counter, the parts it looks at, its limit and the refusal past it. */
interface Count {
  counter: TagCounter;
  inPart: (name: string) => boolean;
  limit: number;
  refusal: (limit: number) => WorkbookRejected;
}

const isSheet = (name: string) => WORKSHEET.test(name);

/**
 * Inflates every entry once, keeping nothing: refuses an entry that inflates to more than its
 * directory declared (so the declared total checked by inspectZip is a real bound) or that uses a
 * compression exceljs cannot read, and refuses the workbook as soon as its sheets hold more rows
 * or cells, or its shared-strings table more entries, than the limits: the memory exceljs takes
 * follows these counts, not the file's size (a few hundred kilobytes of zip can hold millions).
 */
export async function checkEntries(buf: Buffer, zip: ZipSummary, limits: CountLimits): Promise<WorkbookCounts> {
  const counts: Count[] = [
    { counter: new TagCounter('</row>', false), inPart: isSheet, limit: limits.maxRows, refusal: tooManyRows },
    { counter: new TagCounter('<c', true), inPart: isSheet, limit: limits.maxCells, refusal: tooManyCells },
    { counter: new TagCounter('<si', true), inPart: (name) => name === SHARED_STRINGS, limit: limits.maxSharedStrings, refusal: tooManySharedStrings },
  ];
  const over = () => counts.find((c) => c.counter.count > c.limit);
  for (const e of zip.items) {
    if (e.name.endsWith('/') && e.size === 0) continue; // a directory
    const data = entryData(buf, e);
    const name = e.name.replace(/^\//, '');
    const counting = counts.filter((c) => c.inPart(name));
    const withinLimits = (chunk: Buffer) => {
      for (const c of counting) c.counter.add(chunk);
      return over() === undefined;
    };
    let complete: boolean;
    if (e.method === 0) {
      complete = data.length <= e.size && withinLimits(data);
    } else if (e.method === 8) {
      complete = await inflateEach(data, e.size, withinLimits).catch(() => notWorkbook());
    } else {
      notWorkbook();
    }
    if (!complete) {
      const passed = over();
      if (passed) throw passed.refusal(passed.limit);
      notWorkbook(); // more data than the directory declares: not something a spreadsheet program writes
    }
  }
  const [rows, cells, sharedStrings] = counts.map((c) => c.counter.count);
  return { rows, cells, sharedStrings };
}
