import { describe, expect, it } from 'vitest';
import { ImpactCursor, accumulate, probe } from './kernels.js';
import { BLOCK_SIZE, Postings } from './postings.js';
import type { ScoredList } from './retrieve.js';
import { SnapshotReader, SnapshotWriter } from './snapshot-codec.js';

const DOCS = BLOCK_SIZE + 5_000;
/** Term 0's postings, on both sides of the first block edge; term 1 is held by nearly every document (stored dense). */
const HELD: [number, number][] = [
  [5, 2],
  [BLOCK_SIZE - 1, 4],
  [BLOCK_SIZE, 6],
  [DOCS - 1, 8],
];

function built(): Postings {
  const counts = new Int32Array([HELD.length, DOCS - 1]);
  return Postings.build(counts, 2, DOCS, (put) => {
    for (let doc = 0; doc < DOCS; doc++) {
      const held = HELD.find(([d]) => d === doc);
      if (held) put(0, doc, held[1]);
      if (doc !== 7) put(1, doc, 3);
    }
  });
}

const lists = (p: Postings, term: number): ScoredList[] => p.slices(term).map((s) => ({ ...s, weight: 1, bound: 8, term }));
/** Every (document, impact) of a term as the slices give them. */
const pairs = (p: Postings, term: number) =>
  lists(p, term).flatMap((l) => Array.from({ length: l.end - l.start }, (_, i) => [l.base + l.docs[l.start + i], l.impacts[l.start + i]]));

describe('postings in blocks of document ids', () => {
  it('gives each term its documents across blocks, to every reader', () => {
    const p = built();
    expect(lists(p, 0).map((l) => l.base)).toEqual([0, BLOCK_SIZE]);
    expect(pairs(p, 0)).toEqual(HELD);
    expect(lists(p, 1)).toHaveLength(1);
    expect(lists(p, 1)[0].dense).not.toBeNull();

    const candidates = Int32Array.from([0, 5, 6, BLOCK_SIZE - 1, BLOCK_SIZE, BLOCK_SIZE + 1, DOCS - 1]);
    const want = Array.from(candidates, (d) => HELD.find(([h]) => h === d)?.[1] ?? 0);
    const acc = new Float32Array(DOCS);
    for (const l of lists(p, 0)) probe(l, candidates, candidates.length, acc);
    expect(Array.from(candidates, (d) => acc[d])).toEqual(want);

    const cursors = lists(p, 0).map((l) => new ImpactCursor(l));
    expect(Array.from(candidates, (d) => cursors.reduce((sum, c) => sum + c.at(d), 0))).toEqual(want);

    const all = new Uint32Array(Math.ceil(DOCS / 32)).fill(0xffffffff);
    const scanned = new Float32Array(DOCS);
    let touched = 0;
    for (const l of lists(p, 0)) touched = accumulate(l, all, scanned, new Int32Array(DOCS), touched);
    expect(touched).toBe(HELD.length);
    expect(HELD.map(([d]) => scanned[d])).toEqual(HELD.map(([, i]) => i));
  });

  it('keeps documents added after the build in runs per block, through a compaction and a snapshot', () => {
    const p = built();
    p.append(0, DOCS, 10);
    p.append(0, DOCS + BLOCK_SIZE, 12);
    const added: [number, number][] = [...HELD, [DOCS, 10], [DOCS + BLOCK_SIZE, 12]];
    expect(pairs(p, 0)).toEqual(added);
    const compacted = p.compact(2, DOCS + BLOCK_SIZE + 1, (d) => d !== 5);
    expect(pairs(compacted, 0)).toEqual(added.filter(([d]) => d !== 5));
    const w = new SnapshotWriter();
    p.save(w);
    return w.finish().then((parts) => expect(pairs(Postings.load(SnapshotReader.of(Buffer.concat(parts))), 0)).toEqual(added));
  });
});
