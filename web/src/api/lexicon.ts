import type { Static } from '@sinclair/typebox';
import type { EntryBody, LexiconEntry, LexiconPreview } from '../../../src/modules/search/lexicon/lexicon.openapi.ts';
import { api, apiUrl, callApi, type CallOptions } from '../shared/api';

export type LexiconEntryPayload = Static<typeof LexiconEntry>;
export type LexiconKind = LexiconEntryPayload['kind'];
export type LexiconPreviewPayload = Static<typeof LexiconPreview>;
export type LexiconEntryBody = Static<typeof EntryBody>;

const ROOT = '/admin/search/lexicon';
const entryPath = (id: string) => `${ROOT}/${encodeURIComponent(id)}`;

/** What a change would be: a new entry, or an existing one replaced. */
export type LexiconChange = { action: 'create'; entry: LexiconEntryBody } | { action: 'update'; entry_id: string; entry: LexiconEntryBody };

export const fetchLexicon = (query: { kind?: LexiconKind; region_id?: string; q?: string; limit: number; offset: number }) =>
  api.get<{ entries: LexiconEntryPayload[]; total: number; max_entries: number }>(ROOT, query);

// The writes answer the whole envelope: its message says what was done.

export const createLexiconEntry = (entry: LexiconEntryBody, opts?: CallOptions) => callApi('POST', ROOT, { ...opts, body: entry });

export const updateLexiconEntry = (id: string, entry: LexiconEntryBody, opts?: CallOptions) => callApi('PATCH', entryPath(id), { ...opts, body: entry });

/** Deleting an entry lets the bundled lexicon apply again. */
export const deleteLexiconEntry = (id: string) => callApi('DELETE', entryPath(id));

/** A file exported here or by another district. */
export const importLexicon = (file: unknown) => callApi('POST', `${ROOT}/import`, { body: file });

/** The recent questions whose answers the change would alter. */
export const previewLexiconChange = (change: LexiconChange, opts?: CallOptions) => api.post<LexiconPreviewPayload>(`${ROOT}/preview`, change, opts);

export const lexiconExportUrl = apiUrl(`${ROOT}/export`);
