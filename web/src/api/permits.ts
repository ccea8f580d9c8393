import type { Static } from '@sinclair/typebox';
import type {
  AdvancedFilterResult,
  DeletePermitResult,
  FilterOptions,
  Permit,
  PermitEditBody,
  PermitEditResult,
  PermitWithRisks,
} from '../../../src/modules/permits/permits.openapi.ts';
import type { Region } from '../../../src/modules/regions/regions.openapi.ts';
import type { ThemeRef } from '../../../src/modules/themes/themes.openapi.ts';
import { api, downloadFile, type CallOptions } from '../shared/api';

export type PermitPayload = Static<typeof Permit>;
export type PermitWithRisksPayload = Static<typeof PermitWithRisks>;
export type FilterOptionsPayload = Static<typeof FilterOptions>;
export type DeletePermitResultPayload = Static<typeof DeletePermitResult>;
export type PermitEditResultPayload = Static<typeof PermitEditResult>;

/** The advanced filter's dimensions (any left out or blank is not filtered on). */
export interface PermitFilter {
  regions?: string[];
  themes?: string[];
  departments?: string[];
  search_text?: string;
  visibility?: string;
  limit?: number;
  offset?: number;
}

/** The permit page of GET /admin/permit-details. */
export interface PermitDetails {
  region: string;
  region_info: Static<typeof Region>;
  theme: string | null;
  permit: PermitWithRisksPayload;
  theme_display: Static<typeof ThemeRef> | null;
  selected_theme_id: string;
  source_file: { id: string; filename: string } | null;
}

/** What the advanced filter can choose from; the departments are those of `regionId` when given. */
export const fetchFilterOptions = (regionId?: string) => api.get<FilterOptionsPayload>('/admin/permits/filter-options', { region_id: regionId });

/** The advanced filter with its dimensions in a JSON body. */
export const filterPermits = (filter: PermitFilter, opts?: CallOptions) =>
  api.post<Static<typeof AdvancedFilterResult>>('/admin/permits/advanced-filter', filter, opts);

/** The advanced filter with its dimensions in the query string (permit pickers that search as one types). */
export const findPermits = (filter: PermitFilter, opts?: CallOptions) =>
  api.get<Static<typeof AdvancedFilterResult>>('/admin/permits/advanced-filter', { ...filter }, opts);

/** One permit with its risks; region, permit and theme are ids, codes or names. */
export const fetchPermitDetails = (query: { region?: string; permit?: string; theme?: string }) => api.get<PermitDetails>('/admin/permit-details', query);

/** The edit of one permit in one save; `updated_at` as it was read guards against a concurrent change. */
export const editPermit = (id: string, body: Static<typeof PermitEditBody>, opts?: CallOptions) =>
  api.patch<PermitEditResultPayload>(`/admin/permits/${id}`, body, opts);

export const deletePermit = (query: { region_id: string; permit_id: string; theme_id?: string; change_summary?: string }) =>
  api.delete<DeletePermitResultPayload>('/admin/permits', query);

/** The workbook a permit was last imported from. */
export const downloadPermitWorkbook = (permit: Pick<PermitPayload, 'region_id' | 'id' | 'name'>) =>
  downloadFile('/admin/permit-file/download', { region_id: permit.region_id, permit_id: permit.id }, `${permit.name}.xlsx`);
