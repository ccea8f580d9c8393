import { Charset, Document } from 'flexsearch';
import { normalizeText } from '../../../src/modules/search/engine/normalize.js';
import type { SearchDoc } from '../../../src/modules/search/engine/types.js';
import { docFields, PEER_BOOST, type BenchEngine } from './engine.js';

const FIELDS = ['name', 'themes', 'depts', 'titles', 'body'] as const;

/**
 * FlexSearch 0.8 document index with its CJK encoder (text pre-normalised like ours, so
 * traditional queries get a chance), partial matches allowed (suggest), region as a tag.
 * FlexSearch ranks per field only; the fields' lists are fused by weighted reciprocal rank.
 */
export class FlexSearchEngine implements BenchEngine {
  readonly name = 'FlexSearch 0.8';
  // The typings of Document's options do not fit a CJK document set up like this one.
  private index: any = null;

  build(docs: SearchDoc[]): void {
    const index = new Document({
      document: {
        id: 'id',
        index: FIELDS.map((field) => ({ field, tokenize: field === 'name' ? 'forward' : 'strict', encoder: Charset.CJK })),
        tag: [{ field: 'region' }],
      },
    } as never);
    for (const d of docs) {
      if (!d.visible) continue;
      const f = docFields(d);
      const doc: Record<string, string> = { id: d.permitId, region: d.regionId };
      for (const k of FIELDS) doc[k] = normalizeText(f[k]);
      index.add(doc as never);
    }
    this.index = index;
  }

  search(query: string, regionIds: string[] | null): string[] {
    const q = normalizeText(query).trim();
    if (!q) return [];
    const opts: Record<string, unknown> = { limit: 50, suggest: true };
    if (regionIds) opts.tag = { region: regionIds };
    const perField = this.index.search(q, opts) as { field: string; result: string[] }[];
    const score = new Map<string, number>();
    for (const { field, result } of perField) {
      const w = PEER_BOOST[field as keyof typeof PEER_BOOST] ?? 1;
      result.forEach((id, rank) => score.set(id, (score.get(id) ?? 0) + w / (rank + 1)));
    }
    return [...score.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, 20)
      .map(([id]) => id);
  }
}
