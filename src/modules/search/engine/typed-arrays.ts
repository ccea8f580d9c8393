type Growable = Uint8Array | Uint16Array | Uint32Array | Int32Array | Float32Array | Float64Array;

/** The array itself when it holds `size` elements, else a copy at least twice as large. */
export function ensureCapacity<T extends Growable>(arr: T, size: number): T {
  if (size <= arr.length) return arr;
  const next = new (arr.constructor as new (n: number) => T)(Math.max(size, arr.length * 2, 16));
  next.set(arr);
  return next;
}

/** First index in [from, to) whose value is >= target (galloping, then binary search). */
export function seek(docs: Uint16Array, from: number, to: number, target: number): number {
  if (from >= to || docs[from] >= target) return from;
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < to && docs[hi] < target) {
    lo = hi;
    step <<= 1;
    hi = Math.min(to, lo + step);
  }
  if (hi > to) hi = to;
  while (lo + 1 < hi) {
    const mid = (lo + hi) >>> 1;
    if (docs[mid] < target) lo = mid;
    else hi = mid;
  }
  return hi;
}
