import { badRequest } from '../../http/errors.js';
import { isBlank, type Input } from '../../http/readers.js';
import { parseRecordId } from '../../http/record-id.js';
import { RISK_FIELD_NAMES, type RiskFields } from './risk.schema.js';

/**
 * The body of an edit of a permit (docs/maintenance.md, "Editing a permit"): each part that is
 * given replaces what the permit has; what is left out stays. Read as the import reads a
 * workbook's cells (the same lengths, 风险点 required, 高/中/低), every mistake named with its field.
 */

/** A cell of a workbook holds at most this many characters; a field edited here too. */
export const MAX_FIELD_CHARS = 5_000;
/** Most risks one permit may hold. */
export const MAX_RISKS = 500;
/** Most themes and approval departments one permit may hold. */
export const MAX_LINKS = 50;

/**
 * One risk of the list. A field left out of an existing risk keeps its value (undefined here);
 * left out of a new one, it is blank.
 */
export interface RiskInput extends Partial<Omit<RiskFields, 'level'>> {
  /** An existing risk of the permit (kept, changed, moved), or null for a new one. */
  id: number | null;
  /** Narrower than the stored text: an edit sets only 高, 中 or 低. */
  level?: '高' | '中' | '低' | null;
}

export interface PermitFieldsInput {
  name?: string;
  code?: string | null;
  implementation_level?: string | null;
  internal_contact?: string | null;
  contact_info?: string | null;
  visible?: boolean;
}

export interface PermitEdit {
  /** The permit's `updated_at` as the editor read it: an edit of a permit changed since is refused. */
  version: string;
  fields: PermitFieldsInput;
  approvalDepartments?: string[];
  themeIds?: number[];
  /** The permit's whole risk list, in order. */
  risks?: RiskInput[];
  editedBy?: string;
  changeSummary: string | null;
}

export interface FieldProblem {
  field: string;
  message: string;
}

const TOP_LEVEL = new Set([
  'updated_at',
  'name',
  'code',
  'implementation_level',
  'internal_contact',
  'contact_info',
  'visible',
  'approval_departments',
  'theme_ids',
  'risks',
  'edited_by',
  'change_summary',
]);
const RISK_FIELDS = new Set<string>(['id', ...RISK_FIELD_NAMES]);
const OPTIONAL_TEXT = ['code', 'implementation_level', 'internal_contact', 'contact_info'] as const;
const RISK_TEXT = ['risk_type', 'description', 'legal_basis', 'consequence', 'prevention'] as const;

/** The problems found so far; refused together once reading is done. */
class Problems {
  readonly list: FieldProblem[] = [];
  add(field: string, message: string): void {
    this.list.push({ field, message });
  }
}

/** Text of a field: trimmed, blank → null; a non-string or an over-long one is a problem. */
function text(problems: Problems, field: string, v: unknown, label: string): string | null {
  if (isBlank(v)) return null;
  if (typeof v !== 'string' && typeof v !== 'number') {
    problems.add(field, `${label}应为文本`);
    return null;
  }
  const s = String(v).trim();
  if (s.length > MAX_FIELD_CHARS) problems.add(field, `${label}不能超过 ${MAX_FIELD_CHARS} 个字符（现有 ${s.length} 个）`);
  return s;
}

/** A list of texts (departments): each trimmed, blanks dropped, duplicates once. */
function textList(problems: Problems, field: string, v: unknown, label: string): string[] {
  if (v === null || v === undefined) return [];
  if (!Array.isArray(v)) {
    problems.add(field, `${label}应为列表`);
    return [];
  }
  const out: string[] = [];
  v.forEach((item, i) => {
    const s = text(problems, `${field}[${i}]`, item, label);
    if (s !== null && !out.includes(s)) out.push(s);
  });
  if (out.length > MAX_LINKS) problems.add(field, `${label}最多 ${MAX_LINKS} 个`);
  return out;
}

const LABELS = {
  name: '事项名称',
  code: '事项编码',
  implementation_level: '实施层级',
  internal_contact: '内部联系人',
  contact_info: '对外咨询电话',
  risk_type: '风险类型',
  title: '风险点',
  description: '风险描述',
  legal_basis: '法律依据',
  consequence: '法律后果',
  prevention: '防范建议',
} as const;

