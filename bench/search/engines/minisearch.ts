import MiniSearch from 'minisearch';
import type { SearchDoc } from '../../../src/modules/search/engine/types.js';
import { docFields, PEER_BOOST, type BenchEngine } from './engine.js';
import { chineseTokens } from './chinese-tokens.js';

type Fields = ReturnType<typeof docFields> & { id: string; region: string };

/** MiniSearch 7 (BM25+) with a jieba + bigram tokenizer, field boosts, OR semantics. */
export class MiniSearchEngine implements BenchEngine {
  readonly name = 'MiniSearch 7';
  private ms: MiniSearch<Fields> | null = null;

  build(docs: SearchDoc[]): void {
    const ms = new MiniSearch<Fields>({
      fields: ['name', 'themes', 'depts', 'titles', 'body'],
      storeFields: ['region'],
      tokenize: chineseTokens,
      processTerm: (t) => t,
      searchOptions: { boost: PEER_BOOST, combineWith: 'OR', prefix: false, fuzzy: false },
    });
    for (const d of docs) if (d.visible) ms.add({ id: d.permitId, region: d.regionId, ...docFields(d) });
    this.ms = ms;
  }

  search(query: string, regionIds: string[] | null): string[] {
    const regions = regionIds ? new Set(regionIds) : null;
    const res = this.ms!.search(query, regions ? { filter: (r) => regions.has(r.region as string) } : {});
    return res.slice(0, 20).map((r) => String(r.id));
  }
}
