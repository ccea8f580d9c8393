import { seek } from './typed-arrays.js';
import type { Slice } from './postings.js';

/** One posting slice of a query term with its score multiplier and upper bound. */
export interface ScoredList extends Slice {
  /** Score of a posting = weight × impact. */
  weight: number;
  /** weight × the term's largest impact: no posting of the list scores more. */
  bound: number;
}

export interface Candidate {
  doc: number;
  score: number;
}

/**
 * Top-k documents by summed term scores, document-at-a-time with MaxScore pruning: lists whose
 * bounds together cannot lift a document over the current threshold are only probed for
 * documents found in the others. The threshold starts at `floor` and rises with the k-th best
 * score and with `relative` × the best score (hits under that share are cut later anyway).
 * Only documents set in `allowed` are scored: region and visibility filtering happen here.
 */
export function retrieveTopK(lists: ScoredList[], allowed: Uint32Array, k: number, floor: number, relative: number): Candidate[] {
  lists.sort((a, b) => a.bound - b.bound);
  const n = lists.length;
  const prefix = new Float64Array(n);
  let acc = 0;
  for (let i = 0; i < n; i++) prefix[i] = acc += lists[i].bound;
  const pos = new Int32Array(n);
  for (let i = 0; i < n; i++) pos[i] = lists[i].start;

  const heap = new MinHeap(k);
  let threshold = floor;
  let best = 0;
  let firstEssential = 0;
  while (firstEssential < n && prefix[firstEssential] < threshold) firstEssential++;

  while (firstEssential < n) {
    let doc = 0xffffffff;
    for (let i = firstEssential; i < n; i++) {
      const l = lists[i];
      if (pos[i] < l.end && l.docs[pos[i]] < doc) doc = l.docs[pos[i]];
    }
    if (doc === 0xffffffff) break;
    let score = 0;
    for (let i = firstEssential; i < n; i++) {
      const l = lists[i];
      if (pos[i] < l.end && l.docs[pos[i]] === doc) score += l.weight * l.impacts[pos[i]++];
    }
    if (((allowed[doc >>> 5] >>> (doc & 31)) & 1) === 0) continue;
    let pruned = false;
    for (let i = firstEssential - 1; i >= 0; i--) {
      if (score + prefix[i] < threshold) {
        pruned = true;
        break;
      }
      const l = lists[i];
      const at = (pos[i] = seek(l.docs, pos[i], l.end, doc));
      if (at < l.end && l.docs[at] === doc) score += l.weight * l.impacts[at];
    }
    if (pruned || score < threshold || score <= 0) continue;
    heap.push(doc, score);
    if (score > best) best = score;
    const next = Math.max(threshold, heap.full ? heap.minScore : 0, relative * best);
    if (next > threshold) {
      threshold = next;
      while (firstEssential < n && prefix[firstEssential] < threshold) firstEssential++;
    }
  }
  return heap.drain();
}

/** Fixed-size min-heap of (doc, score): keeps the k best. */
class MinHeap {
  private readonly docs: Uint32Array;
  private readonly scores: Float64Array;
  private n = 0;

  constructor(private readonly k: number) {
    this.docs = new Uint32Array(k);
    this.scores = new Float64Array(k);
  }

  get full(): boolean {
    return this.n === this.k;
  }

  get minScore(): number {
    return this.scores[0];
  }

  push(doc: number, score: number): void {
    if (this.n < this.k) {
      let i = this.n++;
      while (i > 0) {
        const p = (i - 1) >> 1;
        if (this.scores[p] <= score) break;
        this.docs[i] = this.docs[p];
        this.scores[i] = this.scores[p];
        i = p;
      }
      this.docs[i] = doc;
      this.scores[i] = score;
    } else if (score > this.scores[0]) {
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        if (l >= this.n) break;
        const c = l + 1 < this.n && this.scores[l + 1] < this.scores[l] ? l + 1 : l;
        if (this.scores[c] >= score) break;
        this.docs[i] = this.docs[c];
        this.scores[i] = this.scores[c];
        i = c;
      }
      this.docs[i] = doc;
      this.scores[i] = score;
    }
  }

  drain(): Candidate[] {
    const out: Candidate[] = [];
    for (let i = 0; i < this.n; i++) out.push({ doc: this.docs[i], score: this.scores[i] });
    return out.sort((a, b) => b.score - a.score || a.doc - b.doc);
  }
}
