import { compressChunkContent, decompressChunkContent } from './chunk-compression.js';
import { decodeTuple, encodeTuples, MalformedTuplesError, tupleStarts } from './copy-binary.js';

/**
 * Rows of one table per stored chunk: small enough to hold a few in memory, large enough to
 * compress well; fewer when they are large (stored workbooks may be megabytes each).
 */
export const CHUNK_LIMITS = { rows: 5000, bytes: 8 * 1024 * 1024 };

/**
 * One chunk, before compression (chunk-compression.ts), holds a header line and the table's rows in one of three layouts:
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
 * `copy-binary` (PostgreSQL, what it writes now) — a JSON header line with the columns' types,
 * then the tuples of PostgreSQL's binary COPY format without its file framing (copy-binary.ts):
 *
 *   {"v":1,"format":"copy-binary","columns":["id","name"],"types":["int4","text"],"binary":[]}
 *   <tuples>
 *
 * PostgreSQL reads the binary form faster than the text (1,000,000 risks: 2.7–3.6 s against
 * 4.2–5.6 s). Rows are cut apart without parsing in every layout: lines in the text ones (no value
 * holds a raw line break), the tuples' lengths in the binary one. The database produces the rows
 * when copying and reads them itself when restoring; no row becomes a JavaScript object on the way.
 */
export type ChunkFormat = 'json' | 'copy' | 'copy-binary';
const FORMATS: readonly ChunkFormat[] = ['json', 'copy', 'copy-binary'];

export interface ChunkData {
  /** Default `json`. */
  format?: ChunkFormat;
  columns: string[];
  /** `copy-binary` only: each column's PostgreSQL type (udt name), the form its values are in. */
  types?: string[];
  binary: string[];
  rows: unknown[][];
}

const NL = 0x0a;
export const ROW_SEPARATOR = ',\n';
const END: Record<ChunkFormat, string> = { json: '\n]}', copy: '', 'copy-binary': '' };

/** A chunk that cannot be read: reported as a failed restore, not as an exception. */
export class CorruptChunkError extends Error {
  override name = 'CorruptChunkError';
}

export interface ChunkHeader {
  format: ChunkFormat;
  text: string;
}

/** `types`: required by `copy-binary`, ignored by the others. */
export function chunkHeader(format: ChunkFormat, columns: readonly string[], binary: readonly string[], types: readonly string[] = []): ChunkHeader {
  let text: string;
  if (format === 'json') text = `${JSON.stringify({ v: 1, columns, binary }).slice(0, -1)},"rows":[\n`;
  else if (format === 'copy') text = `${JSON.stringify({ v: 1, format, columns, binary })}\n`;
  else text = `${JSON.stringify({ v: 1, format, columns, types, binary })}\n`;
  return { format, text };
}

/**
 * Header + rows (`json`: lines joined by ROW_SEPARATOR; `copy`: lines each ending in a line
 * break; `copy-binary`: tuples) + end, compressed on the libuv thread pool.
 */
export function compressChunk(header: ChunkHeader, rowLines: Buffer | string): Promise<Buffer> {
  const rows = typeof rowLines === 'string' ? Buffer.from(rowLines) : rowLines;
  return compressChunkContent([Buffer.from(header.text), rows, Buffer.from(END[header.format])]);
}

/** A decompressed chunk whose rows are still as stored. */
export interface OpenedChunk {
  format: ChunkFormat;
  columns: string[];
  /** `copy-binary`: the columns' types; empty in the other layouts. */
  types: string[];
  binary: string[];
  rowCount: number;
  /**
   * Rows [from, to) as stored: `json`: joined by ROW_SEPARATOR, without brackets; `copy`: each
   * line with its line break; `copy-binary`: the tuples. The `copy` layouts are what COPY … FROM
   * STDIN reads (the binary one inside the file framing).
   */
  rows(from: number, to: number): Buffer;
}

function parseHeader(line: string): { format: ChunkFormat; columns: string[]; types: string[]; binary: string[] } {
  let header: Partial<ChunkData>;
  try {
    // A json header line is the document's start: close it to read it.
    header = JSON.parse(line.endsWith('[') ? `${line}]}` : line) as Partial<ChunkData>;
  } catch (err) {
    throw new CorruptChunkError((err as Error).message);
  }
  const { columns, binary } = header;
  const format = header.format ?? 'json';
  const types = format === 'copy-binary' ? header.types : [];
  const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
  if (!strings(columns) || !strings(binary) || !strings(types) || !FORMATS.includes(format)) throw new CorruptChunkError('unexpected chunk header');
  if (format === 'copy-binary' && types.length !== columns.length) throw new CorruptChunkError('unexpected chunk header');
  return { format, columns, types, binary };
}

/** Where each row of a decompressed chunk starts, and one past the last (see OpenedChunk.rows). */
function rowStarts(text: Buffer, format: ChunkFormat, from: number, endAt: number, width: number): number[] {
  if (format === 'copy-binary') {
    try {
      return tupleStarts(text, from, width);
    } catch (err) {
      if (err instanceof MalformedTuplesError) throw new CorruptChunkError(err.message);
      throw err;
    }
  }
  if (format === 'copy' && endAt > from && text[endAt - 1] !== NL) throw new CorruptChunkError('unexpected chunk layout');
  const starts = [from];
  if (endAt > from) {
    for (let at = text.indexOf(NL, from); at >= 0 && at < endAt; at = text.indexOf(NL, at + 1)) starts.push(at + 1);
    if (format === 'json') starts.push(endAt + 1);
  }
  return starts;
}

export async function openChunk(content: Buffer): Promise<OpenedChunk> {
  let text: Buffer;
  try {
    text = await decompressChunkContent(content);
  } catch (err) {
    throw new CorruptChunkError((err as Error).message);
  }
  const headerEnd = text.indexOf(NL);
  if (headerEnd < 0) throw new CorruptChunkError('unexpected chunk layout');
  const { format, columns, types, binary } = parseHeader(text.toString('utf8', 0, headerEnd));
  const end = END[format];
  const endAt = text.length - end.length;
  if (text.toString('utf8', endAt) !== end || endAt <= headerEnd) throw new CorruptChunkError('unexpected chunk layout');
  // starts[i]: first byte of row i; starts[rowCount]: one past the last row.
  const starts = rowStarts(text, format, headerEnd + 1, endAt, columns.length);
  const rowCount = starts.length - 1;
  const rows =
    format !== 'json'
      ? (from: number, to: number) => text.subarray(starts[from], starts[to])
      : // Each line but the last ends in ",\n"; the slice stops before the separator after row to-1.
        (from: number, to: number) => text.subarray(starts[from], starts[to] - (to === rowCount ? 1 : ROW_SEPARATOR.length));
  return { format, columns, types, binary, rowCount, rows };
}

/** The whole chunk as values (blobs as Buffers; `copy` values as text): for checks and tools, not for the bulk path. */
export async function decodeChunk(content: Buffer): Promise<ChunkData> {
  const opened = await openChunk(content);
  const { format, columns, types, binary } = opened;
  if (format === 'copy-binary') {
    // openChunk has found where each tuple starts: each is read from its own slice.
    const rows = Array.from({ length: opened.rowCount }, (_, i) => decodeTuple(opened.rows(i, i + 1), types));
    return { format, columns, types, binary, rows };
  }
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
  const header = chunkHeader(format, data.columns, data.binary, data.types);
  if (format === 'copy-binary') return compressChunk(header, encodeTuples(data.rows, data.types ?? []));
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
