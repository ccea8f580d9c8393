import { ensureCapacity, seek as seekImported } from './typed-arrays.js';

// Local binding for the hot loops (imported bindings are slower to read in optimised code).
const seek = seekImported;

/** A contiguous, docId-ascending run of postings of one term. */
export interface Slice {
  docs: Uint32Array;
  impacts: Uint8Array;
  start: number;
  end: number;
}

interface DeltaList {
  docs: Uint32Array;
  impacts: Uint8Array;
  n: number;
}

/**
 * Postings as typed arrays: a compact base segment (one CSR block for all terms, built once)
 * plus small per-term delta lists for documents added since. Document ids only grow, so every
 * list stays sorted by appending; removed documents are skipped by the live bitset and dropped
 * at the next compaction.
 */
export class Postings {
  private offsets = new Uint32Array(1);
  private docs = new Uint32Array(0);
  private impacts = new Uint8Array(0);
  private baseTerms = 0;
  private delta: (DeltaList | undefined)[] = [];
  private deltaSize = 0;

  /** Base segment from exact per-term counts; `fill` calls put() in ascending doc order per term. */
  static build(counts: Int32Array, termCount: number, fill: (put: (term: number, doc: number, impact: number) => void) => void): Postings {
    const p = new Postings();
    p.baseTerms = termCount;
    p.offsets = new Uint32Array(termCount + 1);
    for (let t = 0; t < termCount; t++) p.offsets[t + 1] = p.offsets[t] + counts[t];
    const total = p.offsets[termCount];
    p.docs = new Uint32Array(total);
    p.impacts = new Uint8Array(total);
    const cursor = p.offsets.slice(0, termCount);
    fill((term, doc, impact) => {
      const at = cursor[term]++;
      p.docs[at] = doc;
      p.impacts[at] = impact;
    });
    return p;
  }

  get size(): number {
    return this.docs.length + this.deltaSize;
  }

  get pendingDelta(): number {
    return this.deltaSize;
  }

  slices(term: number): Slice[] {
    const out: Slice[] = [];
    if (term < this.baseTerms && this.offsets[term] < this.offsets[term + 1]) {
      out.push({ docs: this.docs, impacts: this.impacts, start: this.offsets[term], end: this.offsets[term + 1] });
    }
    const d = this.delta[term];
    if (d && d.n > 0) out.push({ docs: d.docs, impacts: d.impacts, start: 0, end: d.n });
    return out;
  }

  /** Impact of the term in the document, 0 when absent. */
  impactOf(term: number, doc: number): number {
    if (term < this.baseTerms) {
      const end = this.offsets[term + 1];
      const at = seek(this.docs, this.offsets[term], end, doc);
      if (at < end && this.docs[at] === doc) return this.impacts[at];
    }
    const d = this.delta[term];
    if (d) {
      const at = seek(d.docs, 0, d.n, doc);
      if (at < d.n && d.docs[at] === doc) return d.impacts[at];
    }
    return 0;
  }

  append(term: number, doc: number, impact: number): void {
    let d = this.delta[term];
    if (!d) {
      d = { docs: new Uint32Array(4), impacts: new Uint8Array(4), n: 0 };
      this.delta[term] = d;
    }
    d.docs = ensureCapacity(d.docs, d.n + 1);
    d.impacts = ensureCapacity(d.impacts, d.n + 1);
    d.docs[d.n] = doc;
    d.impacts[d.n] = impact;
    d.n++;
    this.deltaSize++;
  }

  /** Folds the delta lists into a new base segment, dropping postings of documents no longer alive. */
  compact(termCount: number, alive: (doc: number) => boolean): Postings {
    const counts = new Int32Array(termCount);
    this.forEachPosting(termCount, alive, (t) => counts[t]++);
    return Postings.build(counts, termCount, (put) => this.forEachPosting(termCount, alive, put));
  }

  private forEachPosting(termCount: number, alive: (doc: number) => boolean, f: (t: number, doc: number, impact: number) => void): void {
    for (let t = 0; t < termCount; t++) {
      for (const s of this.slices(t)) {
        for (let i = s.start; i < s.end; i++) if (alive(s.docs[i])) f(t, s.docs[i], s.impacts[i]);
      }
    }
  }
}
