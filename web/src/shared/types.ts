/**
 * The API shapes the pages read, each taken from the server's own schema (web/src/api/*.ts) so
 * that a change of the interface fails the page build instead of a page at run time.
 */

import type { Static } from '@sinclair/typebox';
// The server's schema, type only: nothing of it reaches the pages' bundle.
import type { Risk as RiskSchema } from '../../../src/modules/permits/risk.schema.ts';
import type { CurrentUserPayload } from '../api/auth';
import type { DepartmentNodePayload, DepartmentPayload } from '../api/departments';
import type { PermitPayload } from '../api/permits';
import type { RegionPayload } from '../api/regions';
import type { RiskSubjectPayload, SearchData as SearchDataPayload, SearchDebugPayload } from '../api/search';
import type { RegionThemePayload, ThemeRefPayload } from '../api/themes';
import type { UserPayload } from '../api/users';

type RiskPayload = Static<typeof RiskSchema>;

export type CurrentUser = CurrentUserPayload;
export type Region = RegionPayload;
export type ThemeRef = ThemeRefPayload;
export type RegionTheme = RegionThemePayload;

/** A risk as the admin routes send it; a `/v2` search result leaves out its position and type. */
export type Risk = Omit<RiskPayload, 'position' | 'risk_type'> & Partial<Pick<RiskPayload, 'position' | 'risk_type'>>;

/** A permit as the lists send it; the permit page adds its risks. */
export type Permit = PermitPayload & { risks?: Risk[] };

export type Department = DepartmentPayload;
export type DepartmentNode = DepartmentNodePayload;
export type User = UserPayload;

/** One `/v2` result item (docs/search.md). */
export type RiskSubject = RiskSubjectPayload;
export type SearchDebug = SearchDebugPayload;
export type SearchData = SearchDataPayload;
