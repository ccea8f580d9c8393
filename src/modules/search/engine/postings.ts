import type { SnapshotReader, SnapshotWriter } from './snapshot-codec.js';
import { ensureCapacity } from './typed-arrays.js';

/**
 * The postings of one term in one segment: either a docId-ascending run of (doc, impact)
 * pairs, or — for terms most documents hold — a dense impact per document id (0 = absent),
 * which is smaller than pairs at that frequency and answers "does doc d hold it" with one read.
 */
export interface Slice {
  docs: Uint32Array;
  impacts: Uint8Array;
  start: number;
  end: number;
  dense: Uint8Array | null;
}

interface DeltaList {
  docs: Uint32Array;
  impacts: Uint8Array;
  n: number;
}

const NO_DOCS = new Uint32Array(0);
const NO_IMPACTS = new Uint8Array(0);
/** A term held by at least this share of the documents is stored dense. */
const DENSE_SHARE = 0.2;
const DENSE_MIN_DOCS = 512;

/**
 * Postings as typed arrays: a compact base segment (one CSR block for all sparse terms, built
 * once), dense impact arrays for very common terms, plus small per-term delta lists for
 * documents added since the base was built. Document ids only grow, so every list stays sorted
 * by appending; removed documents are skipped by the searchable bitset and dropped at the next
 * compaction.
 */
export class Postings {
  private offsets = new Uint32Array(1);
  private docs = new Uint32Array(0);
  private impacts = new Uint8Array(0);
  private baseTerms = 0;
  private dense: (Uint8Array | undefined)[] = [];
  private denseCount = 0;
  private delta: (DeltaList | undefined)[] = [];
  private deltaSize = 0;

  /**
   * Base segment from exact per-term counts over `docCount` document ids; `fill` calls put()
   * in ascending doc order per term.
   */
  static build(counts: Int32Array, termCount: number, docCount: number, fill: (put: (term: number, doc: number, impact: number) => void) => void): Postings {
    const p = new Postings();
    p.baseTerms = termCount;
    p.offsets = new Uint32Array(termCount + 1);
    const denseFrom = docCount >= DENSE_MIN_DOCS ? Math.max(1, Math.floor(docCount * DENSE_SHARE)) : Infinity;
    for (let t = 0; t < termCount; t++) {
      const isDense = counts[t] >= denseFrom;
      if (isDense) {
        // Headroom, so the first documents added after a build do not reallocate every dense array.
        p.dense[t] = new Uint8Array(docCount + (docCount >> 3) + 64);
        p.denseCount += counts[t];
      }
      p.offsets[t + 1] = p.offsets[t] + (isDense ? 0 : counts[t]);
    }
    const total = p.offsets[termCount];
    p.docs = new Uint32Array(total);
    p.impacts = new Uint8Array(total);
    const cursor = p.offsets.slice(0, termCount);
    fill((term, doc, impact) => {
      const d = p.dense[term];
      if (d) d[doc] = impact;
      else {
        const at = cursor[term]++;
        p.docs[at] = doc;
        p.impacts[at] = impact;
      }
    });
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
    if (d) return [{ docs: NO_DOCS, impacts: NO_IMPACTS, start: 0, end: 0, dense: d }];
    const out: Slice[] = [];
    if (term < this.baseTerms && this.offsets[term] < this.offsets[term + 1]) {
      out.push({ docs: this.docs, impacts: this.impacts, start: this.offsets[term], end: this.offsets[term + 1], dense: null });
    }
    const l = this.delta[term];
    if (l && l.n > 0) out.push({ docs: l.docs, impacts: l.impacts, start: 0, end: l.n, dense: null });
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

  save(w: SnapshotWriter): void {
    w.array(this.offsets);
    w.array(this.docs);
    w.array(this.impacts);
    w.int(this.baseTerms);
    const dense = [...this.dense.entries()].filter(([, d]) => d !== undefined);
    w.int(dense.length);
    for (const [term, d] of dense) {
      w.int(term);
      w.array(d!);
    }
    w.int(this.denseCount);
    const delta = [...this.delta.entries()].filter(([, l]) => l !== undefined);
    w.int(delta.length);
    for (const [term, l] of delta) {
      w.int(term);
      w.array(l!.docs, l!.n);
      w.array(l!.impacts, l!.n);
    }
    w.int(this.deltaSize);
  }

  static load(r: SnapshotReader): Postings {
    const p = new Postings();
    p.offsets = r.array(Uint32Array);
    p.docs = r.array(Uint32Array);
    p.impacts = r.array(Uint8Array);
    p.baseTerms = r.int();
    if (p.offsets.length !== p.baseTerms + 1 || p.offsets[p.baseTerms] !== p.docs.length || p.impacts.length !== p.docs.length) {
      throw new Error('snapshot postings of inconsistent sizes');
    }
    for (let n = r.int(); n > 0; n--) p.dense[r.int()] = r.array(Uint8Array);
    p.denseCount = r.int();
    for (let n = r.int(); n > 0; n--) {
      const term = r.int();
      const docs = r.array(Uint32Array);
      const impacts = r.array(Uint8Array);
      if (impacts.length !== docs.length) throw new Error('snapshot postings of inconsistent sizes');
      p.delta[term] = { docs, impacts, n: docs.length };
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
          for (let i = s.start; i < s.end; i++) if (alive(s.docs[i])) f(t, s.docs[i], s.impacts[i]);
        }
      }
    }
  }
}
