import { ElMessage, ElMessageBox } from 'element-plus';
import { api, downloadFile } from '../shared/api';
import type { Permit } from '../shared/types';

export interface DeletePermitResult {
  deleted: boolean;
  permit_id: string;
  permit_name: string;
  region_id: string;
  theme_id: string | null;
  snapshot_batch_id: string;
  risk_count: number;
}

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

/** Confirms (with an optional reason), deletes, and resolves the result; null when cancelled or refused. */
export async function deletePermitWithConfirm(permit: Permit): Promise<DeletePermitResult | null> {
  let reason: string;
  try {
    const answer = await ElMessageBox.prompt(snapshotDescription(permit), '删除许可事项', {
      type: 'warning',
      confirmButtonText: '删除并保存快照',
      cancelButtonText: '取消',
      confirmButtonClass: 'el-button--danger',
      inputPlaceholder: '删除原因（选填，记入快照与操作日志）',
      customClass: 'pre-line-box',
    });
    reason = (answer.value ?? '').trim();
  } catch {
    return null;
  }
  try {
    const result = await api.delete<DeletePermitResult>('/admin/permits', {
      region_id: permit.region_id,
      permit_id: permit.id,
      theme_id: permit.theme?.id,
      change_summary: reason || `删除许可事项 ${permit.name}`,
    });
    ElMessage.success(`已删除「${result.permit_name}」，${result.risk_count} 条风险已保存为快照批次 #${result.snapshot_batch_id}`);
    return result;
  } catch {
    return null;
  }
}

export function downloadOriginalWorkbook(permit: Pick<Permit, 'region_id' | 'id' | 'name'>): Promise<void> {
  return downloadFile('/admin/permit-file/download', { region_id: permit.region_id, permit_id: permit.id }, `${permit.name}.xlsx`);
}
