import { readFileSync } from 'node:fs';
import ExcelJS from 'exceljs';
import { afterEach, describe, it, expect, vi } from 'vitest';
import { DEFAULT_PARSE_LIMITS } from './parse-limits.js';
import { parseWorkbook, WorkbookRejected } from './parse-workbook.js';
import { checkEntries, inspectZip } from './zip-guard.js';
import { CANONICAL_HEADER, row, workbookBuffer } from './test-support.js';
import { deflatedEntry, handWrittenXlsx, repeatedEntry, rowXml, storedEntry, zeroBombEntry, zipOf, type ZipEntry } from './test-zip.js';

interface Entry {
  name: string;
  data?: string;
  declaredSize?: number;
  zip64?: boolean;
}

/** A stored (uncompressed) zip; declaredSize lets the directory claim another size, zip64 puts it in a ZIP64 field. */
function buildZip(entries: Entry[]): Buffer {
  return zipOf(entries.map((e) => storedEntry(e.name, e.data ?? '', e)));
}

/** The minimal parts of a workbook around the given extra entries. */
function workbookWith(...extra: ZipEntry[]): Buffer {
  return zipOf([deflatedEntry('[Content_Types].xml', '<Types/>'), deflatedEntry('xl/workbook.xml', '<workbook><sheets/></workbook>'), ...extra]);
}

/** exceljs's reader: a workbook the guard refuses must never reach it. */
function exceljsLoad() {
  return vi.spyOn(Object.getPrototypeOf(new ExcelJS.Workbook().xlsx) as { load: () => Promise<unknown> }, 'load');
}

afterEach(() => {
  vi.restoreAllMocks();
});

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
      { name: 'xl/worksheets/sheet1.xml', data: '<x/>', declaredSize: 16 * 1024 * 1024 },
      { name: 'xl/worksheets/sheet2.xml', data: '<x/>', declaredSize: 10 * 1024 * 1024 },
    ]);
    const err = await rejection(bomb);
    expect([err.message, err.reason]).toEqual(['工作簿解压后超过 24 MB，已拒绝', 'too_large']);
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

  it('refuses a real zip bomb (1 GB of zeros in about 1 MB) from its directory, inflating nothing', async () => {
    const load = exceljsLoad();
    const bomb = workbookWith(zeroBombEntry('xl/worksheets/sheet1.xml', 1024 ** 3));
    expect(bomb.length).toBeLessThan(1.1 * 1024 * 1024);
    const err = await rejection(bomb);
    expect([err.message, err.reason]).toEqual(['工作簿解压后超过 24 MB，已拒绝', 'too_large']);
    expect(load).not.toHaveBeenCalled();
  });

  it('stops a zip bomb whose directory lies about its size at the declared size, in a sheet or any other part', async () => {
    const load = exceljsLoad();
    for (const name of ['xl/worksheets/sheet1.xml', 'docProps/custom.xml', 'xl/media/image1.png']) {
      const started = performance.now();
      const lying = workbookWith(zeroBombEntry(name, 1024 ** 3, { declaredSize: 4096 }));
      const err = await rejection(lying);
      expect([err.message, err.reason], name).toEqual([NOT_A_WORKBOOK, 'not_xlsx']);
      console.log(`lying zip bomb in ${name}: refused in ${Math.round(performance.now() - started)} ms`);
    }
    const stored = workbookWith(storedEntry('xl/styles.xml', 'x'.repeat(10_000), { declaredSize: 100 }));
    expect((await rejection(stored)).reason).toBe('not_xlsx');
    expect(load).not.toHaveBeenCalled();
  });

  it('refuses a compression method exceljs cannot read and a corrupt deflate stream', async () => {
    const bzip2 = { ...deflatedEntry('xl/styles.xml', '<styleSheet/>'), method: 12 as 0 };
    expect((await rejection(workbookWith(bzip2))).reason).toBe('not_xlsx');
    const corrupt = { ...deflatedEntry('xl/styles.xml', '<styleSheet/>'.repeat(50)), compressed: Buffer.from([0xff, 0xff, 0xff, 0xff]) };
    expect((await rejection(workbookWith(corrupt))).message).toBe(NOT_A_WORKBOOK);
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

  it('counts the rows of the sheets before exceljs reads any of them', async () => {
    const sheet = (n: number) => Array.from({ length: n }, (_, i) => rowXml(i + 1, i === 0 ? CANONICAL_HEADER : ['广安区', null, `事项${i}`]));
    const buf = await handWrittenXlsx({
      sheets: [
        { name: '一', rows: sheet(150) },
        { name: '二', rows: sheet(150) },
      ],
    });
    const load = exceljsLoad();
    const err = await rejection(buf, { maxRows: 299 });
    expect([err.message, err.reason]).toEqual(['工作簿行数超过上限（每个工作簿最多 299 行），已拒绝', 'too_many_rows']);
    expect(load).not.toHaveBeenCalled();
    const wb = await parseWorkbook(buf, { maxRows: 300 });
    expect(wb.sheets.map((s) => [s.name, s.dataRows])).toEqual([
      ['一', 149],
      ['二', 149],
    ]);
  });

  it('reports a cell above the configured length', async () => {
    const buf = await workbookBuffer([CANONICAL_HEADER, row({ 许可事项: '甲', 风险点: '乙', 法律后果: '长'.repeat(21) })]);
    const wb = await parseWorkbook(buf, { maxCellChars: 20 });
    expect(wb.sheets[0].findings).toEqual([
      { severity: 'error', code: 'CELL_TOO_LONG', sheet: '风险清单', row: 2, column: 'L', header: '法律后果', message: '单元格长度 21 超过 20 字符' },
    ]);
  });
});

