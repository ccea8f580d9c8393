import { readFileSync } from 'node:fs';
import type { Insertable } from 'kysely';
import type { Database, Executor } from '../../src/db/database.js';
import { chunked, ID_CHUNK, INSERT_CHUNK } from '../../src/db/batch.js';
import { nowIso } from '../../src/db/dialect.js';
import { ensureApprovalDepartmentIds } from '../../src/modules/approval-departments/approval-departments.repository.js';
import { copyRiskFields } from '../../src/modules/permits/risk.schema.js';

export interface CorpusRisk {
  key: string;
  risk_type: string | null;
  level: string | null;
  title: string;
  description: string | null;
  legal_basis: string | null;
  consequence: string | null;
  prevention: string | null;
}

export interface CorpusPermit {
  key: string;
  region: string;
  region_code: string;
  code: string;
  name: string;
  implementation_level: string | null;
  approval_departments: string[];
  internal_contact: string | null;
  contact_info: string | null;
  visible: boolean;
  /** Theme names. */
  themes: string[];
  risks: CorpusRisk[];
}

export interface Corpus {
  regions: Array<{ code: string; name: string }>;
  themes: Array<{ key: string; name: string }>;
  permits: CorpusPermit[];
}

let cached: Corpus | null = null;

/** The reference corpus (test/fixtures/corpus/corpus.json), parsed once per test file. */
export function loadCorpus(): Corpus {
  cached ??= JSON.parse(readFileSync(new URL('../fixtures/corpus/corpus.json', import.meta.url), 'utf8')) as Corpus;
  return cached;
}

export interface SeedResult {
  /** Region code → id. */
  regions: Map<string, number>;
  /** Theme key (T01…) → id, and theme name → id. */
  themes: Map<string, number>;
  themesByName: Map<string, number>;
  /** Permit key (`<region code>:<permit code>`) → id. */
  permits: Map<string, number>;
  /** Risk key (`<permit key>:r<n>`) → id. */
  risks: Map<string, number>;
  /** Approval department name → id. */
  approvalDepartments: Map<string, number>;
  /** The corpus permits that were seeded, in corpus order. */
  seeded: CorpusPermit[];
}

export interface SeedOptions {
  /** Region codes to seed (default: every region of the corpus). */
  regions?: string[];
  /** Seeds only the first N permits (corpus order) of each region. */
  maxPermitsPerRegion?: number;
}

async function insertChunked<T extends keyof Database>(db: Executor, table: T, rows: Insertable<Database[T]>[]) {
  for (const part of chunked(rows, INSERT_CHUNK)) await db.insertInto(table).values(part).execute();
}

/** The permits to seed: the chosen regions, at most N per region, in corpus order. */
function selectPermits(corpus: Corpus, opts: SeedOptions): CorpusPermit[] {
  const wanted = opts.regions ? new Set(opts.regions) : null;
  const taken = new Map<string, number>();
  return corpus.permits.filter((p) => {
    if (wanted && !wanted.has(p.region_code)) return false;
    const n = taken.get(p.region_code) ?? 0;
    if (opts.maxPermitsPerRegion !== undefined && n >= opts.maxPermitsPerRegion) return false;
    taken.set(p.region_code, n + 1);
    return true;
  });
}

/** Regions and themes: reuses rows that already exist (by code / name), inserts the rest. */
async function ensureRegionsAndThemes(db: Executor, corpus: Corpus, regionCodes: Set<string>, now: string) {
  const regionRows = corpus.regions.filter((r) => regionCodes.has(r.code));
  const existing = await db.selectFrom('regions').select(['id', 'code']).execute();
  const have = new Set(existing.map((r) => r.code));
  const missing = regionRows.filter((r) => !have.has(r.code)).map((r) => ({ code: r.code, name: r.name, created_at: now }));
  if (missing.length > 0) await insertChunked(db, 'regions', missing);
  const regions = new Map((await db.selectFrom('regions').select(['id', 'code']).execute()).map((r) => [r.code ?? '', r.id] as const));

  const themeNames = new Set((await db.selectFrom('themes').select('name').execute()).map((t) => t.name));
  const newThemes = corpus.themes.filter((t) => !themeNames.has(t.name)).map((t) => ({ name: t.name, created_at: now }));
  if (newThemes.length > 0) await insertChunked(db, 'themes', newThemes);
  const themesByName = new Map((await db.selectFrom('themes').select(['id', 'name']).execute()).map((t) => [t.name, t.id] as const));
  const themes = new Map(corpus.themes.map((t) => [t.key, themesByName.get(t.name)!] as const));
  return { regions, themes, themesByName };
}

