import type { Generated } from 'kysely';

export interface ThemesTable {
  id: Generated<number>;
  name: string;
  created_at: string;
}

/** A theme offered in a region; its id is the `option_id` of the admin theme lookup. */
export interface RegionThemesTable {
  id: Generated<number>;
  region_id: number;
  theme_id: number;
}

export interface Tables {
  themes: ThemesTable;
  region_themes: RegionThemesTable;
}
