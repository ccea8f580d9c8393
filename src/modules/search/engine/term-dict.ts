import { ensureCapacity } from './typed-arrays.js';

/** Interned index keys with their live document frequency and the largest impact seen. */
export class TermDict {
  private readonly ids = new Map<string, number>();
  readonly keys: string[] = [];
  df = new Int32Array(1024);
  /** Upper bound of the quantised impact of any posting of the term (never lowered). */
  maxImpact = new Uint8Array(1024);

  get size(): number {
    return this.keys.length;
  }

  lookup(key: string): number {
    return this.ids.get(key) ?? -1;
  }

  intern(key: string): number {
    let id = this.ids.get(key);
    if (id === undefined) {
      id = this.keys.length;
      this.ids.set(key, id);
      this.keys.push(key);
      this.df = ensureCapacity(this.df, id + 1);
      this.maxImpact = ensureCapacity(this.maxImpact, id + 1);
    }
    return id;
  }
}