async function seed(db: Executor, opts: SeedOptions): Promise<SeedResult> {
  const corpus = loadCorpus();
  const now = nowIso();
  const permits = selectPermits(corpus, opts);
  const regionCodes = new Set(opts.regions ?? corpus.regions.map((r) => r.code));
  const { regions, themes, themesByName } = await ensureRegionsAndThemes(db, corpus, regionCodes, now);

  await insertChunked(
    db,
    'permits',
    permits.map((p) => ({
      region_id: regions.get(p.region_code)!,
      code: p.code,
      name: p.name,
      implementation_level: p.implementation_level,
      internal_contact: p.internal_contact,
      contact_info: p.contact_info,
      visible: p.visible ? 1 : 0,
      source_file_id: null,
      created_at: now,
      updated_at: now,
    })),
  );
  // (region, code) is unique, so ids are read back by it rather than trusting RETURNING order.
  const permitIds = new Map<string, number>();
  const regionIds = [...new Set(permits.map((p) => regions.get(p.region_code)!))];
  const codeOf = new Map([...regions].map(([code, id]) => [id, code]));
  for (const part of chunked(regionIds, ID_CHUNK)) {
    const rows = await db.selectFrom('permits').select(['id', 'region_id', 'code']).where('region_id', 'in', part).execute();
    for (const r of rows) permitIds.set(`${codeOf.get(r.region_id)}:${r.code}`, r.id);
  }
  const idOf = (p: CorpusPermit) => permitIds.get(`${p.region_code}:${p.code}`)!;

  await insertChunked(
    db,
    'permit_themes',
    permits.flatMap((p) => p.themes.map((name) => ({ permit_id: idOf(p), theme_id: themesByName.get(name)! }))),
  );
  const offered = new Set(permits.flatMap((p) => p.themes.map((name) => `${regions.get(p.region_code)}:${themesByName.get(name)}`)));
  await insertChunked(
    db,
    'region_themes',
    [...offered].map((k) => {
      const [region_id, theme_id] = k.split(':').map(Number);
      return { region_id, theme_id };
    }),
  );

  const approvalDepartments = await ensureApprovalDepartmentIds(
    db,
    permits.flatMap((p) => p.approval_departments),
  );
  await insertChunked(
    db,
    'permit_approval_departments',
    permits.flatMap((p) =>
      p.approval_departments.map((name, position) => ({ permit_id: idOf(p), approval_department_id: approvalDepartments.get(name)!, position })),
    ),
  );

  await insertChunked(
    db,
    'risks',
    permits.flatMap((p) => p.risks.map((r, position) => ({ permit_id: idOf(p), position, ...copyRiskFields(r) }))),
  );
  const riskIds = new Map<string, number>();
  const byPermitId = new Map(permits.map((p) => [idOf(p), p] as const));
  for (const part of chunked([...byPermitId.keys()], ID_CHUNK)) {
    const rows = await db.selectFrom('risks').select(['id', 'permit_id', 'position']).where('permit_id', 'in', part).execute();
    for (const r of rows) {
      const risk = byPermitId.get(r.permit_id)?.risks[r.position];
      if (risk) riskIds.set(risk.key, r.id);
    }
  }

  return { regions, themes, themesByName, permits: permitIds, risks: riskIds, approvalDepartments, seeded: permits };
}

/**
 * Inserts the reference corpus (or part of it) straight into the catalogue tables: regions,
 * themes, region theme options (each theme offered where the region has permits of it), permits
 * with their theme and approval-department links, and risks. Regions and themes that already
 * exist (by code / name) are reused. Runs in one transaction unless given one.
 */
export async function seedCatalog(db: Executor, opts: SeedOptions = {}): Promise<SeedResult> {
  if (db.isTransaction) return seed(db, opts);
  return db.transaction().execute((trx) => seed(trx, opts));
}
