import { constants, crc32, createDeflateRaw, deflateRawSync } from 'node:zlib';
import { columnLetter } from './columns.js';

/**
 * Zip archives written byte by byte for the parser's tests: entries may claim sizes other than
 * their data's (what a zip bomb does), carry ZIP64 sizes, and a sheet of a million rows is
 * deflated as it is generated, so no test ever holds its XML in memory at once.
 */

export interface ZipEntry {
  name: string;
  /** 0 stored, 8 deflated. */
  method: 0 | 8;
  compressed: Buffer;
  crc: number;
  /** The real uncompressed size. */
  size: number;
  /** What the central directory claims instead of `size`. */
  declaredSize?: number;
  /** Put the claimed size in a ZIP64 extra field. */
  zip64?: boolean;
}

type EntryOptions = Pick<ZipEntry, 'declaredSize' | 'zip64'>;

export function storedEntry(name: string, data: string | Buffer = '', opts: EntryOptions = {}): ZipEntry {
  const raw = Buffer.from(data);
  return { name, method: 0, compressed: raw, crc: crc32(raw), size: raw.length, ...opts };
}

export function deflatedEntry(name: string, data: string | Buffer, opts: EntryOptions = {}): ZipEntry {
  const raw = Buffer.from(data);
  return { name, method: 8, compressed: deflateRawSync(raw, { level: 9 }), crc: crc32(raw), size: raw.length, ...opts };
}

/**
 * A zip bomb part: `inflatedBytes` of zeros in about a thousandth of the space. One megabyte of
 * zeros is deflated once (ending on a sync flush, so it is a byte-aligned run of blocks that
 * refers to nothing before itself), repeated, and closed by an empty final block. The CRC is not
 * computed: nothing that reads the directory first ever gets that far.
 */
export function zeroBombEntry(name: string, inflatedBytes: number, opts: EntryOptions = {}): ZipEntry {
  const MB = 1024 * 1024;
  const block = standaloneBlocks(Buffer.alloc(MB));
  const count = Math.ceil(inflatedBytes / MB);
  const compressed = Buffer.concat([...Array.from({ length: count }, () => block), FINAL_EMPTY_BLOCK]);
  return { name, method: 8, compressed, crc: 0, size: count * MB, ...opts };
}

/** Deflated blocks ending on a sync flush: byte-aligned and referring to nothing before them, so they can be repeated and joined. */
function standaloneBlocks(data: Buffer): Buffer {
  return deflateRawSync(data, { level: 9, finishFlush: constants.Z_SYNC_FLUSH });
}

const FINAL_EMPTY_BLOCK = Buffer.from([0x03, 0x00]);

/**
 * A part of `count` copies of `unit` between `head` and `tail` (a table of millions of shared
 * strings, a sheet of millions of cells) in about a thousandth of its size, as zeroBombEntry does
 * for zeros: about a megabyte of copies is deflated once and repeated. Sizes and CRC are the real ones.
 */
export function repeatedEntry(name: string, part: { head: string; unit: string; count: number; tail: string }): ZipEntry {
  const unit = Buffer.from(part.unit);
  const perBlock = Math.max(1, Math.floor((1024 * 1024) / unit.length));
  const whole = Buffer.concat(Array.from({ length: perBlock }, () => unit));
  const rest = Buffer.concat(Array.from({ length: part.count % perBlock }, () => unit));
  const head = Buffer.from(part.head);
  const tail = Buffer.from(part.tail);
  const repeats = Math.floor(part.count / perBlock);
  let crc = crc32(head);
  for (let i = 0; i < repeats; i++) crc = crc32(whole, crc);
  crc = crc32(tail, crc32(rest, crc));
  const block = standaloneBlocks(whole);
  const compressed = Buffer.concat([
    standaloneBlocks(head),
    ...Array.from({ length: repeats }, () => block),
    standaloneBlocks(rest),
    standaloneBlocks(tail),
    FINAL_EMPTY_BLOCK,
  ]);
  return { name, method: 8, compressed, crc, size: head.length + repeats * whole.length + rest.length + tail.length };
}

/** An entry deflated from text produced piece by piece (memory: the compressed output only). */
export async function streamedEntry(name: string, pieces: Iterable<string>, opts: EntryOptions = {}): Promise<ZipEntry> {
  const deflate = createDeflateRaw({ level: 1 });
  const out: Buffer[] = [];
  deflate.on('data', (c: Buffer) => out.push(c));
  const done = new Promise<void>((resolve, reject) => {
    deflate.on('end', resolve);
    deflate.on('error', reject);
  });
  let crc = 0;
  let size = 0;
  let pending = '';
  const flush = async () => {
    const buf = Buffer.from(pending);
    pending = '';
    crc = crc32(buf, crc);
    size += buf.length;
    if (!deflate.write(buf)) await new Promise((r) => deflate.once('drain', r));
  };
  for (const piece of pieces) {
    pending += piece;
    if (pending.length >= 256 * 1024) await flush();
  }
  await flush();
  deflate.end();
  await done;
  return { name, method: 8, compressed: Buffer.concat(out), crc, size, ...opts };
}

