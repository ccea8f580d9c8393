import { ensureCapacity } from './typed-arrays.js';

/** The typed arrays a snapshot holds, by the code written before each. */
const ARRAY_TYPES = [Uint8Array, Int32Array, Uint32Array, Float32Array, Uint16Array] as const;
type SnapshotArray =
  Uint8Array<ArrayBufferLike> | Int32Array<ArrayBufferLike> | Uint32Array<ArrayBufferLike> | Float32Array<ArrayBufferLike> | Uint16Array<ArrayBufferLike>;
type ArrayType = (typeof ARRAY_TYPES)[number];

/** Strings of one decoded block of the string table: substrings of it share its memory. */
const STRING_BLOCK_CHARS = 1 << 24;
const NULL = 0;

/** Lets other work run: the snapshot of a large index is written in slices between requests. */
export type Pause = () => Promise<void>;
export const NO_PAUSE: Pause = () => Promise.resolve();
/** Strings written between two pauses. */
const SLICE = 20_000;

export const align8 = (n: number) => (n + 7) & ~7;

/**
 * Writes an index's state as three streams the reader takes back in the same order: integers,
 * typed arrays (copied as bytes) and strings (each distinct string once, by number). The engine's
 * classes write their own fields (`save`) and read them back (`load`); docs/search-snapshot.md.
 */
export class SnapshotWriter {
  private ints = new Uint32Array(1 << 16);
  private intCount = 0;
  private readonly arrays: SnapshotArray[] = [];
  private readonly stringIds = new Map<string, number>();
  private readonly strings: string[] = [];
  private stringChars = 0;

  int(n: number): void {
    if (this.intCount === this.ints.length) this.ints = ensureCapacity(this.ints, this.intCount + 1);
    this.ints[this.intCount++] = n;
  }

  bool(b: boolean): void {
    this.int(b ? 1 : 0);
  }

  str(s: string | null): void {
    if (s === null) return this.int(NULL);
    let id = this.stringIds.get(s);
    if (id === undefined) {
      id = this.strings.length + 1;
      this.stringIds.set(s, id);
      this.strings.push(s);
      this.stringChars += s.length;
    }
    this.int(id);
  }

  strs(list: readonly string[]): void {
    this.int(list.length);
    for (const s of list) this.str(s);
  }

  /** A copy of the first `length` elements of a typed array (all of it by default): the index goes on changing while the snapshot is written. */
  array(a: SnapshotArray, length = a.length): void {
    this.fixedArray(a.slice(0, length));
  }

  /** A typed array the index never writes to once made, written from where it is (no copy). */
  fixedArray(a: SnapshotArray): void {
    this.int(ARRAY_TYPES.findIndex((T) => a instanceof T));
    this.arrays.push(a);
  }

  /** The payload: the three streams, each part starting on an 8-byte boundary; `pause` lets other work run between slices of the string table. */
  async finish(pause: Pause = NO_PAUSE): Promise<Buffer[]> {
    const parts: Buffer[] = [];
    const lengths = new Uint32Array([this.intCount, this.arrays.length, this.strings.length, 0]);
    const add = (bytes: Uint8Array) => {
      parts.push(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      const pad = align8(bytes.byteLength) - bytes.byteLength;
      if (pad > 0) parts.push(Buffer.alloc(pad));
    };
    add(new Uint8Array(lengths.buffer));
    add(new Uint8Array(this.ints.buffer, 0, this.intCount * 4));
    add(new Uint8Array(new Float64Array(this.arrays.map((a) => a.byteLength)).buffer));
    for (const a of this.arrays) add(new Uint8Array(a.buffer, a.byteOffset, a.byteLength));
    const ends = new Float64Array(this.strings.length);
    const text = Buffer.allocUnsafe(this.stringChars * 2);
    let at = 0;
    for (let i = 0; i < this.strings.length; i++) {
      at += text.write(this.strings[i], at, 'utf16le');
      ends[i] = at / 2;
      if (i % SLICE === SLICE - 1) await pause();
    }
    add(new Uint8Array(ends.buffer));
    add(text);
    return parts;
  }
}

/** The reader of what SnapshotWriter wrote; any inconsistency throws (the caller ignores the snapshot). */
export class SnapshotReader {
  private readonly ints: Uint32Array;
  private intAt = 0;
  private readonly arrays: Uint8Array<ArrayBuffer>[] = [];
  private arrayAt = 0;
  private readonly strings: (string | null)[];

