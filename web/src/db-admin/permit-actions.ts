import type { Permit } from '../shared/types';

export { downloadPermitWorkbook as downloadOriginalWorkbook, type DeletePermitResultPayload as DeletePermitResult } from '../api/permits';

/** What a deletion will save first, in words: the confirmation names it. */
export function snapshotDescription(permit: Permit): string {
  const themes = permit.themes.map((t) => t.name).join('、');
  const risks = permit.risks?.length ?? permit.risk_count;
  return (
    `将删除「${permit.region_name}」的许可事项「${permit.name}」${permit.code ? `（${permit.code}）` : ''}。\n` +
    `删除前会把它的 ${risks} 条风险记录` +
    (themes ? `、主题关联（${themes}）` : '') +
    (permit.approval_departments.length ? `和审批部门` : '') +
    `保存为一个快照批次，之后可在「风险快照」中恢复。`
  );
}
