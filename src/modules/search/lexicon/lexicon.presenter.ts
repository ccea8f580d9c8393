import { recordIdText } from '../../../http/record-id.js';
import { KIND_LABELS, type LexiconBody } from './lexicon-rules.js';
import type { LexiconRow } from './lexicon.repository.js';

/** A lexicon entry's body as the API and the export show it: its fields under their request names. */
export function entryFields(body: LexiconBody): Record<string, unknown> {
  switch (body.kind) {
    case 'synonym':
      return { words: body.words, replace_bundled: body.replace };
    case 'expansion':
      return { from: body.from, to: body.to };
    case 'alias':
      return { phrases: body.phrases, code: body.code, pattern: body.pattern };
    case 'curation':
      return { phrase: body.phrase, match: body.match, pins: body.pins, hides: body.hides };
  }
}

/** The names a lexicon entry shows beside its ids: regions by id, curated permits by id. */
export interface LexiconNames {
  regions: Map<number, string>;
  permits: Map<string, string>;
}

/** A lexicon entry as the API shows it, with its region's and its curated permits' names. */
export function presentLexiconEntry(r: LexiconRow, body: LexiconBody, names: LexiconNames) {
  const permits: Record<string, string> = {};
  if (body.kind === 'curation') for (const id of [...body.pins, ...body.hides]) permits[id] = names.permits.get(id) ?? '（已删除）';
  return {
    id: String(r.id),
    kind: r.kind,
    kind_label: KIND_LABELS[r.kind],
    region_id: recordIdText(r.region_id),
    region_name: r.region_id === null ? null : (names.regions.get(r.region_id) ?? null),
    ...entryFields(body),
    permits,
    note: r.note,
    created_by: r.created_by,
    created_at: r.created_at,
    updated_by: r.updated_by,
    updated_at: r.updated_at,
  };
}
