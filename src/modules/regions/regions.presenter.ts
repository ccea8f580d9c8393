import type { Static } from '@sinclair/typebox';
import { toCount } from '../../db/dialect.js';
import type { Region, RegionWithUsage } from './regions.openapi.js';
import type { RegionRow } from './regions.repository.js';

/** The API shape of a region. */
export function presentRegion(r: RegionRow): Static<typeof Region> {
  return { id: String(r.id), code: r.code, name: r.name };
}

/** A region with how many permits and service departments use it (what blocks a deletion). */
export function presentRegionWithUsage(r: RegionRow & { permit_count: unknown; department_count: unknown }): Static<typeof RegionWithUsage> {
  return { ...presentRegion(r), permit_count: toCount(r.permit_count), department_count: toCount(r.department_count) };
}
