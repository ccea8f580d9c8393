import { pinyin } from 'pinyin-pro';
import type { SearchDoc } from '../../src/modules/search/engine/types.js';
import { mulberry32 } from './scale-corpus.js';

export interface LatencyQuery {
  query: string;
  regionIds: string[] | null;
}

/**
 * Queries for latency runs: the dev queries plus ~1,000 generated from the corpus (name and
 * risk-title fragments, whole names, two-word risk queries, question-style sentences, pinyin
 * and initials of names; one in ten with a region filter), cycled to `total`. Deterministic.
 */
export function latencyQueries(docs: SearchDoc[], dev: LatencyQuery[], total = 10_000, seed = 7): LatencyQuery[] {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  const visible = docs.filter((d) => d.visible);
  const regions = [...new Set(docs.map((d) => d.regionId))];
  const cjk = (s: string) => s.replace(/[^\u4e00-\u9fff]/g, '');
  const fragment = (s: string, min: number, max: number) => {
    const t = cjk(s);
    const len = Math.min(t.length, min + Math.floor(rnd() * (max - min + 1)));
    const at = Math.floor(rnd() * Math.max(1, t.length - len + 1));
    return t.slice(at, at + len);
  };
  const makers: (() => string)[] = [
    () => fragment(pick(visible).name, 2, 6),
    () => pick(visible).name,
    () => fragment(pick(pick(visible).risks)?.title ?? '', 4, 8),
    () => `${fragment(pick(pick(visible).risks)?.title ?? '', 2, 4)} ${fragment(pick(pick(visible).risks)?.title ?? '', 2, 4)}`,
    () => `我想${fragment(pick(visible).name, 2, 5)}需要办什么证`,
    () => pinyin(fragment(pick(visible).name, 2, 4), { toneType: 'none', type: 'array', v: true }).join(''),
    () => pinyin(fragment(pick(visible).name, 3, 5), { pattern: 'first', toneType: 'none', type: 'array' }).join(''),
  ];
  const generated: LatencyQuery[] = [];
  for (let i = 0; i < 1000; i++) {
    const query = pick(makers)();
    if (query.trim() === '') continue;
    generated.push({ query, regionIds: rnd() < 0.1 ? [pick(regions)] : null });
  }
  const pool = [...dev, ...generated];
  const out: LatencyQuery[] = [];
  for (let i = 0; i < total; i++) out.push(pool[i % pool.length]);
  return out;
}
