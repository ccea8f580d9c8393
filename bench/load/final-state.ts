import SqliteDatabase from 'better-sqlite3';
import type { LoadPlan } from './load-plan.js';

/** What the successful writes of the mixed bench say the database must hold at the end. */
export interface ExpectedState {
  /** The last round whose commit answered 200. */
  lastRound: number;
  /** Per restorable permit (by index): present after its last successful delete or restore. */
  present: boolean[];
  checkpoints: number;
}

/**
 * Reads the plan's region and the checkpoints straight from the SQLite file (the server stopped)
 * and answers every difference from the expected state, one line each.
 */
export function compareDatabase(dbPath: string, plan: LoadPlan, expected: ExpectedState): string[] {
  const db = new SqliteDatabase(dbPath, { readonly: true });
  try {
    const rows = db
      .prepare(
        `select p.name, r.title from permits p join regions g on g.id = p.region_id
       left join risks r on r.permit_id = p.id where g.name = ? order by p.id, r.position`,
      )
      .all(plan.region.name) as { name: string; title: string | null }[];
    const actual = new Map<string, string[]>();
    for (const row of rows) {
      const titles = actual.get(row.name) ?? [];
      if (row.title !== null) titles.push(row.title);
      actual.set(row.name, titles);
    }
    const wanted = new Map<string, string[]>();
    for (const p of plan.versioned) wanted.set(p.name, plan.versionTitles(p, expected.lastRound));
    for (const p of plan.restorable) if (expected.present[p.index]) wanted.set(p.name, plan.restorableTitles(p));

    const diffs: string[] = [];
    for (const [name, titles] of wanted) {
      const have = actual.get(name);
      if (!have) diffs.push(`${name}: missing from the database`);
      else if (have.join('\n') !== titles.join('\n')) diffs.push(`${name}: ${have.length} risks [${have.join(' | ')}], expected ${titles.length}`);
    }
    for (const name of actual.keys()) if (!wanted.has(name)) diffs.push(`${name}: in the database, expected absent`);
    const { n } = db.prepare('select count(*) as n from checkpoints').get() as { n: number };
    if (n !== expected.checkpoints) diffs.push(`checkpoints: ${n} in the database, ${expected.checkpoints} created`);
    return diffs;
  } finally {
    db.close();
  }
}
