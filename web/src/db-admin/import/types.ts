/** The import session description and commit result, as the server's schemas have them (src/modules/importer, docs/import.md). */

import type { CommitResultPayload, SessionDescriptionPayload } from '../../api/imports';

export type SessionDescription = SessionDescriptionPayload;
export type CommitResult = CommitResultPayload;
export type PreviewSheet = SessionDescription['sheets'][number];
export type PreviewPermit = PreviewSheet['permits'][number];
export type Finding = SessionDescription['findings'][number];
export type SheetCounts = SessionDescription['totals'];
export type ThemeOptions = SessionDescription['theme_options'];
export type PermitStatus = PreviewPermit['status'];

export const STATUS_LABELS: Record<PermitStatus, { label: string; type: 'success' | 'warning' | 'info' }> = {
  new: { label: '新增', type: 'success' },
  changed: { label: '变更', type: 'warning' },
  unchanged: { label: '未变', type: 'info' },
};

/** Field names of `changed_fields` in words. */
export const FIELD_LABELS: Record<string, string> = {
  name: '事项名称',
  code: '事项编码',
  implementation_level: '实施层级',
  internal_contact: '内部联系人',
  contact_info: '对外咨询电话',
  visible: '检索可见',
  approval_departments: '审批部门',
  themes: '主题',
  risks: '风险清单',
};
