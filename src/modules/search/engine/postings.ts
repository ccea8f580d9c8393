import type { SnapshotReader, SnapshotWriter } from './snapshot-codec.js';
import { ensureCapacity } from './typed-arrays.js';

/**
 * Document ids are stored as their offset in a block of BLOCK_SIZE ids (two bytes a posting
 * rather than four): a term's postings are cut into one slice per block they fall in.
 */
const BLOCK_BITS = 16;
export const BLOCK_SIZE = 1 << BLOCK_BITS;

/**
 * The postings of one term in one segment and one block of ids: either a docId-ascending run of
 * (doc − base, impact) pairs, or — for terms most documents hold — a dense impact per document
 * id (0 = absent), which is smaller than pairs at that frequency and answers "does doc d hold
 * it" with one read.
 */
export interface Slice {
  docs: Uint16Array;
  impacts: Uint8Array;
  start: number;
  end: number;
  /** The first id of the block: a posting's document is base + docs[p]. */
  base: number;
  dense: Uint8Array | null;
}

/** Postings added since the base segment was built, of one term in one block of ids. */
interface DeltaRun {
  base: number;
  docs: Uint16Array;
  impacts: Uint8Array;
  n: number;
}

const NO_DOCS = new Uint16Array(0);
const NO_IMPACTS = new Uint8Array(0);
/**
 * A term held by at least this share of the documents is stored dense: a byte per document is
 * then no more than the three a posting takes.
 */
const DENSE_SHARE = 1 / 3;
const DENSE_MIN_DOCS = 512;

/**
 * Postings as typed arrays: a compact base segment (one CSR block for all sparse terms, built
 * once, each term's postings ordered by block of ids), dense impact arrays for very common terms,
 * plus small per-term delta runs for documents added since the base was built. Document ids only
 * grow, so every run stays sorted by appending; removed documents are skipped by the searchable
 * bitset and dropped at the next compaction.
 */
export class Postings {
  /** Blocks of ids the base segment spans: term t's postings in block b are offsets[t·blocks + b] … offsets[t·blocks + b + 1]. */
  private blocks = 1;
  private offsets = new Uint32Array(1);
  private docs = new Uint16Array(0);
  private impacts = new Uint8Array(0);
  private baseTerms = 0;
  private dense: (Uint8Array | undefined)[] = [];
  private denseCount = 0;
  private delta: (DeltaRun[] | undefined)[] = [];
  private deltaSize = 0;

  /**
   * Base segment from exact per-term counts over `docCount` document ids; `fill` calls put()
   * in ascending doc order per term.
   */
  static build(counts: Int32Array, termCount: number, docCount: number, fill: (put: (term: number, doc: number, impact: number) => void) => void): Postings {
    const p = new Postings();
    const blocks = (p.blocks = Math.max(1, Math.ceil(docCount / BLOCK_SIZE)));
    p.baseTerms = termCount;
    p.offsets = new Uint32Array(termCount * blocks + 1);
    const denseFrom = docCount >= DENSE_MIN_DOCS ? Math.max(1, Math.floor(docCount * DENSE_SHARE)) : Infinity;
    const cursor = new Uint32Array(termCount);
    let total = 0;
    for (let t = 0; t < termCount; t++) {
      const isDense = counts[t] >= denseFrom;
      if (isDense) {
        // Headroom, so the first documents added after a build do not reallocate every dense array.
        p.dense[t] = new Uint8Array(docCount + (docCount >> 3) + 64);
        p.denseCount += counts[t];
      }
      p.offsets[t * blocks] = cursor[t] = total;
      total += isDense ? 0 : counts[t];
    }
    p.offsets[termCount * blocks] = total;
    p.docs = new Uint16Array(total);
    p.impacts = new Uint8Array(total);
    // The blocks of each term whose start is known: block 0's is the term's; a later one's is
    // where its first posting lands, or the term's end when it has none.
    const started = new Int32Array(termCount);
    const startBlocks = (term: number, upTo: number) => {
      for (let b = started[term] + 1; b <= upTo; b++) p.offsets[term * blocks + b] = cursor[term];
      if (upTo > started[term]) started[term] = upTo;
    };
    fill((term, doc, impact) => {
      const d = p.dense[term];
      if (d) d[doc] = impact;
      else {
        const block = doc >>> BLOCK_BITS;
        if (block > started[term]) startBlocks(term, block);
        const at = cursor[term]++;
        p.docs[at] = doc & (BLOCK_SIZE - 1);
        p.impacts[at] = impact;
      }
    });
    for (let t = 0; t < termCount; t++) startBlocks(t, blocks - 1);
    return p;
  }

  get size(): number {
    return this.docs.length + this.denseCount + this.deltaSize;
  }

  get pendingDelta(): number {
    return this.deltaSize;
  }

