import type { Selectable } from 'kysely';
import type { PermitsTable, RisksTable } from '../permits/permits.table.js';
import type { SearchDoc } from './engine/types.js';

// The rows a search document is made of, as the database holds them. The loader reads them back;
// an import commit, which has just written them, hands its own over (importer/commit-search-docs.ts).

export type PermitDocRow = Pick<
  Selectable<PermitsTable>,
  'id' | 'region_id' | 'name' | 'code' | 'implementation_level' | 'internal_contact' | 'contact_info' | 'visible'
> & { region_name: string };

export interface ThemeDocRow {
  permit_id: number;
  id: number;
  name: string;
}

/** An approval department link; a permit's links come in their position order. */
export interface DepartmentDocRow {
  permit_id: number;
  name: string;
}

/** A risk; a permit's risks come in their position order. */
export type RiskDocRow = Omit<Selectable<RisksTable>, 'position'>;

export interface SearchDocRows {
  permits: PermitDocRow[];
  themes: ThemeDocRow[];
  departments: DepartmentDocRow[];
  risks: RiskDocRow[];
}

/** Themes by name (code point order, the same on every database whatever its collation), then id. */
const byName = (a: { id: string; name: string }, b: { id: string; name: string }) => (a.name < b.name ? -1 : a.name > b.name ? 1 : Number(a.id) - Number(b.id));

/** The one copy of a text to keep (search-docs.repository.ts, textInterner). */
export type Intern = <T extends string | null>(text: T) => T;

const asGiven: Intern = (text) => text;

/** The search documents of `permitIds`, in that order (ids without a permit row are left out); texts go through `intern`. */
export function assembleSearchDocs(permitIds: readonly number[], rows: SearchDocRows, intern: Intern = asGiven): SearchDoc[] {
  const byPermit = new Map<number, SearchDoc>();
  for (const p of rows.permits) {
    byPermit.set(p.id, {
      permitId: String(p.id),
      regionId: String(p.region_id),
      regionName: intern(p.region_name),
      name: intern(p.name),
      code: p.code,
      implementationLevel: intern(p.implementation_level),
      approvalDepartments: [],
      internalContact: intern(p.internal_contact),
      contactInfo: intern(p.contact_info),
      themes: [],
      visible: p.visible === 1,
      risks: [],
    });
  }
  for (const t of rows.themes) byPermit.get(t.permit_id)?.themes.push({ id: String(t.id), name: intern(t.name) });
  for (const d of rows.departments) byPermit.get(d.permit_id)?.approvalDepartments.push(intern(d.name));
  for (const r of rows.risks) {
    byPermit
      .get(r.permit_id)
      ?.risks.push({
        id: String(r.id),
        title: intern(r.title),
        description: intern(r.description),
        legalBasis: intern(r.legal_basis),
        consequence: intern(r.consequence),
        prevention: intern(r.prevention),
        level: intern(r.level),
        riskType: intern(r.risk_type),
      });
  }
  const docs = permitIds.map((id) => byPermit.get(id)).filter((d): d is SearchDoc => d !== undefined);
  for (const d of docs) if (d.themes.length > 1) d.themes.sort(byName);
  return docs;
}
