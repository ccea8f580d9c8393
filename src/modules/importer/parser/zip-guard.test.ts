import { crc32 } from 'node:zlib';
import { describe, it, expect } from 'vitest';
import { parseWorkbook, WorkbookRejected } from './parse-workbook.js';
import { inspectZip } from './zip-guard.js';
import { CANONICAL_HEADER, row, workbookBuffer } from './test-support.js';

interface Entry { name: string; data?: string; declaredSize?: number; zip64?: boolean }

/**
 * A stored (uncompressed) zip written byte by byte. declaredSize lets the central directory
 * claim a size other than the data's, which is what a zip bomb does; zip64 puts the size in
 * a ZIP64 extra field the way large archives do.
 */
function buildZip(entries: Entry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const data = Buffer.from(e.data ?? '', 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt32LE(crc32(data), 14);
    local.writeUInt32LE(data.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, data);

    const size = e.declaredSize ?? data.length;
    const extra = Buffer.alloc(e.zip64 ? 12 : 0);
    if (e.zip64) {
      extra.writeUInt16LE(0x0001, 0);
      extra.writeUInt16LE(8, 2);
      extra.writeBigUInt64LE(BigInt(size), 4);
    }
    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt32LE(crc32(data), 16);
    central.writeUInt32LE(data.length, 20);
    central.writeUInt32LE(e.zip64 ? 0xffffffff : size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(extra.length, 30);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name, extra);
    offset += 30 + name.length + data.length;
  }
  const directory = Buffer.concat(centrals);
  const eocd = Buffer.alloc(22);
  eocd.writeUInt32LE(0x06054b50, 0);
  eocd.writeUInt16LE(entries.length, 8);
  eocd.writeUInt16LE(entries.length, 10);
  eocd.writeUInt32LE(directory.length, 12);
  eocd.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, eocd]);
}

async function rejection(buf: Buffer, limits?: Parameters<typeof parseWorkbook>[1]): Promise<WorkbookRejected> {
  const err = await parseWorkbook(buf, limits).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(WorkbookRejected);
  return err as WorkbookRejected;
}

const NOT_A_WORKBOOK = '文件不是有效的 Excel 工作簿，无法解析';

describe('zip guard', () => {
  it('rejects random bytes, an empty buffer and a truncated workbook', async () => {
    const random = Buffer.from(Array.from({ length: 4096 }, (_, i) => (i * 7919 + 13) % 251));
    const good = await workbookBuffer([CANONICAL_HEADER, row({ 许可事项: '甲', 风险点: '乙' })]);
    for (const buf of [random, Buffer.alloc(0), good.subarray(0, good.length - 40)]) {
      const err = await rejection(buf);
      expect([err.message, err.reason]).toEqual([NOT_A_WORKBOOK, 'not_xlsx']);
    }
  });

  it('rejects a renamed .docx (a zip without xl/workbook.xml)', async () => {
    const docx = buildZip([
      { name: '[Content_Types].xml', data: '<Types/>' },
      { name: 'word/document.xml', data: '<w:document/>' },
    ]);
    expect(() => inspectZip(docx, 1e9)).toThrow(WorkbookRejected);
    const err = await rejection(docx);
    expect([err.message, err.reason]).toEqual([NOT_A_WORKBOOK, 'not_xlsx']);
  });

  it('rejects a legacy .xls / encrypted workbook with advice to save as .xlsx', async () => {
    const ole = Buffer.concat([Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]), Buffer.alloc(504)]);
    const err = await rejection(ole);
    expect(err.reason).toBe('legacy_format');
    expect(err.message.startsWith(NOT_A_WORKBOOK)).toBe(true);
  });

  it('rejects a zip bomb from its central directory before inflating anything', async () => {
    const bomb = buildZip([
      { name: 'xl/workbook.xml', data: '<workbook/>' },
      { name: 'xl/worksheets/sheet1.xml', data: '<x/>', declaredSize: 150 * 1024 * 1024 },
      { name: 'xl/worksheets/sheet2.xml', data: '<x/>', declaredSize: 60 * 1024 * 1024 },
    ]);
    const err = await rejection(bomb);
    expect([err.message, err.reason]).toEqual(['工作簿解压后超过 200 MB，已拒绝', 'too_large']);
  });

  it('reads ZIP64 sizes from the extra field', async () => {
    const bomb = buildZip([
      { name: 'xl/workbook.xml', data: '<workbook/>' },
      { name: 'xl/worksheets/sheet1.xml', data: '<x/>', declaredSize: 5 * 1024 ** 3, zip64: true },
    ]);
    expect((await rejection(bomb)).reason).toBe('too_large');
    const small = buildZip([{ name: 'xl/workbook.xml', data: '<workbook/>', zip64: true }]);
    expect(inspectZip(small, 1000)).toMatchObject({ entries: 1, uncompressedBytes: 11 });
  });

  it('sums the declared sizes of a real workbook and honours a lower limit', async () => {
    const buf = await workbookBuffer([CANONICAL_HEADER, row({ 许可事项: '甲', 风险点: '乙' })]);
    const summary = inspectZip(buf, 1e9);
    expect(summary.names).toContain('xl/workbook.xml');
    expect(summary.uncompressedBytes).toBeGreaterThan(buf.length);
    const err = await rejection(buf, { maxUncompressedBytes: 4096 });
    expect(err.message).toBe('工作簿解压后超过 4 KB，已拒绝');
  });

  it('turns a workbook exceljs cannot read into a rejection', async () => {
    const broken = buildZip([
      { name: '[Content_Types].xml', data: '<Types' },
      { name: 'xl/workbook.xml', data: '<workbook><sheets><sheet' },
    ]);
    const err = await rejection(broken);
    expect(err.message).toBe(NOT_A_WORKBOOK);
  });
});

describe('row limit', () => {
  it('rejects a workbook with more rows than the limit, naming the limit', async () => {
    const rows = [CANONICAL_HEADER, ...Array.from({ length: 12 }, (_, i) => row({ 许可事项: `事项${i}`, 风险点: '风险' }))];
    const buf = await workbookBuffer(rows, (_ws, wb) => {
      wb.addWorksheet('第二页').addRows(rows);
    });
    await expect(parseWorkbook(buf, { maxRows: 26 })).resolves.toBeTruthy();
    const err = await rejection(buf, { maxRows: 25 });
    expect([err.message, err.reason]).toEqual(['工作簿行数超过上限（每个工作簿最多 25 行），已拒绝', 'too_many_rows']);
    // One sheet alone above the limit is stopped inside exceljs.
    expect((await rejection(buf, { maxRows: 5 })).reason).toBe('too_many_rows');
  });

  it('reports a cell above the configured length', async () => {
    const buf = await workbookBuffer([CANONICAL_HEADER, row({ 许可事项: '甲', 风险点: '乙', 法律后果: '长'.repeat(21) })]);
    const wb = await parseWorkbook(buf, { maxCellChars: 20 });
    expect(wb.sheets[0].findings).toEqual([{
      severity: 'error', code: 'CELL_TOO_LONG', sheet: '风险清单', row: 2, column: 'L', header: '法律后果',
      message: '单元格长度 21 超过 20 字符',
    }]);
  });
});
