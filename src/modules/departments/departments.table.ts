import type { Generated } from 'kysely';

export interface ServiceDepartmentsTable {
  id: Generated<number>;
  name: string;
  code: string;
  phone: string | null;
  parent_id: number | null;
  region_id: number | null;
  description: string | null;
  grade: number;
  unit_level: string | null;
  created_at: string;
  updated_at: string;
}

export interface Tables {
  service_departments: ServiceDepartmentsTable;
}
