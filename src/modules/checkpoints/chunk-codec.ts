import { promisify } from 'node:util';
import { constants, gunzip, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** Rows of one table per stored chunk: small enough to hold a few in memory, large enough to compress well. */
export const CHUNK_ROWS = 5000;
/** Rows per chunk of a table with blob columns (stored workbooks): each row may be megabytes. */
export const BINARY_CHUNK_ROWS = 20;

/**
 * One chunk, before gzip, is one JSON document laid out one row per line:
 *
 *   {"v":1,"columns":["id","name"],"binary":[],"rows":[
 *   [1,"广安区"],
 *   [2,"前锋区"]
 *   ]}
 *
 * Rows are arrays in `columns` order; values are JSON numbers, strings and null, except the
 * columns named in `binary`, whose values are the base64 text of the blob. JSON text never
 * holds a raw line break (inside strings it is escaped), so the lines can be cut apart without
 * parsing: the database produces the row lines when copying and parses them itself when
 * restoring, and no row ever becomes a JavaScript object on the way.
 */
export interface ChunkData {
  columns: string[];
  binary: string[];
  rows: unknown[][];
}

const NL = 0x0a;
/** Output piece size of zlib: one or two pieces per chunk instead of dozens of 16 KiB ones. */
const ZLIB_CHUNK = 256 * 1024;
export const ROW_SEPARATOR = ',\n';
const END = '\n]}';

/** A chunk that cannot be read: reported as a failed restore, not as an exception. */
export class CorruptChunkError extends Error {
  override name = 'CorruptChunkError';
}

export const chunkHeader = (columns: readonly string[], binary: readonly string[]) =>
  `${JSON.stringify({ v: 1, columns, binary }).slice(0, -1)},"rows":[\n`;

/**
 * Header + row lines (joined by ROW_SEPARATOR) + end, gzip level 1: on this text it keeps nearly
 * all of the size gain at a third of the time. Runs on the libuv thread pool.
 */
export function compressChunk(header: string, rowLines: Buffer | string): Promise<Buffer> {
  const rows = typeof rowLines === 'string' ? Buffer.from(rowLines) : rowLines;
  return gzipAsync(Buffer.concat([Buffer.from(header), rows, Buffer.from(END)]), { level: constants.Z_BEST_SPEED, chunkSize: ZLIB_CHUNK });
}

/** A decompressed chunk whose rows are still JSON text, one line each. */
export interface OpenedChunk {
  columns: string[];
  binary: string[];
  rowCount: number;
  /** JSON text of rows [from, to), joined by ROW_SEPARATOR, without brackets. */
  rows(from: number, to: number): Buffer;
}

export async function openChunk(content: Buffer): Promise<OpenedChunk> {
  let text: Buffer;
  try {
    text = await gunzipAsync(content, { chunkSize: ZLIB_CHUNK });
  } catch (err) {
    throw new CorruptChunkError((err as Error).message);
  }
  const headerEnd = text.indexOf(NL);
  const endAt = text.length - END.length;
  if (headerEnd < 0 || text.toString('utf8', endAt) !== END || endAt <= headerEnd) throw new CorruptChunkError('unexpected chunk layout');
  let header: Partial<ChunkData>;
  try {
    header = JSON.parse(`${text.toString('utf8', 0, headerEnd)}]}`) as Partial<ChunkData>;
  } catch (err) {
    throw new CorruptChunkError((err as Error).message);
  }
  const { columns, binary } = header;
  const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string');
  if (!strings(columns) || !strings(binary)) throw new CorruptChunkError('unexpected chunk header');
  // starts[i]: first byte of row i; starts[rowCount]: one past the last row's line break.
  const starts = [headerEnd + 1];
  if (endAt > headerEnd + 1) {
    for (let at = text.indexOf(NL, headerEnd + 1); at >= 0 && at < endAt; at = text.indexOf(NL, at + 1)) starts.push(at + 1);
    starts.push(endAt + 1);
  }
  const rowCount = starts.length - 1;
  return {
    columns,
    binary,
    rowCount,
    // Each line but the last ends in ",\n"; the slice stops before the separator after row to-1.
    rows: (from, to) => text.subarray(starts[from], starts[to] - (to === rowCount ? 1 : ROW_SEPARATOR.length)),
  };
}

/** The whole chunk as values (blobs as Buffers): for checks and tools, not for the bulk path. */
export async function decodeChunk(content: Buffer): Promise<ChunkData> {
  const opened = await openChunk(content);
  const rows = JSON.parse(`[${opened.rows(0, opened.rowCount).toString('utf8')}]`) as unknown[][];
  for (const name of opened.binary) {
    const i = opened.columns.indexOf(name);
    for (const row of rows) if (typeof row[i] === 'string') row[i] = Buffer.from(row[i] as string, 'base64');
  }
  return { columns: opened.columns, binary: opened.binary, rows };
}

/** The same layout from values (blobs as Buffers): what the database produces, written by hand. */
export function encodeChunk(data: ChunkData): Promise<Buffer> {
  const binary = data.binary.map((name) => data.columns.indexOf(name));
  const lines = data.rows.map((row) =>
    JSON.stringify(row.map((v, i) => (binary.includes(i) && Buffer.isBuffer(v) ? v.toString('base64') : v))),
  );
  return compressChunk(chunkHeader(data.columns, data.binary), lines.join(ROW_SEPARATOR));
}
