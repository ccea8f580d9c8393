/** API shapes the pages read (docs/api.md and the modules' docs). */

import type { Static } from '@sinclair/typebox';
// The server's schema, type only: nothing of it reaches the pages' bundle.
import type { Risk as RiskSchema } from '../../../src/modules/permits/risk.schema.ts';

type RiskPayload = Static<typeof RiskSchema>;

export interface CurrentUser {
  id: string;
  username: string;
  display_name: string | null;
  role: string;
  grade: number;
  department: { id: string } | null;
  region_id: string | null;
  must_change_password: boolean;
}

export interface Region {
  id: string;
  code: string | null;
  name: string;
}

export interface ThemeRef {
  id: string;
  name: string;
}

export interface RegionTheme extends ThemeRef {
  /** Null when only the region's permits link the theme (docs/maintenance.md). */
  option_id: string | null;
  permit_count?: number;
}

/** A risk as the admin routes send it; a `/v2` search result leaves out its position and type. */
export type Risk = Omit<RiskPayload, 'position' | 'risk_type'> & Partial<Pick<RiskPayload, 'position' | 'risk_type'>>;

export interface Permit {
  id: string;
  region_id: string;
  region_name: string;
  code: string | null;
  name: string;
  implementation_level: string | null;
  internal_contact: string | null;
  contact_info: string | null;
  visible: boolean;
  source_file_id: string | null;
  themes: ThemeRef[];
  theme: ThemeRef | null;
  approval_departments: string[];
  risk_count: number;
  risks?: Risk[];
  created_at: string;
  updated_at: string;
}

export interface Department {
  id: string;
  name: string;
  code: string;
  phone: string | null;
  parent_id: string | null;
  region_id: string | null;
  description: string | null;
  grade: number;
  unit_level: string;
  created_at?: string;
  updated_at?: string;
}

export interface DepartmentNode extends Department {
  depth?: number;
  children: DepartmentNode[];
}

export interface User {
  id: string;
  username: string;
  display_name: string | null;
  role: string;
  grade: number;
  service_department_id: string | null;
  department_role: string | null;
  is_active: boolean;
  must_change_password: boolean;
  department: { id: string; name: string; code: string; region_id: string | null } | null;
  created_at: string;
  updated_at: string;
  last_login_at: string | null;
}

/** One `/v2` result item (docs/search.md). */
export interface RiskSubject {
  region: { id: string; name: string };
  permit: {
    id: string;
    name: string;
    code: string | null;
    implementation_level: string | null;
    approval_departments: string[];
    internal_contact: string | null;
    contact_info: string | null;
  };
  themes: ThemeRef[];
  theme: ThemeRef | null;
  risks: Risk[];
  score: number;
  matched: string[];
}

export interface ConceptMatch {
  concept: string;
  matched_as: string;
  origin: string;
  evidence: string;
  score: number;
}

export interface SearchDebug {
  normalized_query?: string;
  terms?: { term: string; origin: string; weight?: number }[];
  concepts?: { text: string; kind: string; weight: number; alternatives: { text: string; origin: string; weight: number }[] }[];
  no_match_reason?: string | null;
  subjects?: { text: string; explained: number }[];
  cut?: { permit_id: string; permit_name: string; reason: string; score: number; explained: number }[];
  region_filter?: string[] | null;
  results?: {
    permit_id: string;
    permit_name: string;
    region: string;
    score: number;
    breakdown: Record<string, number>;
    matched: string[];
    explained?: number;
    name_share?: number;
    stage_match?: boolean;
    concepts?: ConceptMatch[];
  }[];
  timings_us?: Record<string, number>;
  index?: { documents?: number; age_ms?: number };
}

export interface SearchData {
  llmRespond: string;
  executionTime: number;
  workflowStatus: string;
  risk_subject: RiskSubject[];
  debug: SearchDebug;
}
