import type { PermitEdit } from './permit-edit.input.js';
import type { PermitRow } from './permits.repository.js';
import { RISK_FIELD_NAMES } from './risk.schema.js';
import type { RiskRow } from './risks.repository.js';

/** A permit as an edit finds it. */
export interface PermitState {
  permit: PermitRow;
  themes: { id: number; name: string }[];
  departments: string[];
  risks: RiskRow[];
}

const FIELD_LABELS = { name: '名称', code: '编码', implementation_level: '实施层级', internal_contact: '内部联系人', contact_info: '对外咨询电话' } as const;

const shown = (v: string | null | undefined) => (v === null || v === undefined || v === '' ? '（空）' : v.length > 40 ? `${v.slice(0, 40)}…` : v);
const sameList = <T>(a: T[], b: T[]) => a.length === b.length && a.every((x, i) => x === b[i]);

/**
 * What an edit changes, in words for the operation log (`名称：甲 → 乙；主题：+建筑施工；风险：新增 1 条、
 * 删除 2 条`); empty when it changes nothing.
 */
export function describePermitEdit(before: PermitState, edit: PermitEdit, themeNames: Map<number, string>): string {
  const parts: string[] = [];
  const p = before.permit;
  for (const key of Object.keys(FIELD_LABELS) as (keyof typeof FIELD_LABELS)[]) {
    const next = edit.fields[key];
    if (next !== undefined && next !== p[key]) parts.push(`${FIELD_LABELS[key]}：${shown(p[key])} → ${shown(next)}`);
  }
  if (edit.fields.visible !== undefined && edit.fields.visible !== (p.visible === 1)) {
    parts.push(`检索可见：${edit.fields.visible ? '隐藏 → 可见' : '可见 → 隐藏'}`);
  }
  if (edit.approvalDepartments !== undefined && !sameList(edit.approvalDepartments, before.departments)) {
    parts.push(`审批部门：${before.departments.join('、') || '（无）'} → ${edit.approvalDepartments.join('、') || '（无）'}`);
  }
  if (edit.themeIds !== undefined) {
    const had = new Set(before.themes.map((t) => t.id));
    const added = edit.themeIds.filter((id) => !had.has(id));
    const removed = before.themes.filter((t) => !edit.themeIds!.includes(t.id));
    const words = [...added.map((id) => `+${themeNames.get(id) ?? `#${id}`}`), ...removed.map((t) => `−${t.name}`)];
    if (words.length > 0) parts.push(`主题：${words.join('、')}`);
  }
  if (edit.risks !== undefined) {
    const byId = new Map(before.risks.map((r) => [r.id, r]));
    const kept = edit.risks.filter((r) => r.id !== null && byId.has(r.id));
    const added = edit.risks.length - kept.length;
    const removed = before.risks.length - kept.length;
    const changed = kept.filter((r) => RISK_FIELD_NAMES.some((k) => r[k] !== undefined && byId.get(r.id!)![k] !== r[k])).length;
    const order = kept.map((r) => r.id);
    const moved = !sameList(
      order,
      before.risks.map((r) => r.id).filter((id) => order.includes(id)),
    );
    const words = [
      ...(added > 0 ? [`新增 ${added} 条`] : []),
      ...(changed > 0 ? [`修改 ${changed} 条`] : []),
      ...(removed > 0 ? [`删除 ${removed} 条`] : []),
      ...(moved ? ['调整顺序'] : []),
    ];
    if (words.length > 0) parts.push(`风险：${words.join('、')}`);
  }
  return parts.join('；');
}
