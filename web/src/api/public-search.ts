import type { Static } from '@sinclair/typebox';
import type { Region as RegionSchema } from '../../../src/modules/regions/regions.openapi.ts';
import type { RiskSubject as RiskSubjectSchema } from '../../../src/modules/search/search.openapi.ts';
import { apiRoot } from '../shared/api-root';

/**
 * The public API as the applicants' page calls it (docs/public-search.md): plain fetch, no
 * session, and every failure turned into one sentence a person can act on.
 */

export type Region = Static<typeof RegionSchema>;
type RiskSubject = Static<typeof RiskSubjectSchema>;

export interface Suggestion {
  text: string;
  kind: 'permit' | 'alias' | 'phrase' | 'question';
}

export interface SearchAnswer {
  matched: boolean;
  items: RiskSubject[];
}

export class PublicApiError extends Error {}

/** The question's channel in the query log: the analytics tell the public page apart. */
const HEADERS = { accept: 'application/json', 'x-lawrisk-channel': 'page' };

function waitText(retryAfter: string | null): string {
  const seconds = Number(retryAfter);
  return Number.isFinite(seconds) && seconds > 0 ? `请在 ${Math.ceil(seconds)} 秒后重试` : '请稍后重试';
}

async function getJson<T>(path: string, params: Record<string, string | undefined>, signal?: AbortSignal): Promise<T> {
  const query = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) query.set(key, value);
  let res: Response;
  try {
    res = await fetch(`${apiRoot}${path}?${query}`, { headers: HEADERS, signal });
  } catch (err) {
    if ((err as Error).name === 'AbortError') throw err;
    throw new PublicApiError('无法连接到查询服务，请检查网络后重试');
  }
  if (res.status === 429) throw new PublicApiError(`查询过于频繁，${waitText(res.headers.get('retry-after'))}`);
  const body = (await res.json().catch(() => null)) as { success?: boolean; message?: string; data?: T } | null;
  if (!res.ok || !body || body.success === false) {
    // The service's own messages for a person's mistake are Chinese; anything else is ours to say.
    const own = res.status >= 400 && res.status < 500 && body?.message && /[\u4e00-\u9fff]/.test(body.message);
    throw new PublicApiError(own ? body.message! : `查询服务暂时不可用（错误 ${res.status}），请稍后再试`);
  }
  return body.data as T;
}

export async function searchPermits(query: string, region: string | undefined): Promise<SearchAnswer> {
  const data = await getJson<{ workflowStatus: string; risk_subject: RiskSubject[] }>('/v2', { query, region });
  return { matched: data.workflowStatus === 'ok', items: data.risk_subject };
}

export async function suggest(q: string, region: string | undefined, signal?: AbortSignal): Promise<Suggestion[]> {
  return (await getJson<{ suggestions: Suggestion[] }>('/v2/suggest', { q, region }, signal)).suggestions;
}

export async function listRegions(): Promise<Region[]> {
  return (await getJson<{ regions: Region[] }>('/v2/regions', {})).regions;
}

export async function permitsByIds(ids: string[]): Promise<RiskSubject[]> {
  return (await getJson<{ permits: RiskSubject[] }>('/v2/permits', { ids: ids.join(',') })).permits;
}
