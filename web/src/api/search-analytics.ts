import type { Static } from '@sinclair/typebox';
import type { SearchAnalytics } from '../../../src/modules/search-analytics/search-analytics.openapi.ts';
import { api, apiUrl } from '../shared/api';

export type SearchAnalyticsPayload = Static<typeof SearchAnalytics>;
export type Channel = keyof SearchAnalyticsPayload['daily'][number]['channels'];

/** A date range (YYYY-MM-DD, both days included), a region and a channel; blank ones are left out. */
export interface AnalyticsFilters {
  from?: string;
  to?: string;
  region: string;
  channel: Channel | '';
}

export const fetchSearchAnalytics = (filters: AnalyticsFilters) => api.get<SearchAnalyticsPayload>('/admin/search-analytics', { ...filters });

/** The same figures as a workbook: a link, so the browser downloads it with the session cookie. */
export const searchAnalyticsExportUrl = (filters: AnalyticsFilters) => apiUrl('/admin/search-analytics/export', { ...filters });
