// PostgreSQL's binary COPY format, as the `copy-binary` chunk layout holds it (chunk-codec.ts):
// the tuples alone, without the file framing, which a restore puts back around all of a table's
// chunks. Each tuple: a 16-bit field count, then per field a 32-bit length (-1: null) and that
// many bytes in the type's binary form; all integers big-endian.

/** The file header: signature, flags (none), header extension length (none). */
export const BINARY_COPY_HEADER = Buffer.concat([Buffer.from('PGCOPY\n\xff\r\n\0', 'latin1'), Buffer.alloc(8)]);
/** The file trailer: a field count of -1. */
export const BINARY_COPY_TRAILER = Buffer.from([0xff, 0xff]);

/** Not binary COPY tuples of the expected width. */
export class MalformedTuplesError extends Error {
  override name = 'MalformedTuplesError';
}

const int16 = (b: Buffer, at: number) => ((b[at] << 24) >> 16) | b[at + 1];
const int32 = (b: Buffer, at: number) => (b[at] << 24) | (b[at + 1] << 16) | (b[at + 2] << 8) | b[at + 3];

/**
 * Where each tuple of `data[from..]` starts, and one past the last: walks the lengths only, so a
 * chunk is checked and its rows counted without reading a value. Throws MalformedTuplesError
 * unless the data is whole tuples of `width` fields, ending exactly at the end.
 */
export function tupleStarts(data: Buffer, from: number, width: number): number[] {
  const starts: number[] = [];
  const end = data.length;
  let at = from;
  while (at < end) {
    starts.push(at);
    if (at + 2 > end || int16(data, at) !== width) throw new MalformedTuplesError(`tuple ${starts.length - 1} is not ${width} fields`);
    at += 2;
    for (let field = 0; field < width; field++) {
      if (at + 4 > end) throw new MalformedTuplesError(`tuple ${starts.length - 1} is cut short`);
      const length = int32(data, at);
      if (length < -1) throw new MalformedTuplesError(`tuple ${starts.length - 1} has a negative length`);
      at += 4 + Math.max(length, 0);
    }
    if (at > end) throw new MalformedTuplesError(`tuple ${starts.length - 1} is cut short`);
  }
  starts.push(at);
  return starts;
}

// Values in the binary forms of the types the schema uses (and a few more): for checks and
// tools that read or write a chunk by hand, not for the bulk path, which never reads a value.

const TEXT_TYPES = new Set(['text', 'varchar', 'bpchar', 'name']);

function decodeValue(type: string, bytes: Buffer): unknown {
  if (TEXT_TYPES.has(type)) return bytes.toString('utf8');
  switch (type) {
    case 'bytea': return Buffer.from(bytes);
    case 'int2': return bytes.readInt16BE(0);
    case 'int4': return bytes.readInt32BE(0);
    case 'int8': return Number(bytes.readBigInt64BE(0));
    case 'float8': return bytes.readDoubleBE(0);
    case 'bool': return bytes[0] === 1;
    default: throw new MalformedTuplesError(`no reader for type ${type}`);
  }
}

function encodeValue(type: string, value: unknown): Buffer {
  if (TEXT_TYPES.has(type)) return Buffer.from(String(value), 'utf8');
  const b = Buffer.alloc(type === 'int2' ? 2 : type === 'int4' ? 4 : type === 'bool' ? 1 : 8);
  switch (type) {
    case 'bytea': return Buffer.isBuffer(value) ? value : Buffer.from(String(value));
    case 'int2': b.writeInt16BE(Number(value)); return b;
    case 'int4': b.writeInt32BE(Number(value)); return b;
    case 'int8': b.writeBigInt64BE(BigInt(value as number)); return b;
    case 'float8': b.writeDoubleBE(Number(value)); return b;
    case 'bool': b[0] = value ? 1 : 0; return b;
    default: throw new MalformedTuplesError(`no writer for type ${type}`);
  }
}

/** The values of one tuple. */
export function decodeTuple(tuple: Buffer, types: readonly string[]): unknown[] {
  const row: unknown[] = [];
  let field = 2;
  for (const type of types) {
    const length = int32(tuple, field);
    field += 4;
    row.push(length < 0 ? null : decodeValue(type, tuple.subarray(field, field + length)));
    field += Math.max(length, 0);
  }
  return row;
}

/** Rows of values as tuples of `types`. */
export function encodeTuples(rows: readonly unknown[][], types: readonly string[]): Buffer {
  const parts: Buffer[] = [];
  for (const row of rows) {
    const count = Buffer.alloc(2);
    count.writeInt16BE(types.length);
    parts.push(count);
    types.forEach((type, i) => {
      const value = row[i];
      const length = Buffer.alloc(4);
      if (value === null || value === undefined) {
        length.writeInt32BE(-1);
        parts.push(length);
        return;
      }
      const bytes = encodeValue(type, value);
      length.writeInt32BE(bytes.length);
      parts.push(length, bytes);
    });
  }
  return Buffer.concat(parts);
}
