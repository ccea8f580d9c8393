import type { Static } from '@sinclair/typebox';
import type { CommitResult, SessionDescription } from '../../../src/modules/importer/import.openapi.ts';
import { api, apiUrl, downloadFile, uploadForm } from '../shared/api';

export type SessionDescriptionPayload = Static<typeof SessionDescription>;
export type CommitResultPayload = Static<typeof CommitResult>;

/** What a commit applies: the sheets chosen, each sheet's theme ids or new names, and the reason recorded. */
export interface CommitRequest {
  session_id: string;
  sheet_names: string[];
  theme_bindings: Record<string, string[]>;
  change_summary: string | null;
}

/** Uploads a workbook (with `binding_mode` and maybe `department_id`) and answers its preview. */
export const uploadWorkbook = (form: FormData, onProgress?: (percent: number) => void) =>
  uploadForm<SessionDescriptionPayload>('/admin/permit-import/upload', form, onProgress);

/** An existing session's preview, read again. */
export const fetchImportSession = (id: string) => api.get<SessionDescriptionPayload>(`/admin/permit-import/session/${encodeURIComponent(id)}/preview`);

export const commitImport = (request: CommitRequest) => api.post<CommitResultPayload>('/admin/permit-import/commit', request);

/** The download names are the template's own words. */
export const downloadImportTemplate = (name: string) => downloadFile('/admin/permit-import/template', undefined, name);

export const downloadImportSample = (name: string) => downloadFile('/admin/permit-import/sample', undefined, name);

/** The picture of the template's columns shown beside the upload. */
export const templateColumnsImageUrl = apiUrl('/admin/images/template-columns.svg');
