import type { ParsedPermit, ParsedRisk } from './parser/types.js';
import { RISK_FIELD_NAMES, type RiskFields } from '../permits/risk.schema.js';
import type { ExistingPermit, PermitFields } from './import-plan.types.js';

/** Blank text is stored as null, so '' in a cell and NULL in the database compare equal. */
export function text(v: string | null | undefined): string | null {
  if (v === null || v === undefined) return null;
  const t = String(v).trim();
  return t === '' ? null : t;
}

/** Written out field by field: this runs once per risk row of a workbook. */
export function riskFieldsOf(r: ParsedRisk): RiskFields {
  return {
    risk_type: text(r.riskType),
    title: text(r.title) ?? '',
    description: text(r.description),
    legal_basis: text(r.legalBasis),
    consequence: text(r.consequence),
    prevention: text(r.prevention),
    level: text(r.level),
  };
}

export function permitFieldsOf(p: ParsedPermit, visible: boolean): PermitFields {
  const [code, implementation_level, internal_contact, contact_info] = [p.code, p.implementationLevel, p.internalContact, p.contactInfo].map(text);
  return { code, name: text(p.name) ?? '', implementation_level, internal_contact, contact_info, visible };
}

export function departmentsOf(p: ParsedPermit): string[] {
  return [...new Set(p.approvalDepartments.map((d) => d.trim()).filter((d) => d !== ''))];
}

const FIELD_NAMES: Array<keyof PermitFields> = ['code', 'name', 'implementation_level', 'internal_contact', 'contact_info', 'visible'];

/** One string per risk for comparing lists: fields joined by control characters XML (so xlsx text) cannot hold; null kept apart from ''. */
const riskKey = (r: RiskFields) => RISK_FIELD_NAMES.map((k) => (r[k] === null ? '\u0000' : r[k])).join('\u0001');

const sameList = (a: string[], b: string[]) => a.length === b.length && a.every((v, i) => v === b[i]);

/** Risks present in `a` and not in `b`, counted as a multiset (a duplicated risk counts twice). */
function multisetMinus(a: string[], b: string[]): number {
  const left = new Map<string, number>();
  for (const k of b) left.set(k, (left.get(k) ?? 0) + 1);
  let n = 0;
  for (const k of a) {
    const c = left.get(k) ?? 0;
    if (c > 0) left.set(k, c - 1);
    else n += 1;
  }
  return n;
}

export interface ContentDiff {
  changedFields: string[];
  risksAdded: number;
  risksRemoved: number;
}

/**
 * What applying the workbook's version of a permit would change: the permit columns, the
 * approval departments (in order) and the risk list (in order, on every field). Theme changes
 * are added by the caller, who knows the union rule.
 */
export function diffContent(fields: PermitFields, departments: string[], risks: RiskFields[], existing: ExistingPermit | null): ContentDiff {
  if (!existing) return { changedFields: [], risksAdded: risks.length, risksRemoved: 0 };
  const newKeys = risks.map(riskKey);
  const changedFields: string[] = FIELD_NAMES.filter((f) => fields[f] !== existing[f]);
  if (!sameList(departments, existing.approvalDepartments)) changedFields.push('approval_departments');
  const oldKeys = existing.risks.map(riskKey);
  if (!sameList(newKeys, oldKeys)) changedFields.push('risks');
  return { changedFields, risksAdded: multisetMinus(newKeys, oldKeys), risksRemoved: multisetMinus(oldKeys, newKeys) };
}

/** True when two occurrences of one permit in the workbook carry different content. */
export function sameContent(
  a: { fields: PermitFields; departments: string[]; risks: RiskFields[] },
  b: { fields: PermitFields; departments: string[]; risks: RiskFields[] },
): boolean {
  return (
    FIELD_NAMES.every((f) => a.fields[f] === b.fields[f]) && sameList(a.departments, b.departments) && sameList(a.risks.map(riskKey), b.risks.map(riskKey))
  );
}
