import type { Static } from '@sinclair/typebox';
import type { CatalogueStatistics } from '../../../src/modules/statistics/statistics.openapi.ts';
import { api, type CallOptions } from '../shared/api';

export type StatisticsPayload = Static<typeof CatalogueStatistics>;

/** Permit and risk totals within the user's data scope. */
export const fetchStatistics = (opts?: CallOptions) => api.get<StatisticsPayload>('/admin/statistics', undefined, opts);
