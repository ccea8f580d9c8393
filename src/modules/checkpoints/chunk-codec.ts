import { promisify } from 'node:util';
import { constants, gunzip, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** Rows of one table per stored chunk: small enough to hold a few in memory, large enough to compress well. */
export const CHUNK_ROWS = 5000;
/** Rows per chunk of a table with blob columns (stored workbooks): each row may be megabytes. */
export const BINARY_CHUNK_ROWS = 20;

/**
 * One chunk, before gzip, holds a header line and the table's rows, one row per line, in one of
 * two layouts:
 *
 * `json` (SQLite) — one JSON document:
 *
 *   {"v":1,"columns":["id","name"],"binary":[],"rows":[
 *   [1,"广安区"],
 *   [2,"前锋区"]
 *   ]}
 *
 * Rows are arrays in `columns` order; values are JSON numbers, strings and null, except the
 * columns named in `binary`, whose values are the base64 text of the blob.
 *
 * `copy` (PostgreSQL) — a JSON header line, then PostgreSQL's own COPY text format:
 *
 *   {"v":1,"format":"copy","columns":["id","name"],"binary":[]}
 *   1\t广安区
 *   2\t前锋区
 *
 * (tab-separated, `\N` for null, backslash escapes, blobs as `\\x` hex.)
 *
 * Neither layout ever holds a raw line break inside a value, so rows can be cut apart without
 * parsing: the database produces the row text when copying and parses it itself when restoring,
 * and no row ever becomes a JavaScript object on the way.
 */
export type ChunkFormat = 'json' | 'copy';

export interface ChunkData {
  /** Default `json`. */
  format?: ChunkFormat;
  columns: string[];
  binary: string[];
  rows: unknown[][];
}

const NL = 0x0a;
/** Output piece size of zlib: one or two pieces per chunk instead of dozens of 16 KiB ones. */
const ZLIB_CHUNK = 256 * 1024;
export const ROW_SEPARATOR = ',\n';
const END: Record<ChunkFormat, string> = { json: '\n]}', copy: '' };

/** A chunk that cannot be read: reported as a failed restore, not as an exception. */
export class CorruptChunkError extends Error {
  override name = 'CorruptChunkError';
}

export interface ChunkHeader {
  format: ChunkFormat;
  text: string;
}

export function chunkHeader(format: ChunkFormat, columns: readonly string[], binary: readonly string[]): ChunkHeader {
  const text =
    format === 'json'
      ? `${JSON.stringify({ v: 1, columns, binary }).slice(0, -1)},"rows":[\n`
      : `${JSON.stringify({ v: 1, format, columns, binary })}\n`;
  return { format, text };
}

/**
 * Header + rows (`json`: lines joined by ROW_SEPARATOR; `copy`: lines each ending in a line
 * break) + end, gzip level 1: on this text it keeps nearly all of the size gain at a third of the
 * time. Runs on the libuv thread pool.
 */
export function compressChunk(header: ChunkHeader, rowLines: Buffer | string): Promise<Buffer> {
  const rows = typeof rowLines === 'string' ? Buffer.from(rowLines) : rowLines;
  const whole = Buffer.concat([Buffer.from(header.text), rows, Buffer.from(END[header.format])]);
  return gzipAsync(whole, { level: constants.Z_BEST_SPEED, chunkSize: ZLIB_CHUNK });
}

/** A decompressed chunk whose rows are still text, one line each. */
export interface OpenedChunk {
  format: ChunkFormat;
  columns: string[];
  binary: string[];
  rowCount: number;
  /**
   * Text of rows [from, to): `json`: joined by ROW_SEPARATOR, without brackets; `copy`: each
   * line with its line break, as COPY … FROM STDIN reads it.
   */
  rows(from: number, to: number): Buffer;
}

function parseHeader(line: string): { format: ChunkFormat; columns: string[]; binary: string[] } {
  let header: Partial<ChunkData>;
  try {
    // A json header line is the document's start: close it to read it.
    header = JSON.parse(line.endsWith('[') ? `${line}]}` : line) as Partial<ChunkData>;
  } catch (err) {
    throw new CorruptChunkError((err as Error).message);
  }
  const { columns, binary } = header;
  const format = header.format ?? 'json';
  const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
  if (!strings(columns) || !strings(binary) || (format !== 'json' && format !== 'copy')) throw new CorruptChunkError('unexpected chunk header');
  return { format, columns, binary };
}

export async function openChunk(content: Buffer): Promise<OpenedChunk> {
  let text: Buffer;
  try {
    text = await gunzipAsync(content, { chunkSize: ZLIB_CHUNK });
  } catch (err) {
    throw new CorruptChunkError((err as Error).message);
  }
  const headerEnd = text.indexOf(NL);
  if (headerEnd < 0) throw new CorruptChunkError('unexpected chunk layout');
  const { format, columns, binary } = parseHeader(text.toString('utf8', 0, headerEnd));
  const end = END[format];
  const endAt = text.length - end.length;
  if (text.toString('utf8', endAt) !== end || endAt <= headerEnd) throw new CorruptChunkError('unexpected chunk layout');
  if (format === 'copy' && endAt > headerEnd + 1 && text[endAt - 1] !== NL) throw new CorruptChunkError('unexpected chunk layout');
  // starts[i]: first byte of row i; starts[rowCount]: one past the last row's line break.
  const starts = [headerEnd + 1];
  if (endAt > headerEnd + 1) {
    for (let at = text.indexOf(NL, headerEnd + 1); at >= 0 && at < endAt; at = text.indexOf(NL, at + 1)) starts.push(at + 1);
    if (format === 'json') starts.push(endAt + 1);
  }
  const rowCount = starts.length - 1;
  const rows =
    format === 'copy'
      ? (from: number, to: number) => text.subarray(starts[from], starts[to])
      : // Each line but the last ends in ",\n"; the slice stops before the separator after row to-1.
        (from: number, to: number) => text.subarray(starts[from], starts[to] - (to === rowCount ? 1 : ROW_SEPARATOR.length));
  return { format, columns, binary, rowCount, rows };
}

/** The whole chunk as values (blobs as Buffers; `copy` values as text): for checks and tools, not for the bulk path. */
export async function decodeChunk(content: Buffer): Promise<ChunkData> {
  const opened = await openChunk(content);
  const { format, columns, binary } = opened;
  const text = opened.rows(0, opened.rowCount).toString('utf8');
  const binaryAt = binary.map((name) => columns.indexOf(name));
  if (format === 'copy') {
    const rows: unknown[][] = opened.rowCount === 0 ? [] : text.slice(0, -1).split('\n').map((line) => line.split('\t').map(copyValue));
    for (const i of binaryAt) for (const row of rows) if (typeof row[i] === 'string') row[i] = Buffer.from((row[i] as string).slice(2), 'hex');
    return { format, columns, binary, rows };
  }
  const rows = JSON.parse(`[${text}]`) as unknown[][];
  for (const i of binaryAt) for (const row of rows) if (typeof row[i] === 'string') row[i] = Buffer.from(row[i] as string, 'base64');
  return { format, columns, binary, rows };
}

/** The same layout from values (blobs as Buffers): what the database produces, written by hand. */
export function encodeChunk(data: ChunkData): Promise<Buffer> {
  const format = data.format ?? 'json';
  const binary = data.binary.map((name) => data.columns.indexOf(name));
  const header = chunkHeader(format, data.columns, data.binary);
  if (format === 'copy') {
    const lines = data.rows.map((row) => `${row.map(copyText).join('\t')}\n`);
    return compressChunk(header, lines.join(''));
  }
  const lines = data.rows.map((row) =>
    JSON.stringify(row.map((v, i) => (binary.includes(i) && Buffer.isBuffer(v) ? v.toString('base64') : v))),
  );
  return compressChunk(header, lines.join(ROW_SEPARATOR));
}

// COPY text format: \N is null; backslash escapes the separators and control characters.
const COPY_ESCAPES: Record<string, string> = { b: '\b', f: '\f', n: '\n', r: '\r', t: '\t', v: '\v' };

/** One field of a COPY text row as its value (null or text). */
export function copyValue(field: string): string | null {
  if (field === '\\N') return null;
  return field.replace(/\\(x[0-9a-fA-F]{1,2}|[0-7]{1,3}|.)/g, (_, e: string) => {
    if (e[0] === 'x' && e.length > 1) return String.fromCharCode(parseInt(e.slice(1), 16));
    if (/^[0-7]/.test(e)) return String.fromCharCode(parseInt(e, 8));
    return COPY_ESCAPES[e] ?? e;
  });
}

/** A value as one field of a COPY text row. */
function copyText(value: unknown): string {
  if (value === null || value === undefined) return '\\N';
  const text = Buffer.isBuffer(value) ? `\\x${value.toString('hex')}` : String(value);
  return text.replace(/[\\\n\r\t\b\f\v]/g, (c) => {
    const name = Object.keys(COPY_ESCAPES).find((k) => COPY_ESCAPES[k] === c);
    return name ? `\\${name}` : '\\\\';
  });
}
