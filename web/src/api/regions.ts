import type { Static } from '@sinclair/typebox';
import type { Region, RegionWithUsage } from '../../../src/modules/regions/regions.openapi.ts';
import { api } from '../shared/api';

export type RegionPayload = Static<typeof Region>;
export type RegionWithUsagePayload = Static<typeof RegionWithUsage>;

/** What a region is edited with: a null code clears it. */
export interface RegionBody {
  name: string;
  code: string | null;
}

const regionPath = (id: string) => `/admin/regions/${encodeURIComponent(id)}`;

/** The regions the user may see, with what uses each. */
export const fetchRegions = async () => (await api.get<{ regions: RegionWithUsagePayload[] }>('/admin/regions')).regions;

export const createRegion = (body: RegionBody) => api.post('/admin/regions', body);

export const updateRegion = (id: string, body: RegionBody) => api.patch(regionPath(id), body);

export const deleteRegion = (id: string) => api.delete(regionPath(id));
