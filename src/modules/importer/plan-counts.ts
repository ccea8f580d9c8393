import type { PlannedPermit, PlanRef, SheetCounts } from './import-plan.types.js';
import { refKey } from './plan-refs.js';

const zero = (): SheetCounts => ({ permits: 0, risks: 0, new: 0, changed: 0, unchanged: 0, risks_added: 0, risks_removed: 0, themes_linked: 0 });

/**
 * Counts of one sheet: its distinct permits and their status, the risk rows on the sheet, the
 * risk changes of the permits whose last occurrence it is (those are the risks applied), and the
 * theme links it adds.
 */
export function sheetCounts(sheetName: string, entries: Array<{ permit: PlannedPermit; themes: PlanRef[] }>, risks: number): SheetCounts {
  const c = zero();
  c.permits = entries.length;
  c.risks = risks;
  for (const { permit, themes } of entries) {
    c[permit.status] += 1;
    if (permit.lastSheet === sheetName) {
      c.risks_added += permit.risksAdded;
      c.risks_removed += permit.risksRemoved;
    }
    const added = new Set(permit.themesAdded.map(refKey));
    c.themes_linked += themes.filter((t) => added.has(refKey(t))).length;
  }
  return c;
}

/** Counts over distinct permits: a permit on several sheets counts once, with its final risk list. */
export function totalCounts(permits: PlannedPermit[]): SheetCounts {
  const c = zero();
  for (const p of permits) {
    c.permits += 1;
    c.risks += p.risks.length;
    c[p.status] += 1;
    c.risks_added += p.risksAdded;
    c.risks_removed += p.risksRemoved;
    c.themes_linked += p.themesAdded.length;
  }
  return c;
}
