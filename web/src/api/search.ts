import type { Static } from '@sinclair/typebox';
import type { Region } from '../../../src/modules/regions/regions.openapi.ts';
import type { RiskSubject, SearchData as SearchDataSchema, SearchDebug } from '../../../src/modules/search/search.openapi.ts';
import type { WhyNotAnswer } from '../../../src/modules/search/why-not.openapi.ts';
import { api, callApi } from '../shared/api';

/** The search console's calls (the public page has its own client, public-search.ts). */

export type RiskSubjectPayload = Static<typeof RiskSubject>;
export type SearchDebugPayload = Static<typeof SearchDebug>;
export type WhyNotPayload = Static<typeof WhyNotAnswer>;

/** `data` of a `/v2` answer asked with the debug flag: its `debug` is then never the empty object. */
export type SearchData = Omit<Static<typeof SearchDataSchema>, 'debug'> & { debug: SearchDebugPayload };

/** Asks a question with the debug output, logged as the console's; answers the whole envelope. */
export const debugSearch = (query: string, region: string[]) =>
  callApi<SearchData>('POST', '/v2', { body: { query, region, debug: true, channel: 'console' } });

export const fetchSearchRegions = async () => (await api.get<{ regions: Static<typeof Region>[] }>('/v2/regions')).regions;

/** Why a permit is or is not in the answer to a question. */
export const explainWhyNot = (query: { query: string; permit_id: string; region: string[] }) => api.get<WhyNotPayload>('/admin/search/why-not', query);
