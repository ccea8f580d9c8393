import { promisify } from 'node:util';
import { constants, gunzip, gzip } from 'node:zlib';

const gzipAsync = promisify(gzip);
const gunzipAsync = promisify(gunzip);

/** Rows of one table per stored chunk: small enough to hold a few in memory, large enough to compress well. */
export const CHUNK_ROWS = 5000;

/**
 * The content of one chunk, before gzip: `{"v":1,"columns":[…],"binary":[…],"rows":[[…],…]}`.
 * Rows are arrays in `columns` order; values are JSON numbers, strings and null, except the
 * columns named in `binary`, whose values are base64 text of the blob.
 */
export interface ChunkData {
  columns: string[];
  binary: string[];
  rows: unknown[][];
}

/** A chunk that cannot be decoded: reported as a failed restore, not as an exception. */
export class CorruptChunkError extends Error {
  override name = 'CorruptChunkError';
}

function binaryIndexes(data: ChunkData): number[] {
  return data.binary.map((name) => data.columns.indexOf(name)).filter((i) => i >= 0);
}

/**
 * JSON + gzip. Compression runs on the libuv thread pool, so the next page is read while this
 * one compresses. Level 1: on this kind of text it keeps nearly all of the size gain at a third
 * of the time. The rows' blob values are replaced by base64 text in place.
 */
export async function encodeChunk(data: ChunkData): Promise<Buffer> {
  for (const i of binaryIndexes(data)) {
    for (const row of data.rows) {
      const v = row[i];
      if (Buffer.isBuffer(v)) row[i] = v.toString('base64');
    }
  }
  const json = JSON.stringify({ v: 1, columns: data.columns, binary: data.binary, rows: data.rows });
  return gzipAsync(json, { level: constants.Z_BEST_SPEED });
}

function isStringArray(v: unknown): v is string[] {
  return Array.isArray(v) && v.every((x) => typeof x === 'string');
}

export async function decodeChunk(content: Buffer): Promise<ChunkData> {
  let parsed: unknown;
  try {
    parsed = JSON.parse((await gunzipAsync(content)).toString('utf8'));
  } catch (err) {
    throw new CorruptChunkError((err as Error).message);
  }
  const data = parsed as Partial<ChunkData> | null;
  if (!data || !isStringArray(data.columns) || !isStringArray(data.binary) || !Array.isArray(data.rows)) {
    throw new CorruptChunkError('unexpected chunk layout');
  }
  const width = data.columns.length;
  if (!data.rows.every((r) => Array.isArray(r) && r.length === width)) {
    throw new CorruptChunkError(`a row does not have ${width} values`);
  }
  const chunk = data as ChunkData;
  for (const i of binaryIndexes(chunk)) {
    for (const row of chunk.rows) {
      const v = row[i];
      if (typeof v === 'string') row[i] = Buffer.from(v, 'base64');
      else if (v !== null) throw new CorruptChunkError(`column ${chunk.columns[i]} is not base64 text`);
    }
  }
  return chunk;
}
