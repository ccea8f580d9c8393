import { api } from './api';
import type { Region, ThemeRef } from './types';

export interface RegionWithUsage extends Region {
  permit_count: number;
  department_count: number;
}

export interface FilterOptions {
  regions: Region[];
  themes: ThemeRef[];
  departments: { id: string; name: string; permit_count: number }[];
}

/** The regions the user may see, with what uses each (GET /admin/regions). */
export async function fetchRegions(): Promise<RegionWithUsage[]> {
  return (await api.get<{ regions: RegionWithUsage[] }>('/admin/regions')).regions;
}

/** What the advanced filter can choose from (GET /admin/permits/filter-options). */
export function fetchFilterOptions(regionId?: string): Promise<FilterOptions> {
  return api.get<FilterOptions>('/admin/permits/filter-options', { region_id: regionId });
}
