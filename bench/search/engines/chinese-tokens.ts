import { normalizeText } from '../../../src/modules/search/engine/normalize.js';
import { cutForSearch } from '../../../src/modules/search/engine/segmenter.js';
import { runsOf } from '../../../src/modules/search/engine/terms.js';

/**
 * The Chinese tokenizer the peers get for their best setup: the same normalisation as ours
 * (width, case, traditional → simplified), jieba search-mode words plus character bigrams for
 * CJK runs (single characters when a run is one character), latin/digit runs as tokens.
 */
export function chineseTokens(text: string): string[] {
  const out: string[] = [];
  for (const run of runsOf(normalizeText(text))) {
    const t = run.text;
    if (!run.cjk || t.length === 1) {
      out.push(t);
      continue;
    }
    for (let i = 0; i + 1 < t.length; i++) out.push(t.slice(i, i + 2));
    for (const w of cutForSearch(t)) if (w.length !== 2) out.push(w);
  }
  return out;
}

/** jieba search-mode words of the normalised query (for engines that take words, not bigrams). */
export function queryWords(text: string): string[] {
  const out: string[] = [];
  for (const run of runsOf(normalizeText(text))) out.push(...(run.cjk ? cutForSearch(run.text) : [run.text]));
  return [...new Set(out)];
}
