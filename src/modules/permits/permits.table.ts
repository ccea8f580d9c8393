import type { Generated } from 'kysely';
import type { RiskFields } from './risk.schema.js';

export interface PermitsTable {
  id: Generated<number>;
  region_id: number;
  code: string | null;
  name: string;
  implementation_level: string | null;
  internal_contact: string | null;
  contact_info: string | null;
  /** 1 = shown in search, 0 = hidden (kept as 0/1 on both databases). */
  visible: number;
  source_file_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface PermitThemesTable {
  permit_id: number;
  theme_id: number;
}

export interface ApprovalDepartmentsTable {
  id: Generated<number>;
  name: string;
  /** Service department this approval department is linked to by the setup route. */
  service_department_id: number | null;
}

export interface PermitApprovalDepartmentsTable {
  permit_id: number;
  approval_department_id: number;
  position: number;
}

/** A risk of a permit: its fields (risk.schema.ts), at a position in the permit's list. */
export interface RisksTable extends RiskFields {
  id: Generated<number>;
  permit_id: number;
  position: number;
}

export interface Tables {
  permits: PermitsTable;
  permit_themes: PermitThemesTable;
  approval_departments: ApprovalDepartmentsTable;
  permit_approval_departments: PermitApprovalDepartmentsTable;
  risks: RisksTable;
}