describe('cell and shared-string limits', () => {
  it('refuses a workbook with more cells than the limit, naming it, before exceljs reads any; one at the limit is read', async () => {
    // 3 rows of 15 cells, a <cols> and a conditional format that must not count as cells.
    const buf = await workbookBuffer([CANONICAL_HEADER, row({ 许可事项: '甲', 风险点: '乙' }), row({ 许可事项: '丙', 风险点: '丁' })], (ws) => {
      ws.getColumn(1).width = 30;
      ws.addConditionalFormatting({ ref: 'A1:O3', rules: [{ type: 'expression', formulae: ['TRUE'], priority: 1 }] });
    });
    const cells = (await checkEntries(buf, inspectZip(buf, 1e9), { maxRows: 1e9, maxCells: 1e9, maxSharedStrings: 1e9 })).cells;
    expect(cells).toBe(CANONICAL_HEADER.length + 4);
    await expect(parseWorkbook(buf, { maxCells: cells })).resolves.toBeTruthy();
    const load = exceljsLoad();
    const err = await rejection(buf, { maxCells: cells - 1 });
    expect([err.message, err.reason]).toEqual([`工作簿单元格数超过上限（每个工作簿最多 ${cells - 1} 个单元格），已拒绝`, 'too_many_cells']);
    expect(load).not.toHaveBeenCalled();
  });

  it('counts the cells of every sheet together', async () => {
    const sheet = (n: number) => Array.from({ length: n }, (_, i) => rowXml(i + 1, i === 0 ? CANONICAL_HEADER : ['广安区', null, `事项${i}`]));
    const buf = await handWrittenXlsx({
      sheets: [
        { name: '一', rows: sheet(10) },
        { name: '二', rows: sheet(10) },
      ],
    });
    const perSheet = CANONICAL_HEADER.length + 9 * 2;
    await expect(parseWorkbook(buf, { maxCells: 2 * perSheet })).resolves.toBeTruthy();
    expect((await rejection(buf, { maxCells: 2 * perSheet - 1 })).reason).toBe('too_many_cells');
  });

  it('refuses a shared-strings table of millions of entries in a small file as soon as it passes the limit', async () => {
    const load = exceljsLoad();
    const buf = await handWrittenXlsx({
      sheets: [{ name: '一', rows: [rowXml(1, CANONICAL_HEADER)] }],
      extra: [repeatedEntry('xl/sharedStrings.xml', { head: '<sst>', unit: '<si><t>x</t></si>', count: 8_000_000, tail: '</sst>' })],
    });
    expect(buf.length).toBeLessThan(400 * 1024);
    const started = performance.now();
    const err = await rejection(buf, { maxUncompressedBytes: 1024 ** 3 });
    expect([err.message, err.reason]).toEqual(['工作簿中不重复的文本超过上限（每个工作簿最多 35000 条），已拒绝', 'too_many_shared_strings']);
    expect(load).not.toHaveBeenCalled();
    console.log(`8,000,000 shared strings in ${Math.round(buf.length / 1024)} KB: refused in ${Math.round(performance.now() - started)} ms`);
  });

  it('honours a lower shared-string limit exactly', async () => {
    const buf = await workbookBuffer([CANONICAL_HEADER, row({ 许可事项: '甲', 风险点: '乙' })]);
    const strings = (await checkEntries(buf, inspectZip(buf, 1e9), { maxRows: 1e9, maxCells: 1e9, maxSharedStrings: 1e9 })).sharedStrings;
    expect(strings).toBe(CANONICAL_HEADER.length + 2);
    await expect(parseWorkbook(buf, { maxSharedStrings: strings })).resolves.toBeTruthy();
    const err = await rejection(buf, { maxSharedStrings: strings - 1 });
    expect(err.message).toBe(`工作簿中不重复的文本超过上限（每个工作簿最多 ${strings - 1} 条），已拒绝`);
  });

  it('counts the real workbooks as docs/import.md lists them, well inside the default limits', async () => {
    const [QIANFENG, GUANGAN_DISTRICT, GUANGAN_CITY] = [
      '前锋区许可事项风险台账.xlsx',
      '广安区行政许可事项法律风险清单.xlsx',
      '广安市市级许可事项风险清单.xlsx',
    ];
    const counted: Record<string, unknown> = {};
    for (const file of [QIANFENG, GUANGAN_DISTRICT, GUANGAN_CITY]) {
      const buf = readFileSync(new URL(`../../../../test/fixtures/corpus/workbooks/${file}`, import.meta.url));
      const zip = inspectZip(buf, 1e9);
      counted[file] = { ...(await checkEntries(buf, zip, DEFAULT_PARSE_LIMITS)), unpacked: zip.uncompressedBytes };
    }
    expect(counted).toEqual({
      [QIANFENG]: { rows: 1079, cells: 15765, sharedStrings: 2052, unpacked: 860649 },
      [GUANGAN_DISTRICT]: { rows: 1895, cells: 28425, sharedStrings: 3256, unpacked: 1590156 },
      [GUANGAN_CITY]: { rows: 584, cells: 8760, sharedStrings: 1451, unpacked: 582814 },
    });
  });
});
