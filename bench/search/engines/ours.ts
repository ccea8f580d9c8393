import { SearchIndex } from '../../../src/modules/search/engine/index.js';
import type { SearchDoc } from '../../../src/modules/search/engine/types.js';
import type { BenchEngine } from './engine.js';

export class OurEngine implements BenchEngine {
  readonly name = 'lawrisk engine';
  private index = SearchIndex.build([]);

  build(docs: SearchDoc[]): void {
    this.index = SearchIndex.build(docs);
  }

  search(query: string, regionIds: string[] | null): string[] {
    return this.index.search(query, { regionIds }).hits.map((h) => h.doc.permitId);
  }
}
