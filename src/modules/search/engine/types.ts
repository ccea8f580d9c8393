/** One risk of a permit as the search engine sees it. */
export interface SearchRisk {
  id: string;
  title: string;
  description: string | null;
  legalBasis: string | null;
  consequence: string | null;
  prevention: string | null;
  level: string | null;
  riskType: string | null;
}

/** One permit in one region: the unit the engine indexes and returns. */
export interface SearchDoc {
  permitId: string;
  regionId: string;
  regionName: string;
  name: string;
  code: string | null;
  implementationLevel: string | null;
  approvalDepartments: string[];
  internalContact: string | null;
  contactInfo: string | null;
  themes: { id: string; name: string }[];
  visible: boolean;
  risks: SearchRisk[];
}

export interface SearchOptions {
  /** null/undefined = all regions; [] = nothing can match. */
  regionIds?: string[] | null;
  debug?: boolean;
  /** At most 20. */
  limit?: number;
}

export interface SearchHit {
  doc: SearchDoc;
  score: number;
  /** Query terms that hit, as substrings of the document's original text (for highlighting). */
  matched: string[];
  /** Score per field (debug only). */
  breakdown?: Record<string, number>;
}

/** How a query term was produced (shown by the debug output). */
export const TERM_ORIGINS = ['word', 'bigram', 'unigram', 'synonym', 'pinyin', 'initials', 'correction'] as const;
export type TermOrigin = (typeof TERM_ORIGINS)[number];

export interface SearchDebug {
  normalizedQuery: string;
  terms: { term: string; origin: TermOrigin; weight: number }[];
  timingsUs: { analyze: number; retrieve: number; rank: number; total: number };
}

export interface SearchResult {
  hits: SearchHit[];
  debug?: SearchDebug;
}