  /**
   * Reads the payload through `take`, which answers the next `bytes` bytes in a buffer of their own
   * (typed arrays need alignment, and nothing keeps a whole file's buffer alive) and skips the
   * padding after them; it throws when the payload has fewer.
   */
  constructor(take: (bytes: number) => Uint8Array<ArrayBuffer>) {
    const [intCount, arrayCount, stringCount] = new Uint32Array(take(16).buffer);
    this.ints = new Uint32Array(take(intCount * 4).buffer);
    const sizes = new Float64Array(take(arrayCount * 8).buffer);
    for (const size of sizes) this.arrays.push(take(size));
    const ends = new Float64Array(take(stringCount * 8).buffer);
    const text = take(stringCount > 0 ? ends[stringCount - 1] * 2 : 0);
    this.strings = decodeStrings(Buffer.from(text.buffer, text.byteOffset, text.byteLength), ends);
  }

  /** A reader of a payload held in memory. */
  static of(payload: Uint8Array): SnapshotReader {
    let at = 0;
    return new SnapshotReader((bytes) => {
      if (at + bytes > payload.byteLength) throw new Error('snapshot payload ends early');
      const copy = new Uint8Array(bytes);
      copy.set(payload.subarray(at, at + bytes));
      at += align8(bytes);
      return copy;
    });
  }

  int(): number {
    if (this.intAt >= this.ints.length) throw new Error('snapshot integers end early');
    return this.ints[this.intAt++];
  }

  bool(): boolean {
    return this.int() === 1;
  }

  str(): string | null {
    const id = this.int();
    if (id > this.strings.length) throw new Error('snapshot names a string it does not hold');
    return this.strings[id];
  }

  /** A string that may not be null. */
  text(): string {
    const s = this.str();
    if (s === null) throw new Error('snapshot holds null where a string belongs');
    return s;
  }

  strs(): string[] {
    const n = this.int();
    const out = new Array<string>(n);
    for (let i = 0; i < n; i++) out[i] = this.text();
    return out;
  }

  array<T extends ArrayType>(type: T): InstanceType<T> {
    const code = this.int();
    const bytes = this.arrays[this.arrayAt++];
    if (ARRAY_TYPES[code] !== type || !bytes || bytes.byteLength % type.BYTES_PER_ELEMENT !== 0) throw new Error('snapshot array of another type');
    return new type(bytes.buffer, bytes.byteOffset, bytes.byteLength / type.BYTES_PER_ELEMENT) as InstanceType<T>;
  }

  /** Whether every integer and array was read: a snapshot written by other code reads differently. */
  get complete(): boolean {
    return this.intAt === this.ints.length && this.arrayAt === this.arrays.length;
  }
}

/**
 * Strings 1…n (0 is null), decoded a block at a time and cut out of it: a substring shares its
 * block's memory, so a million strings cost one decode per block rather than one each.
 */
function decodeStrings(text: Buffer, ends: Float64Array): (string | null)[] {
  const out = new Array<string | null>(ends.length + 1);
  out[0] = null;
  let start = 0;
  let i = 0;
  while (i < ends.length) {
    let last = i;
    while (last + 1 < ends.length && ends[last + 1] - start <= STRING_BLOCK_CHARS) last++;
    const blockEnd = ends[last];
    if (blockEnd < start || blockEnd * 2 > text.byteLength) throw new Error('snapshot string table out of order');
    const block = text.toString('utf16le', start * 2, blockEnd * 2);
    for (let from = start; i <= last; i++) {
      if (ends[i] < from) throw new Error('snapshot string table out of order');
      out[i + 1] = block.slice(from - start, ends[i] - start);
      from = ends[i];
    }
    start = blockEnd;
  }
  return out;
}