function readRisk(problems: Problems, i: number, v: unknown): RiskInput | null {
  const at = `risks[${i}]`;
  if (typeof v !== 'object' || v === null || Array.isArray(v)) {
    problems.add(at, `第 ${i + 1} 条风险应为对象`);
    return null;
  }
  const r = v as Record<string, unknown>;
  for (const key of Object.keys(r)) if (!RISK_FIELDS.has(key)) problems.add(`${at}.${key}`, `第 ${i + 1} 条风险不支持字段 ${key}`);
  let id: number | null = null;
  if (!isBlank(r.id)) {
    id = parseRecordId(String(r.id));
    if (id === null) problems.add(`${at}.id`, `第 ${i + 1} 条风险的编号无效`);
  }
  const risk: RiskInput = { id };
  if (r.title !== undefined || id === null) {
    const title = text(problems, `${at}.title`, r.title, `第 ${i + 1} 条风险的${LABELS.title}`);
    if (title === null) problems.add(`${at}.title`, `第 ${i + 1} 条风险的风险点不能为空`);
    else risk.title = title;
  }
  if (r.level !== undefined) {
    // Anything but text or null (a number, a list) is no level: the `?` below is refused.
    const given = typeof r.level === 'string' ? r.level.trim() : r.level === null ? '' : '?';
    if (given === '') risk.level = null;
    else if (given === '高' || given === '中' || given === '低') risk.level = given;
    else problems.add(`${at}.level`, `第 ${i + 1} 条风险的风险等级只能是 高、中 或 低`);
  }
  for (const k of RISK_TEXT) if (r[k] !== undefined) risk[k] = text(problems, `${at}.${k}`, r[k], `第 ${i + 1} 条风险的${LABELS[k]}`);
  return risk;
}

/** Reads an edit, refusing it (400, every problem in `errors`) when anything in it is wrong. */
export function readPermitEdit(body: Input): PermitEdit {
  const input = body ?? {};
  const problems = new Problems();
  for (const key of Object.keys(input)) if (!TOP_LEVEL.has(key)) problems.add(key, `不支持的参数 ${key}`);

  const version = typeof input.updated_at === 'string' ? input.updated_at.trim() : '';
  if (version === '') problems.add('updated_at', '缺少 updated_at：请先读取许可事项，再带上它的更新时间提交修改');

  const fields: PermitFieldsInput = {};
  if (input.name !== undefined) {
    const name = text(problems, 'name', input.name, LABELS.name);
    if (name === null) problems.add('name', '事项名称不能为空');
    else fields.name = name;
  }
  for (const key of OPTIONAL_TEXT) if (input[key] !== undefined) fields[key] = text(problems, key, input[key], LABELS[key]);
  if (input.visible !== undefined) {
    if (typeof input.visible === 'boolean') fields.visible = input.visible;
    else problems.add('visible', '检索可见应为 true 或 false');
  }

  const approvalDepartments =
    input.approval_departments === undefined ? undefined : textList(problems, 'approval_departments', input.approval_departments, '审批部门');

  let themeIds: number[] | undefined;
  if (input.theme_ids !== undefined) {
    if (!Array.isArray(input.theme_ids)) problems.add('theme_ids', '主题应为主题编号的列表');
    else {
      themeIds = [];
      input.theme_ids.forEach((t, i) => {
        const id = parseRecordId(String(t ?? ''));
        if (id === null) problems.add(`theme_ids[${i}]`, `主题编号无效：${String(t)}`);
        else if (!themeIds!.includes(id)) themeIds!.push(id);
      });
      if (themeIds.length > MAX_LINKS) problems.add('theme_ids', `主题最多 ${MAX_LINKS} 个`);
    }
  }

  let risks: RiskInput[] | undefined;
  if (input.risks !== undefined) {
    if (!Array.isArray(input.risks)) problems.add('risks', '风险应为列表');
    else if (input.risks.length > MAX_RISKS) problems.add('risks', `一个许可事项最多 ${MAX_RISKS} 条风险`);
    else {
      risks = input.risks.flatMap((r, i) => readRisk(problems, i, r) ?? []);
      const seen = new Set<number>();
      risks.forEach((r, i) => {
        if (r.id === null) return;
        if (seen.has(r.id)) problems.add(`risks[${i}].id`, `风险 #${r.id} 出现了不止一次`);
        seen.add(r.id);
      });
    }
  }

  const editedBy = typeof input.edited_by === 'string' && input.edited_by.trim() !== '' ? input.edited_by.trim().slice(0, 100) : undefined;
  const changeSummary = text(problems, 'change_summary', input.change_summary, '修改说明');
  refuseIfAny(problems.list);
  return { version, fields, approvalDepartments, themeIds, risks, editedBy, changeSummary };
}

/** 400 with every problem: the message names the first ones, `data.errors` lists them all by field. */
export function refuseIfAny(list: FieldProblem[]): void {
  if (list.length === 0) return;
  const shown = list
    .slice(0, 3)
    .map((p) => p.message)
    .join('；');
  throw badRequest(list.length > 3 ? `${shown}；等共 ${list.length} 处问题` : shown, { data: { errors: list } });
}
