import { readFileSync } from 'node:fs';
import type { SearchDoc } from '../../src/modules/search/engine/types.js';
import type { LabelledQuery } from '../../src/modules/search/engine/relevance-metrics.js';

/** Shape of test/fixtures/corpus/corpus.json (the fields the engine uses). */
export interface CorpusFile {
  regions: { code: string; name: string }[];
  themes: { key: string; name: string }[];
  permits: {
    key: string;
    region: string;
    region_code: string;
    code: string | null;
    name: string;
    implementation_level: string | null;
    approval_departments: string[];
    internal_contact: string | null;
    contact_info: string | null;
    visible: boolean;
    themes: string[];
    risks: {
      key: string;
      risk_type: string | null;
      level: string | null;
      title: string;
      description: string | null;
      legal_basis: string | null;
      consequence: string | null;
      prevention: string | null;
    }[];
  }[];
}

export const CORPUS_PATH = 'test/fixtures/corpus/corpus.json';
export const DEV_QUERIES_PATH = 'test/fixtures/corpus/queries-dev.jsonl';
/** The project's own labelled queries: a set tuned on, and a frozen checking set never tuned on. */
export const TUNE_QUERIES_PATH = 'test/fixtures/corpus/queries-tune.jsonl';
/** A second tuning set, written like the second checking set (citizens' phrasing over every department). */
export const TUNE2_QUERIES_PATH = 'test/fixtures/corpus/queries-tune2.jsonl';
export const CHECK_QUERIES_PATH = 'test/fixtures/corpus/queries-check.jsonl';
/** A second frozen checking set, written from the catalogue alone after the tuning, by an author who saw nothing of the engine. */
export const CHECK2_QUERIES_PATH = 'test/fixtures/corpus/queries-check2.jsonl';

export function loadCorpus(path = CORPUS_PATH): CorpusFile {
  return JSON.parse(readFileSync(path, 'utf8')) as CorpusFile;
}

/** SearchDocs of the corpus: permit id = permit key, region id = region code, risk id = risk key. */
export function corpusDocs(corpus: CorpusFile): SearchDoc[] {
  const themeIds = new Map(corpus.themes.map((t) => [t.name, t.key]));
  return corpus.permits.map((p) => ({
    permitId: p.key,
    regionId: p.region_code,
    regionName: p.region,
    name: p.name,
    code: p.code,
    implementationLevel: p.implementation_level,
    approvalDepartments: p.approval_departments,
    internalContact: p.internal_contact,
    contactInfo: p.contact_info,
    themes: p.themes.map((name) => ({ id: themeIds.get(name) ?? name, name })),
    visible: p.visible,
    risks: p.risks.map((r) => ({
      id: r.key,
      title: r.title,
      description: r.description,
      legalBasis: r.legal_basis,
      consequence: r.consequence,
      prevention: r.prevention,
      level: r.level,
      riskType: r.risk_type,
    })),
  }));
}

export function loadQueries(path = DEV_QUERIES_PATH): LabelledQuery[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((l) => l.trim() !== '')
    .map((l) => JSON.parse(l) as LabelledQuery);
}

/** The region filter of a labelled query as region codes (it names regions by name or code). */
export function regionFilter(corpus: CorpusFile, region: LabelledQuery['region']): string[] | null {
  if (region == null) return null;
  const tokens = Array.isArray(region) ? region : [region];
  const codes = new Set<string>();
  for (const t of tokens) {
    for (const r of corpus.regions) if (r.code === t || r.name === t) codes.add(r.code);
  }
  return [...codes];
}