export function zipOf(entries: ZipEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = Buffer.from(e.name, 'utf8');
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6); // UTF-8 names
    local.writeUInt16LE(e.method, 8);
    local.writeUInt32LE(e.crc, 14);
    local.writeUInt32LE(e.compressed.length, 18);
    local.writeUInt32LE(Math.min(e.declaredSize ?? e.size, 0xffffffff), 22);
    local.writeUInt16LE(name.length, 26);
    locals.push(local, name, e.compressed);

    const size = e.declaredSize ?? e.size;
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
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(e.method, 10);
    central.writeUInt32LE(e.crc, 16);
    central.writeUInt32LE(e.compressed.length, 20);
    central.writeUInt32LE(e.zip64 ? 0xffffffff : size, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt16LE(extra.length, 30);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name, extra);
    offset += 30 + name.length + e.compressed.length;
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

export const MAIN_NS = 'http://schemas.openxmlformats.org/spreadsheetml/2006/main';
export const REL_NS = 'http://schemas.openxmlformats.org/officeDocument/2006/relationships';
export const PKG_REL_NS = 'http://schemas.openxmlformats.org/package/2006/relationships';

function xmlText(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** A cell as sheet XML: text is an inline string; `{formula, cached?}` a formula with or without its cached result. */
export type SheetCell = string | number | null | { formula: string; cached?: string | number };

export function rowXml(rowNumber: number, cells: SheetCell[]): string {
  let xml = `<row r="${rowNumber}">`;
  cells.forEach((cell, i) => {
    if (cell === null || cell === '') return;
    const ref = `${columnLetter(i + 1)}${rowNumber}`;
    if (typeof cell === 'number') xml += `<c r="${ref}"><v>${cell}</v></c>`;
    else if (typeof cell === 'string') xml += `<c r="${ref}" t="inlineStr"><is><t xml:space="preserve">${xmlText(cell)}</t></is></c>`;
    else if (cell.cached === undefined) xml += `<c r="${ref}"><f>${xmlText(cell.formula)}</f></c>`;
    else if (typeof cell.cached === 'number') xml += `<c r="${ref}"><f>${xmlText(cell.formula)}</f><v>${cell.cached}</v></c>`;
    else xml += `<c r="${ref}" t="str"><f>${xmlText(cell.formula)}</f><v>${xmlText(cell.cached)}</v></c>`;
  });
  return `${xml}</row>`;
}

export interface HandWrittenWorkbook {
  /** Sheet name → its rows as XML pieces (a generator for huge sheets). */
  sheets: Array<{ name: string; rows: Iterable<string> }>;
  /** Extra parts (external links, a docx body, anything), stored as given. */
  extra?: ZipEntry[];
  /** Relationships of the workbook beyond its sheets (e.g. an external link). */
  workbookRels?: string;
  /** Content inside <workbook> after <sheets> (e.g. <externalReferences>). */
  workbookTail?: string;
}

/** A minimal .xlsx written by hand (what any spreadsheet program can open), its sheets deflated as they are generated. */
export async function handWrittenXlsx(book: HandWrittenWorkbook): Promise<Buffer> {
  const sheetList = book.sheets.map((s, i) => `<sheet name="${xmlText(s.name)}" sheetId="${i + 1}" r:id="rId${i + 1}"/>`).join('');
  const sheetRels = book.sheets.map((_s, i) => `<Relationship Id="rId${i + 1}" Type="${REL_NS}/worksheet" Target="worksheets/sheet${i + 1}.xml"/>`).join('');
  const overrides = book.sheets
    .map(
      (_s, i) =>
        `<Override PartName="/xl/worksheets/sheet${i + 1}.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.worksheet+xml"/>`,
    )
    .join('');
  const entries: ZipEntry[] = [
    deflatedEntry(
      '[Content_Types].xml',
      '<?xml version="1.0" encoding="UTF-8" standalone="yes"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types">' +
        '<Default Extension="rels" ContentType="application/vnd.openxmlformats-package.relationships+xml"/>' +
        '<Default Extension="xml" ContentType="application/xml"/>' +
        '<Override PartName="/xl/workbook.xml" ContentType="application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml"/>' +
        `${overrides}</Types>`,
    ),
    deflatedEntry(
      '_rels/.rels',
      `<Relationships xmlns="${PKG_REL_NS}"><Relationship Id="rId1" Type="${REL_NS}/officeDocument" Target="xl/workbook.xml"/></Relationships>`,
    ),
    deflatedEntry('xl/workbook.xml', `<workbook xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheets>${sheetList}</sheets>${book.workbookTail ?? ''}</workbook>`),
    deflatedEntry('xl/_rels/workbook.xml.rels', `<Relationships xmlns="${PKG_REL_NS}">${sheetRels}${book.workbookRels ?? ''}</Relationships>`),
  ];
  for (const [i, sheet] of book.sheets.entries()) {
    const pieces = function* () {
      yield `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><worksheet xmlns="${MAIN_NS}" xmlns:r="${REL_NS}"><sheetData>`;
      yield* sheet.rows;
      yield '</sheetData></worksheet>';
    };
    entries.push(await streamedEntry(`xl/worksheets/sheet${i + 1}.xml`, pieces()));
  }
  return zipOf([...entries, ...(book.extra ?? [])]);
}
