import type { Pause, SnapshotReader, SnapshotWriter } from './snapshot-codec.js';
import { StoredDoc } from './stored-doc.js';
import { ensureCapacity } from './typed-arrays.js';
import type { SearchDoc } from './types.js';

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  return (((x + (x >>> 4)) & 0x0f0f0f0f) * 0x01010101) >>> 24;
}

/**
 * Per-document state: the documents by internal id, which ids are alive, which are searchable
 * (alive and visible) and one bitset of searchable documents per region.
 */
export class DocTable {
  readonly docs: (StoredDoc | null)[] = [];
  private readonly byPermit = new Map<string, number>();
  private readonly regionIndex = new Map<string, number>();
  private regionOf = new Uint32Array(0);
  private regionBits: Uint32Array[] = [];
  /** Alive and visible: what may be returned. */
  private searchable = new Uint32Array(0);
  aliveCount = 0;
  deadCount = 0;

  get capacity(): number {
    return this.docs.length;
  }

  idOf(permitId: string): number | undefined {
    return this.byPermit.get(permitId);
  }

  isAlive(doc: number): boolean {
    return this.docs[doc] != null;
  }

  add(given: SearchDoc): number {
    const id = this.docs.length;
    const doc = StoredDoc.of(given);
    this.docs.push(doc);
    this.growBitsets(id);
    this.byPermit.set(doc.permitId, id);
    let r = this.regionIndex.get(doc.regionId);
    if (r === undefined) {
      r = this.regionBits.length;
      this.regionIndex.set(doc.regionId, r);
      this.regionBits.push(new Uint32Array(this.searchable.length));
    }
    this.regionOf = ensureCapacity(this.regionOf, id + 1);
    this.regionOf[id] = r;
    if (doc.visible) {
      this.searchable[id >>> 5] |= 1 << (id & 31);
      this.regionBits[r][id >>> 5] |= 1 << (id & 31);
    }
    this.aliveCount++;
    return id;
  }

  remove(id: number): void {
    const doc = this.docs[id];
    if (!doc) return;
    this.docs[id] = null;
    if (this.byPermit.get(doc.permitId) === id) this.byPermit.delete(doc.permitId);
    this.searchable[id >>> 5] &= ~(1 << (id & 31));
    this.regionBits[this.regionOf[id]][id >>> 5] &= ~(1 << (id & 31));
    this.aliveCount--;
    this.deadCount++;
  }

  /**
   * The bitset of documents a search may return, with their count: every searchable one, or
   * those of the given regions (null when no region is known, i.e. nothing can match). The
   * bitset is read-only. (The count is an upper bound when no filter is given.)
   */
  allowedBits(regionIds: string[] | null | undefined): { bits: Uint32Array; count: number } | null {
    if (regionIds == null) return { bits: this.searchable, count: this.aliveCount };
    const picked = [...new Set(regionIds)].map((id) => this.regionIndex.get(id)).filter((r) => r !== undefined);
    if (picked.length === 0) return null;
    const bits = picked.length === 1 ? this.regionBits[picked[0]] : new Uint32Array(this.searchable.length);
    if (picked.length > 1) for (const r of picked) bits.forEach((_, i) => (bits[i] |= this.regionBits[r][i]));
    let count = 0;
    for (let i = 0; i < bits.length; i++) count += popcount(bits[i]);
    return { bits, count };
  }

  /**
   * Everything but the documents, copied now; the documents (as they are now: a document is never
   * changed, only replaced) are answered, for the caller to write after the rest with writeDocs.
   */
  save(w: SnapshotWriter): (StoredDoc | null)[] {
    w.strs([...this.regionIndex.keys()]);
    w.array(this.regionOf);
    w.int(this.regionBits.length);
    for (const bits of this.regionBits) w.array(bits);
    w.array(this.searchable);
    w.int(this.aliveCount);
    w.int(this.deadCount);
    return this.docs.slice();
  }

  /** A table of what save() wrote, without its documents yet (loadDocs). */
  static loadParts(r: SnapshotReader): DocTable {
    const t = new DocTable();
    r.strs().forEach((regionId, i) => t.regionIndex.set(regionId, i));
    t.regionOf = r.array(Uint32Array);
    for (let n = r.int(); n > 0; n--) t.regionBits.push(r.array(Uint32Array));
    t.searchable = r.array(Uint32Array);
    t.aliveCount = r.int();
    t.deadCount = r.int();
    return t;
  }

  /** The documents writeDocs wrote; throws when they do not fit the rest of the table. */
  loadDocs(r: SnapshotReader): void {
    const count = r.int();
    for (let id = 0; id < count; id++) {
      const doc = r.bool() ? StoredDoc.load(r) : null;
      this.docs.push(doc);
      if (doc) this.byPermit.set(doc.permitId, id);
    }
    const words = (count >>> 5) + 1;
    if (
      this.byPermit.size !== this.aliveCount ||
      this.regionOf.length < count ||
      this.regionBits.length !== this.regionIndex.size ||
      this.searchable.length < words ||
      this.regionBits.some((b) => b.length !== this.searchable.length)
    ) {
      throw new Error('snapshot document table of inconsistent sizes');
    }
  }

  /**
   * All bitsets always span every document id: the scoring loops read them unchecked, and a
   * read past the end of a typed array would throw them off their fast path.
   */
  private growBitsets(id: number): void {
    const words = (id >>> 5) + 1;
    if (words <= this.searchable.length) return;
    this.searchable = ensureCapacity(this.searchable, words);
    const size = this.searchable.length;
    for (let r = 0; r < this.regionBits.length; r++) this.regionBits[r] = ensureCapacity(this.regionBits[r], size);
  }
}

/** Documents encoded between two pauses: a permit carries its risks, each several texts. */
const DOCS_PER_SLICE = 200;

/** The documents DocTable.save answered, a slice at a time. */
export async function writeDocs(w: SnapshotWriter, docs: (StoredDoc | null)[], pause: Pause): Promise<void> {
  w.int(docs.length);
  for (let id = 0; id < docs.length; id++) {
    const doc = docs[id];
    w.bool(doc !== null);
    doc?.save(w);
    if (id % DOCS_PER_SLICE === DOCS_PER_SLICE - 1) await pause();
  }
}

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/** The order of documents of equal score: region, then permit code, then permit id — the same whatever an index's history. */
export function stableOrder(a: SearchDoc, b: SearchDoc): number {
  return cmp(a.regionId, b.regionId) || cmp(a.code ?? '', b.code ?? '') || cmp(a.permitId, b.permitId);
}
