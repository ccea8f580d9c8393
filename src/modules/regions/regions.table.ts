import type { Generated } from 'kysely';

export interface RegionsTable {
  id: Generated<number>;
  code: string | null;
  name: string;
  created_at: string;
}

export interface Tables {
  regions: RegionsTable;
}
