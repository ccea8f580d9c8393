import type { RegionScope } from '../auth/data-scope.js';
import type { RiskFields } from '../permits/risk.schema.js';
import type { RegionRow } from '../regions/regions.repository.js';
import type { Finding, ParsedSheet } from './parser/types.js';

/** The permit columns an import writes (besides region, links and risks). */
export interface PermitFields {
  code: string | null;
  name: string;
  implementation_level: string | null;
  internal_contact: string | null;
  contact_info: string | null;
  visible: boolean;
}

export interface ExistingPermit extends PermitFields {
  id: number;
  region_id: number;
  source_file_id: number | null;
  themeIds: number[];
  approvalDepartments: string[];
  risks: RiskFields[];
}

/** What the database holds that a plan is compared with. */
export interface ImportState {
  regions: RegionRow[];
  themes: Array<{ id: number; name: string }>;
  /** Permits of the regions the workbook names (and the user may see). */
  existing: ExistingPermit[];
}

/** A region or theme of the plan: `id` null when the commit will create it. */
export interface PlanRef {
  id: number | null;
  name: string;
}

export interface SheetOverride {
  region?: string;
  visible?: boolean;
  /** Theme ids or names replacing every other source of themes for the sheet's permits. */
  themes?: string[];
}

export interface PlanOptions {
  /** Sheets to plan; null = every sheet (the preview). */
  sheets: string[] | null;
  overrides: Record<string, SheetOverride>;
  /** Sheet name → theme ids or names every permit of the sheet is linked to. */
  themeBindings: Record<string, string[]>;
}

export interface PlanActor {
  scope: RegionScope;
  /** Grade ≥ 90: a region the workbook names that does not exist yet is created on commit. */
  canCreateRegions: boolean;
  /** Region of the session's department binding: used where a row names none. */
  bindingRegion: PlanRef | null;
}

export type PermitStatus = 'new' | 'changed' | 'unchanged';

export interface PlannedPermit {
  key: string;
  region: PlanRef;
  existing: ExistingPermit | null;
  fields: PermitFields;
  approvalDepartments: string[];
  risks: RiskFields[];
  /** Final theme set after the union (or override) rule. */
  themes: PlanRef[];
  themesAdded: PlanRef[];
  themeIdsRemoved: number[];
  status: PermitStatus;
  changedFields: string[];
  risksAdded: number;
  risksRemoved: number;
  /** Sheet of the last occurrence: the one whose fields and risks are applied. */
  lastSheet: string;
}

export interface SheetCounts {
  permits: number;
  risks: number;
  new: number;
  changed: number;
  unchanged: number;
  risks_added: number;
  risks_removed: number;
  themes_linked: number;
}

export interface SheetPlan {
  sheet: ParsedSheet;
  /** Parser findings plus the database-aware ones. */
  findings: Finding[];
  /** Distinct permits of the sheet, with the rows they occupy on it. */
  entries: Array<{ permit: PlannedPermit; rows: number[] }>;
  themesNamed: PlanRef[];
  counts: SheetCounts;
}

export interface ImportPlan {
  sheets: SheetPlan[];
  /** Distinct permits of the planned sheets, in order of first appearance. */
  permits: PlannedPermit[];
  workbookFindings: Finding[];
  newRegions: string[];
  newThemes: string[];
  totals: SheetCounts;
}
