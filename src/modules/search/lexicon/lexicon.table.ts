import type { Generated } from 'kysely';

export const LEXICON_KINDS = ['synonym', 'expansion', 'alias', 'curation'] as const;
export type LexiconKind = (typeof LEXICON_KINDS)[number];

/** One administrator's entry of the search lexicon (docs/search-lexicon.md). */
export interface SearchLexiconTable {
  id: Generated<number>;
  kind: LexiconKind;
  /** The region it belongs to; null for a global entry (the super administrator's). */
  region_id: number | null;
  /** The entry's fields for its kind, normalised, as JSON (lexicon-rules.ts). */
  body: string;
  note: string | null;
  created_by: string | null;
  created_at: string;
  updated_by: string | null;
  updated_at: string;
}

export interface Tables {
  search_lexicon: SearchLexiconTable;
}
