import type { ExistingPermit, PlanRef } from './import-plan.types.js';
import { refKey } from './plan-refs.js';

/**
 * Identity of a permit inside one workbook: region + code, else region + name. The same key on
 * several sheets (or twice on one) is one permit.
 */
export function permitKey(region: PlanRef, code: string | null, name: string): string {
  return `${refKey(region)}\u0000${code !== null ? `c:${code}` : `n:${name}`}`;
}

/** Finds the stored permit a workbook permit stands for, each stored permit at most once. */
export class ExistingIndex {
  private readonly byCode = new Map<string, ExistingPermit>();
  private readonly byName = new Map<string, ExistingPermit[]>();
  private readonly claimed = new Set<number>();

  constructor(permits: ExistingPermit[]) {
    for (const p of permits) {
      if (p.code !== null) this.byCode.set(`${p.region_id}\u0000${p.code}`, p);
      const k = `${p.region_id}\u0000${p.name}`;
      const list = this.byName.get(k);
      if (list) list.push(p);
      else this.byName.set(k, [p]);
    }
  }

  /**
   * By code when the workbook gives one; a permit stored without a code is still found by its
   * name (the workbook then supplies the code). Without a code, by name, preferring a stored
   * permit that has no code either.
   */
  match(regionId: number | null, code: string | null, name: string): ExistingPermit | null {
    if (regionId === null) return null;
    const free = (p: ExistingPermit | undefined) => (p && !this.claimed.has(p.id) ? p : undefined);
    const named = (this.byName.get(`${regionId}\u0000${name}`) ?? []).filter((p) => !this.claimed.has(p.id));
    const hit =
      code !== null
        ? (free(this.byCode.get(`${regionId}\u0000${code}`)) ?? named.find((p) => p.code === null))
        : (named.find((p) => p.code === null) ?? named[0]);
    if (!hit) return null;
    this.claimed.add(hit.id);
    return hit;
  }
}
