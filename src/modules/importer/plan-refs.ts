import type { PlanRef } from './import-plan.types.js';

/**
 * How names written in a workbook are matched with the catalog: width-, case- and
 * whitespace-insensitive, so 开办民办学校(含幼儿园) finds 开办民办学校（含幼儿园）.
 */
export function nameKey(text: string): string {
  return text.normalize('NFKC').replace(/\s+/g, '').toLowerCase();
}

/** Stable identity of a reference inside one plan (existing id, or the name it will be created under). */
export function refKey(ref: PlanRef): string {
  return ref.id !== null ? `#${ref.id}` : `+${nameKey(ref.name)}`;
}

/**
 * Existing regions or themes by id, name (and code for regions), handing out one shared PlanRef
 * per name that does not exist yet, so every sheet naming it points at the same future row.
 */
export class RefIndex {
  private readonly byId = new Map<string, PlanRef>();
  private readonly byName = new Map<string, PlanRef>();
  private readonly created = new Map<string, PlanRef>();

  constructor(rows: Array<{ id: number; name: string; code?: string | null }>) {
    for (const r of rows) {
      const ref = { id: r.id, name: r.name };
      this.byId.set(String(r.id), ref);
      if (r.code) this.byName.set(nameKey(r.code), ref);
    }
    // Names win over codes when a code happens to equal another row's name.
    for (const r of rows) this.byName.set(nameKey(r.name), this.byId.get(String(r.id))!);
  }

  /** An existing row by name (or code), else by id when ids are accepted; undefined when unknown. */
  find(token: string, acceptId: boolean): PlanRef | undefined {
    const t = token.trim();
    return this.byName.get(nameKey(t)) ?? (acceptId ? this.byId.get(t) : undefined);
  }

  byIdOf(id: number): PlanRef | undefined {
    return this.byId.get(String(id));
  }

  /** The existing row, or the shared placeholder of a row to create. */
  resolve(token: string, acceptId: boolean): PlanRef {
    const found = this.find(token, acceptId);
    if (found) return found;
    const key = nameKey(token);
    let ref = this.created.get(key);
    if (!ref) {
      ref = { id: null, name: token.trim() };
      this.created.set(key, ref);
    }
    return ref;
  }
}

/** Distinct references in first-seen order. */
export function uniqueRefs(refs: Iterable<PlanRef>): PlanRef[] {
  const out = new Map<string, PlanRef>();
  for (const r of refs) if (!out.has(refKey(r))) out.set(refKey(r), r);
  return [...out.values()];
}
