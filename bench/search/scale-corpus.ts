import type { SearchDoc, SearchRisk } from '../../src/modules/search/engine/types.js';

/**
 * Synthetic scale corpus: the real catalogue replicated over generated regions (three regions
 * per copy, mirroring the city and its two districts) until `permits` permits, each with
 * `risksPerPermit` risks: its own risks, then risks of permits of the same department, all
 * perturbed (clauses shuffled, dropped or borrowed from other risks, amounts and periods
 * changed, a place name swapped) so that no two copies index the same text. Deterministic.
 */
export function scaleCorpus(real: SearchDoc[], permits = 100_000, risksPerPermit = 10, seed = 42): SearchDoc[] {
  const rnd = mulberry32(seed);
  const pick = <T>(xs: T[]): T => xs[Math.floor(rnd() * xs.length)];
  const regionsOrder = [...new Set(real.map((d) => d.regionId))];
  const byDept = new Map<string, SearchRisk[]>();
  const allRisks: SearchRisk[] = [];
  for (const d of real) {
    for (const r of d.risks) {
      allRisks.push(r);
      for (const dept of d.approvalDepartments) {
        const list = byDept.get(dept) ?? [];
        list.push(r);
        byDept.set(dept, list);
      }
    }
  }
  const clauses = allRisks.flatMap((r) => splitClauses(r.description ?? ''));
  const out: SearchDoc[] = [];
  for (let copy = 0; out.length < permits; copy++) {
    for (const d of real) {
      if (out.length >= permits) break;
      const r = regionsOrder.indexOf(d.regionId);
      const regionId = `9${String(copy).padStart(4, '0')}${r}`;
      const regionName = `合成${copy}${['市', '东区', '西区'][r] ?? '区'}`;
      const permitId = `${regionId}:${d.code ?? d.permitId}`;
      const pool = [...d.risks];
      const related = byDept.get(d.approvalDepartments[0] ?? '') ?? allRisks;
      while (pool.length < risksPerPermit) pool.push(pick(related.length > 3 ? related : allRisks));
      const risks = pool
        .slice(0, risksPerPermit)
        .map((risk, i) => ({
          ...risk,
          id: `${permitId}:r${i + 1}`,
          title: rnd() < 0.2 ? `${risk.title}（${pick(['初次', '再次', '多次', '情节较重'])}）` : risk.title,
          description: perturb(risk.description, regionName),
          consequence: rnd() < 0.3 ? changeAmounts(risk.consequence) : risk.consequence,
        }));
      out.push({ ...d, permitId, regionId, regionName, risks });
    }
  }
  return out;

  function perturb(text: string | null, place: string): string | null {
    if (!text) return text;
    let parts = splitClauses(text);
    if (parts.length > 1 && rnd() < 0.3) parts = shuffle(parts);
    if (parts.length > 2 && rnd() < 0.3) parts.splice(Math.floor(rnd() * parts.length), 1);
    if (rnd() < 0.4) parts.splice(Math.floor(rnd() * (parts.length + 1)), 0, pick(clauses));
    if (rnd() < 0.2) parts.unshift(`${place}辖区内`);
    return changeAmounts(parts.join('，') + '。');
  }

  function changeAmounts(text: string | null): string | null {
    if (!text) return text;
    return text.replace(/[一二三四五六七八九十百千万\d]+(?=(万元|元|日|个工作日|年|个月))/g, () => String(1 + Math.floor(rnd() * 50)));
  }

  function shuffle<T>(xs: T[]): T[] {
    const a = [...xs];
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a;
  }
}

function splitClauses(text: string): string[] {
  return text
    .split(/[，；。]/)
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** Small seeded PRNG (mulberry32): same corpus and queries on every run. */
export function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
