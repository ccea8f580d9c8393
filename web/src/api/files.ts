import type { Static } from '@sinclair/typebox';
import type { PermitFileListing, TemplateMeta } from '../../../src/modules/files/files.openapi.ts';
import type { SessionDescription } from '../../../src/modules/importer/import.openapi.ts';
import { api, downloadFile, uploadForm, type CallOptions } from '../shared/api';

export type PermitFileListingPayload = Static<typeof PermitFileListing>;
export type ArchivedFile = PermitFileListingPayload['files'][number];
export type TemplateMetaPayload = Static<typeof TemplateMeta>;

const filePath = (id: string) => `/admin/permit-files/${encodeURIComponent(id)}`;

/** One page of the archive of imported workbooks, newest first. */
export const fetchPermitFiles = (query: { keyword?: string; limit: number; offset?: number }, opts?: CallOptions) =>
  api.get<PermitFileListingPayload>('/admin/permit-files', query, opts);

/** Parses the archived workbook again into a new import session. */
export const reimportPermitFile = (id: string) => api.post<Static<typeof SessionDescription>>(`${filePath(id)}/reimport`);

export const deletePermitFile = (id: string) => api.delete(filePath(id));

export const downloadPermitFile = (file: Pick<ArchivedFile, 'id' | 'filename'>) => downloadFile(`${filePath(file.id)}/download`, undefined, file.filename);

export const fetchTemplateMeta = () => api.get<TemplateMetaPayload>('/admin/templates/permit');

/** Replaces the import template everyone downloads. */
export const replaceTemplate = (form: FormData, onProgress?: (percent: number) => void) =>
  uploadForm<TemplateMetaPayload>('/admin/templates/permit', form, onProgress);
