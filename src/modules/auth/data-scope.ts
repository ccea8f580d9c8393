import { forbidden } from '../../http/errors.js';
import type { CurrentUser } from './current-user.js';

/** Grade from which a user sees every region (city level 90, super administrator 100). */
export const ALL_REGIONS_GRADE = 90;

/** 'all', or the region ids a user may read and change (empty when its department has no region). */
export type RegionScope = 'all' | number[];

/** Which regions this user may see: grade ≥ 90 all, else its department's region. Anonymous: none. */
export function regionScope(user: CurrentUser | null): RegionScope {
  if (!user) return [];
  if (user.grade >= ALL_REGIONS_GRADE) return 'all';
  return user.region_id === null ? [] : [user.region_id];
}

export function inScope(scope: RegionScope, regionId: number): boolean {
  return scope === 'all' || scope.includes(regionId);
}

/** Refuses a change outside the user's regions (reads outside scope are answered as not found instead). */
export function assertInScope(scope: RegionScope, regionId: number): void {
  if (!inScope(scope, regionId)) throw forbidden('无权操作该区域的数据');
}
