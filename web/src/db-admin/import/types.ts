/** The import session description and commit result (src/modules/importer, docs/import.md). */

export interface Finding {
  severity: 'error' | 'warning';
  code: string;
  sheet: string | null;
  row: number | null;
  column: string | null;
  header: string | null;
  message: string;
}

export interface SheetCounts {
  permits: number;
  risks: number;
  new: number;
  changed: number;
  unchanged: number;
  risks_added: number;
  risks_removed: number;
  themes_linked: number;
}

export type PermitStatus = 'new' | 'changed' | 'unchanged';

export interface PreviewPermit {
  rows: number[];
  name: string;
  code: string | null;
  region: string;
  status: PermitStatus;
  changed_fields: string[];
  risks_added: number;
  risks_removed: number;
  themes: string[];
}

export interface PreviewSheet {
  name: string;
  index: number;
  header_row: number | null;
  first_data_row: number | null;
  data_rows: number;
  columns: { letter: string; header: string; field: string | null; canonical: string | null }[];
  findings: Finding[];
  error_count: number;
  warning_count: number;
  counts: SheetCounts;
  themes: { id: string | null; name: string; exists: boolean }[];
  permits: PreviewPermit[];
}

export interface ThemeOptions {
  catalog: { id: string; name: string }[];
  regions: Record<string, { id: string; name: string; option_id: string }[]>;
}

export interface SessionDescription {
  session_id: string;
  filename: string;
  content_type: string;
  size: number;
  uploaded_by: string;
  created_at: string;
  expires_at: string;
  committed_at: string | null;
  binding_mode: 'auto' | 'department';
  department: { id: string; name: string; region_id: string | null; region_name: string | null } | null;
  findings: Finding[];
  error_count: number;
  warning_count: number;
  sheets: PreviewSheet[];
  totals: SheetCounts;
  regions_to_create: string[];
  themes_to_create: string[];
  theme_options: ThemeOptions;
}

export interface CommitResult {
  session_id: string;
  filename: string;
  file_id: string;
  snapshot_batch_id: string | null;
  sheets: ({ sheet: string } & SheetCounts)[];
  totals: SheetCounts;
  regions_created: { id: string; name: string }[];
  themes_created: { id: string; name: string }[];
}

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
