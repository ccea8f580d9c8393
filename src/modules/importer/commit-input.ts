import { badRequest } from '../../http/errors.js';
import { isBlank, readList, readNullableString, readString, type Input } from '../../http/readers.js';
import { defaultEditor, type CurrentUser } from '../auth/current-user.js';
import type { SheetOverride } from './import-plan.types.js';

/** The commit body, aliases resolved and shapes checked. */
export interface CommitRequest {
  sessionId: string | undefined;
  /** Empty: every sheet with a header row and data. */
  sheets: string[];
  overrides: Record<string, SheetOverride>;
  themeBindings: Record<string, string[]>;
  editedBy: string;
  changeSummary: string | null;
}

function objectField(body: Record<string, unknown>, label: string, ...names: string[]): Record<string, unknown> {
  const name = names.find((n) => !isBlank(body[n]));
  if (name === undefined) return {};
  const v = body[name];
  if (typeof v !== 'object' || Array.isArray(v)) throw badRequest(`${label} 必须是以工作表名称为键的对象`);
  return v as Record<string, unknown>;
}

/** Theme ids or names: one value, or a list of them; blank means none. */
function themeTokens(v: unknown, label: string): string[] {
  if (isBlank(v)) return [];
  const list = Array.isArray(v) ? v : [v];
  return list
    .map((t) => {
      if (typeof t === 'number' && Number.isSafeInteger(t)) return String(t);
      if (typeof t === 'string') return t.trim();
      throw badRequest(`${label} 只能是主题 id 或名称`);
    })
    .filter((t) => t !== '');
}

const VISIBLE: Record<string, boolean> = { visible: true, hidden: false, true: true, false: false, 是: true, 否: false };

function readOverride(sheet: string, v: unknown): SheetOverride {
  if (v === null || v === undefined) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw badRequest(`overrides.${sheet} 必须是对象`);
  const o = v as Record<string, unknown>;
  const out: SheetOverride = {};
  const region = readString(o, 'region', 'region_id');
  if (region !== undefined) out.region = region;
  const vis = o.visibility ?? o.visible;
  if (typeof vis === 'boolean') out.visible = vis;
  else if (!isBlank(vis)) {
    const key = String(vis).trim().toLowerCase();
    if (!(key in VISIBLE)) throw badRequest(`overrides.${sheet}.visibility 只能是 visible 或 hidden`);
    out.visible = VISIBLE[key];
  }
  if (o.themes !== undefined && o.themes !== null) out.themes = themeTokens(o.themes, `overrides.${sheet}.themes`);
  return out;
}

export function readCommitRequest(input: Input, user: CurrentUser): CommitRequest {
  const body = input ?? {};
  const overrides: Record<string, SheetOverride> = {};
  for (const [sheet, v] of Object.entries(objectField(body, 'overrides', 'overrides'))) overrides[sheet] = readOverride(sheet, v);
  const themeBindings: Record<string, string[]> = {};
  for (const [sheet, v] of Object.entries(objectField(body, 'theme_bindings', 'theme_bindings', 'themeBindings'))) {
    themeBindings[sheet] = themeTokens(v, `theme_bindings.${sheet}`);
  }
  return {
    sessionId: readString(body, 'session_id', 'sessionId'),
    sheets: readList(body, 'sheet_names', 'sheets', 'selectedSheets'),
    overrides,
    themeBindings,
    editedBy: readString(body, 'edited_by', 'editedBy') ?? defaultEditor(user),
    changeSummary: readNullableString(body, 'change_summary', 'changeSummary') ?? null,
  };
}
