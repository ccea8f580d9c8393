import type { RiskSubject } from '../../src/modules/search/search.presenter.js';
import { LoadPlan, type PlannedPermit } from './load-plan.js';

const same = (a: string[], b: string[]) => a.length === b.length && a.every((x, i) => x === b[i]);
const shown = (titles: string[]) => `[${titles.join(' | ')}]`;

/**
 * Checks the `risk_subject` items of one `/v2` answer against the plan of the mixed bench:
 * a versioned permit shows exactly the risks of one committed round (all carrying its marker,
 * as many as that round wrote), a restorable permit exactly its own risks, and no permit twice.
 * `mustFind` names a permit the answer has to contain (an exact-name search of a permit that
 * is never deleted). Answers the violations found, each described in one line.
 */
export function checkItems(plan: LoadPlan, items: RiskSubject[], opts: { highestRound: number; mustFind: PlannedPermit | null }): string[] {
  const versioned = new Map(plan.versioned.map((p) => [p.name, p]));
  const restorable = new Map(plan.restorable.map((p) => [p.name, p]));
  const violations: string[] = [];
  const seen = new Set<string>();
  for (const item of items) {
    if (item.region.name !== plan.region.name) continue;
    const name = item.permit.name;
    if (seen.has(name)) violations.push(`${name} appears twice in one answer`);
    seen.add(name);
    const titles = item.risks.map((r) => r.title);
    const v = versioned.get(name);
    if (v) {
      const rounds = [...new Set(titles.map((t) => LoadPlan.roundOf(t)))];
      if (rounds.length !== 1 || rounds[0] === null) {
        violations.push(`${name}: risks of several rounds or none ${shown(titles)}`);
        continue;
      }
      const round = rounds[0];
      if (round > opts.highestRound) violations.push(`${name}: round ${round} shown, only ${opts.highestRound} started`);
      else if (!same(titles, plan.versionTitles(v, round))) {
        violations.push(`${name}: round ${round} shows ${titles.length} risks, committed ${plan.versionTitles(v, round).length} ${shown(titles)}`);
      }
      continue;
    }
    const r = restorable.get(name);
    if (!r) violations.push(`${name}: a permit the bench never wrote, in its region`);
    else if (!same(titles, plan.restorableTitles(r))) {
      violations.push(`${name}: ${titles.length} risks, restored ones are ${plan.restorableTitles(r).length} ${shown(titles)}`);
    }
  }
  if (opts.mustFind && !seen.has(opts.mustFind.name)) violations.push(`${opts.mustFind.name}: missing from the answer to its own name`);
  return violations;
}