  slices(term: number): Slice[] {
    const d = this.dense[term];
    if (d) return [{ docs: NO_DOCS, impacts: NO_IMPACTS, start: 0, end: 0, base: 0, dense: d }];
    const out: Slice[] = [];
    if (term < this.baseTerms) {
      const at = term * this.blocks;
      for (let b = 0; b < this.blocks; b++) {
        const start = this.offsets[at + b];
        const end = this.offsets[at + b + 1];
        if (start < end) out.push({ docs: this.docs, impacts: this.impacts, start, end, base: b << BLOCK_BITS, dense: null });
      }
    }
    for (const run of this.delta[term] ?? []) out.push({ docs: run.docs, impacts: run.impacts, start: 0, end: run.n, base: run.base, dense: null });
    return out;
  }

  append(term: number, doc: number, impact: number): void {
    const dense = this.dense[term];
    if (dense) {
      const grown = ensureCapacity(dense, doc + 1);
      grown[doc] = impact;
      this.dense[term] = grown;
      this.denseCount++;
      return;
    }
    const base = doc - (doc & (BLOCK_SIZE - 1));
    const runs = (this.delta[term] ??= []);
    let run = runs.at(-1);
    if (run?.base !== base) {
      run = { base, docs: new Uint16Array(4), impacts: new Uint8Array(4), n: 0 };
      runs.push(run);
    }
    run.docs = ensureCapacity(run.docs, run.n + 1);
    run.impacts = ensureCapacity(run.impacts, run.n + 1);
    run.docs[run.n] = doc - base;
    run.impacts[run.n] = impact;
    run.n++;
    this.deltaSize++;
  }

  save(w: SnapshotWriter): void {
    // The base segment is made once and never written to (a compaction makes a new one).
    w.int(this.blocks);
    w.fixedArray(this.offsets);
    w.fixedArray(this.docs);
    w.fixedArray(this.impacts);
    w.int(this.baseTerms);
    const dense = [...this.dense.entries()].filter(([, d]) => d !== undefined);
    w.int(dense.length);
    for (const [term, d] of dense) {
      w.int(term);
      w.array(d!);
    }
    w.int(this.denseCount);
    const delta = [...this.delta.entries()].filter(([, runs]) => runs !== undefined);
    w.int(delta.length);
    for (const [term, runs] of delta) {
      w.int(term);
      w.int(runs!.length);
      for (const run of runs!) {
        w.int(run.base);
        w.array(run.docs, run.n);
        w.array(run.impacts, run.n);
      }
    }
    w.int(this.deltaSize);
  }

  static load(r: SnapshotReader): Postings {
    const p = new Postings();
    p.blocks = r.int();
    p.offsets = r.array(Uint32Array);
    p.docs = r.array(Uint16Array);
    p.impacts = r.array(Uint8Array);
    p.baseTerms = r.int();
    if (
      p.blocks < 1 ||
      p.offsets.length !== p.baseTerms * p.blocks + 1 ||
      p.offsets[p.baseTerms * p.blocks] !== p.docs.length ||
      p.impacts.length !== p.docs.length
    ) {
      throw new Error('snapshot postings of inconsistent sizes');
    }
    for (let n = r.int(); n > 0; n--) p.dense[r.int()] = r.array(Uint8Array);
    p.denseCount = r.int();
    for (let n = r.int(); n > 0; n--) {
      const runs: DeltaRun[] = (p.delta[r.int()] = []);
      for (let k = r.int(); k > 0; k--) {
        const base = r.int();
        const docs = r.array(Uint16Array);
        const impacts = r.array(Uint8Array);
        if (impacts.length !== docs.length || base % BLOCK_SIZE !== 0) throw new Error('snapshot postings of inconsistent sizes');
        runs.push({ base, docs, impacts, n: docs.length });
      }
    }
    p.deltaSize = r.int();
    return p;
  }

  /** Folds the delta lists into a new base segment, dropping postings of documents no longer alive. */
  compact(termCount: number, docCount: number, alive: (doc: number) => boolean): Postings {
    const counts = new Int32Array(termCount);
    this.forEachPosting(termCount, alive, (t) => counts[t]++);
    return Postings.build(counts, termCount, docCount, (put) => this.forEachPosting(termCount, alive, put));
  }

  private forEachPosting(termCount: number, alive: (doc: number) => boolean, f: (t: number, doc: number, impact: number) => void): void {
    for (let t = 0; t < termCount; t++) {
      for (const s of this.slices(t)) {
        if (s.dense) {
          for (let doc = 0; doc < s.dense.length; doc++) if (s.dense[doc] > 0 && alive(doc)) f(t, doc, s.dense[doc]);
        } else {
          for (let i = s.start; i < s.end; i++) if (alive(s.base + s.docs[i])) f(t, s.base + s.docs[i], s.impacts[i]);
        }
      }
    }
  }
}
