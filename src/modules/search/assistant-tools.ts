import type { Executor } from '../../db/database.js';
import { matchRegionTokens } from '../regions/regions.repository.js';
import { presentRegion } from '../regions/regions.presenter.js';
import { listThemesWithVisibleCounts } from './public-lookup.repository.js';
import type { SearchDoc } from './engine/types.js';
import { presentRiskSubject, type RiskSubject } from './search.presenter.js';
import type { SearchIndexHolder } from './search-index.service.js';
import { MAX_RESULTS } from './search.service.js';

/**
 * What the assistants' tools answer (docs/assistants.md), from the in-memory index like `/v2`:
 * only searchable permits, whoever asks. Each answer is data for a program and text a model can
 * quote: the permit, its region, departments and contacts, each risk with its legal basis.
 */

/** Permits a list answer writes out in its text (the data holds them all). */
const TEXT_PERMITS = 5;
const LEVEL_ORDER: Record<string, number> = { 高: 0, 中: 1, 低: 2 };

export class ToolInputError extends Error {}

/** The region ids a token names (id, code or name); an unknown region is the caller's mistake. */
function regionIdsOf(holder: SearchIndexHolder, region: string | undefined): string[] | null {
  if (region === undefined || region.trim() === '') return null;
  const found = matchRegionTokens(holder.regions, [region.trim()]);
  if (found.length === 0) throw new ToolInputError(`没有名为或编码为“${region}”的区域；可先调用 list_regions 查看所有区域。`);
  return found.map((r) => String(r.id));
}

const byLevel = (a: { level: string | null }, b: { level: string | null }) => (LEVEL_ORDER[a.level ?? ''] ?? 3) - (LEVEL_ORDER[b.level ?? ''] ?? 3);

/** A permit as a model can quote it. */
export function permitText(s: RiskSubject): string {
  const p = s.permit;
  const lines = [`【${p.name}】（${s.region.name}${p.implementation_level ? `，${p.implementation_level}` : ''}）`];
  if (p.approval_departments.length > 0) lines.push(`审批部门：${p.approval_departments.join('、')}`);
  const contact = [p.internal_contact, p.contact_info].filter(Boolean).join('，');
  if (contact) lines.push(`联系方式：${contact}`);
  for (const r of [...s.risks].sort(byLevel)) {
    lines.push(`- 风险（${r.level ?? '未定级'}）：${r.title}`);
    if (r.legal_basis) lines.push(`  法律依据：${r.legal_basis}`);
    if (r.consequence) lines.push(`  后果：${r.consequence}`);
    if (r.prevention) lines.push(`  防范措施：${r.prevention}`);
  }
  return lines.join('\n');
}

const subjectOf = (doc: SearchDoc): RiskSubject => presentRiskSubject({ doc, score: 0, matched: [] });

export interface ToolAnswer {
  text: string;
  data: Record<string, unknown>;
}

export function searchPermits(holder: SearchIndexHolder, query: string, region?: string): ToolAnswer & { permitIds: string[]; regionIds: string[] | null } {
  const regionIds = regionIdsOf(holder, region);
  const hits = holder.current.search(query, { regionIds, limit: MAX_RESULTS }).hits.slice(0, MAX_RESULTS);
  const results = hits.map(presentRiskSubject);
  const permitIds = results.map((r) => r.permit.id);
  if (results.length === 0) {
    return {
      text: `没有找到与“${query}”相符的许可事项${region ? `（区域：${region}）` : ''}。可以换一种说法，或去掉区域限制再试。`,
      data: { status: 'no_match', query, results: [] },
      permitIds,
      regionIds,
    };
  }
  const shown = results.slice(0, TEXT_PERMITS).map(permitText);
  const more = results.length > TEXT_PERMITS ? `\n\n另有 ${results.length - TEXT_PERMITS} 个相关事项，见结构化数据。` : '';
  return {
    text: `与“${query}”相关的许可事项（按相关程度排序，共 ${results.length} 个）：\n\n${shown.join('\n\n')}${more}`,
    data: { status: 'ok', query, results },
    permitIds,
    regionIds,
  };
}

export function getPermit(holder: SearchIndexHolder, region: string, permit: string): ToolAnswer {
  const regionIds = regionIdsOf(holder, region)!;
  const token = permit.trim();
  const docs = holder.current.documents().filter((d) => d.visible && regionIds.includes(d.regionId));
  const doc = docs.find((d) => d.permitId === token) ?? docs.find((d) => d.code === token) ?? docs.find((d) => d.name === token);
  if (!doc) throw new ToolInputError(`区域“${region}”中没有编号、编码或名称为“${permit}”的许可事项；可先调用 search_permits 查找。`);
  const subject = subjectOf(doc);
  return { text: permitText(subject), data: { permit: subject } };
}

export function listRegions(holder: SearchIndexHolder): ToolAnswer {
  const regions = holder.regions.map(presentRegion);
  return { text: `共 ${regions.length} 个区域：${regions.map((r) => (r.code ? `${r.name}（${r.code}）` : r.name)).join('、')}`, data: { regions } };
}

/** The themes as `/v2/themes` lists them, with their searchable permits counted. */
export async function listThemes(db: Executor): Promise<ToolAnswer> {
  const themes = await listThemesWithVisibleCounts(db);
  return { text: `共 ${themes.length} 个主题（办一件事）：${themes.map((t) => `${t.name}（${t.permit_count} 个事项）`).join('、')}`, data: { themes } };
}

export async function permitsOfTheme(holder: SearchIndexHolder, db: Executor, theme: string, region?: string): Promise<ToolAnswer> {
  const regionIds = regionIdsOf(holder, region);
  const token = theme.trim();
  const known = (await listThemesWithVisibleCounts(db)).find((t) => t.id === token || t.name === token);
  if (!known) throw new ToolInputError(`没有名为“${theme}”的主题；可先调用 list_themes 查看所有主题。`);
  const docs = holder.current.documents().filter((d) => d.visible && (!regionIds || regionIds.includes(d.regionId)) && d.themes.some((t) => t.id === known.id));
  const permits = docs.map(subjectOf);
  if (permits.length === 0)
    return { text: `主题“${known.name}”在${region ? `区域“${region}”` : '各区域'}中没有可查询的许可事项。`, data: { theme: known, permits } };
  const shown = permits.slice(0, TEXT_PERMITS).map(permitText);
  const more = permits.length > TEXT_PERMITS ? `\n\n另有 ${permits.length - TEXT_PERMITS} 个事项，见结构化数据。` : '';
  return { text: `主题“${known.name}”涉及的许可事项（共 ${permits.length} 个）：\n\n${shown.join('\n\n')}${more}`, data: { theme: known, permits } };
}
