import { NOT_A_WORKBOOK_MESSAGE, WorkbookRejected } from './errors.js';

/**
 * Reads the zip central directory before exceljs sees the buffer: refuses input that is not a
 * zip, a zip that is not a workbook (a .docx has word/, not xl/workbook.xml), and a zip whose
 * declared uncompressed total is above the limit, so a zip bomb is never inflated.
 */

const EOCD_SIG = 0x06054b50;
const ZIP64_LOCATOR_SIG = 0x07064b50;
const ZIP64_EOCD_SIG = 0x06064b50;
const CENTRAL_SIG = 0x02014b50;
const EOCD_MIN = 22;
const OLE2_MAGIC = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);

export interface ZipSummary {
  entries: number;
  uncompressedBytes: number;
  names: string[];
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

/** Uncompressed size of one entry, taken from its ZIP64 extra field when the 32-bit field is saturated. */
function entrySize(buf: Buffer, at: number, extraStart: number, extraLen: number): number {
  const size = buf.readUInt32LE(at + 24);
  if (size !== 0xffffffff) return size;
  let p = extraStart;
  const end = extraStart + extraLen;
  while (p + 4 <= end) {
    const id = buf.readUInt16LE(p);
    const len = buf.readUInt16LE(p + 2);
    if (id === 0x0001 && len >= 8 && p + 12 <= end) return u64(buf, p + 4);
    p += 4 + len;
  }
  return size;
}

function formatSize(bytes: number): string {
  const mb = bytes / (1024 * 1024);
  if (mb >= 1) return `${Number(mb.toFixed(1))} MB`;
  return `${Number((bytes / 1024).toFixed(1))} KB`;
}

export function inspectZip(buf: Buffer, maxUncompressedBytes: number): ZipSummary {
  if (buf.length >= OLE2_MAGIC.length && buf.subarray(0, OLE2_MAGIC.length).equals(OLE2_MAGIC)) {
    throw new WorkbookRejected(
      `${NOT_A_WORKBOOK_MESSAGE}：这是旧版 .xls 或加密的工作簿，请在 Excel 中另存为 .xlsx（不设密码）后重新上传`,
      'legacy_format',
    );
  }
  if (buf.length < EOCD_MIN) notWorkbook();
  const eocd = findEocd(buf);
  if (eocd < 0) notWorkbook();
  const { offset, count } = locateDirectory(buf, eocd);
  const names: string[] = [];
  let total = 0;
  let p = offset;
  for (let i = 0; i < count; i++) {
    if (p + 46 > buf.length || buf.readUInt32LE(p) !== CENTRAL_SIG) notWorkbook();
    const nameLen = buf.readUInt16LE(p + 28);
    const extraLen = buf.readUInt16LE(p + 30);
    const commentLen = buf.readUInt16LE(p + 32);
    const nameStart = p + 46;
    if (nameStart + nameLen + extraLen > buf.length) notWorkbook();
    names.push(buf.toString('utf8', nameStart, nameStart + nameLen));
    total += entrySize(buf, p, nameStart + nameLen, extraLen);
    if (total > maxUncompressedBytes) {
      throw new WorkbookRejected(`工作簿解压后超过 ${formatSize(maxUncompressedBytes)}，已拒绝`, 'too_large');
    }
    p = nameStart + nameLen + extraLen + commentLen;
  }
  if (!names.some((n) => n.replace(/^\//, '').toLowerCase() === 'xl/workbook.xml')) notWorkbook();
  return { entries: count, uncompressedBytes: total, names };
}
