import type { AppContext, DataChange } from '../../../context.js';
import type { Executor } from '../../../db/database.js';
import { chunked, ID_CHUNK } from '../../../db/batch.js';
import { nowIso } from '../../../db/dialect.js';
import { badRequest, forbidden, notFound } from '../../../http/errors.js';
import type { CurrentUser } from '../../auth/current-user.js';
import { writeChange } from '../../changes/change-transaction.js';
import { parseRecordId } from '../../../http/record-id.js';
import { listRegionRows, type RegionRow } from '../../regions/regions.repository.js';
import { matchesPattern, nameKey, parsePattern } from '../engine/knowledge.js';
import { expansionCycle, MAX_ENTRIES, parseStoredBody, readLexiconInput, storedBody, type LexiconBody, type LexiconInput } from './lexicon-rules.js';
import { allLexiconRows, deleteLexiconRow, insertLexiconRows, listLexiconRows, updateLexiconRow, type LexiconRow } from './lexicon.repository.js';
import type { LexiconKind } from './lexicon.table.js';
import { entryFields, type LexiconNames } from './lexicon.presenter.js';

/** Told to every instance (the change feed): each reloads the entries and applies them to its index. */
export const LEXICON_CHANGE: DataChange = { kind: 'lexicon' };
const NOT_FOUND = '词条不存在';

type Actor = Pick<CurrentUser, 'username' | 'role'>;

/** The super administrator keeps the global entries; administrators of grade ≥ 90 (the route's guard) their regions'. */
function assertMayWrite(actor: Actor, regionId: number | null): void {
  if (regionId === null && actor.role !== 'admin') throw forbidden('权限不足');
}

/** What the checks need of the catalogue for some entries, read in one go. */
interface CatalogueFacts {
  permits: Map<string, { name: string; regionId: number; visible: boolean }>;
  codes: Map<string, Set<number>>;
  /** Permit names with their regions, read only when an entry has a name pattern. */
  names: { key: string; regionId: number }[];
  regions: Map<number, RegionRow>;
}

async function catalogueFacts(db: Executor, inputs: LexiconInput[]): Promise<CatalogueFacts> {
  const ids = new Set<number>();
  const codes = new Set<string>();
  let patterns = false;
  for (const { body } of inputs) {
    if (body.kind === 'curation') for (const id of [...body.pins, ...body.hides]) ids.add(Number(id));
    if (body.kind === 'alias' && body.code !== null) codes.add(body.code);
    if (body.kind === 'alias' && body.pattern !== null) patterns = true;
  }
  const facts: CatalogueFacts = { permits: new Map(), codes: new Map(), names: [], regions: new Map((await listRegionRows(db)).map((r) => [r.id, r])) };
  for (const part of chunked([...ids], ID_CHUNK)) {
    for (const p of await db.selectFrom('permits').select(['id', 'name', 'region_id', 'visible']).where('id', 'in', part).execute()) {
      facts.permits.set(String(p.id), { name: p.name, regionId: p.region_id, visible: Number(p.visible) === 1 });
    }
  }
  for (const part of chunked([...codes], ID_CHUNK)) {
    for (const p of await db.selectFrom('permits').select(['code', 'region_id']).where('code', 'in', part).execute()) {
      facts.codes.set(p.code!, (facts.codes.get(p.code!) ?? new Set()).add(p.region_id));
    }
  }
  if (patterns)
    facts.names = (await db.selectFrom('permits').select(['name', 'region_id']).distinct().execute()).map((p) => ({
      key: nameKey(p.name),
      regionId: p.region_id,
    }));
  return facts;
}

/** The checks against the catalogue: the region exists; aliases name permits; pins and hides are permits of the entry's region, pins visible ones. */
function checkAgainstCatalogue(input: LexiconInput, facts: CatalogueFacts): void {
  const { body, regionId } = input;
  if (regionId !== null && !facts.regions.has(regionId)) throw badRequest('区域不存在');
  const inScope = (r: number) => regionId === null || r === regionId;
  if (body.kind === 'alias' && body.code !== null && ![...(facts.codes.get(body.code) ?? [])].some(inScope)) {
    throw badRequest(regionId === null ? `没有编码为 ${body.code} 的许可` : `所选区域没有编码为 ${body.code} 的许可`);
  }
  if (body.kind === 'alias' && body.pattern !== null) {
    const pattern = parsePattern(body.pattern)!;
    if (!facts.names.some((n) => inScope(n.regionId) && matchesPattern(pattern, n.key))) throw badRequest(`名称模式 ${body.pattern} 没有匹配到任何许可`);
  }
  if (body.kind === 'curation') {
    for (const id of [...body.pins, ...body.hides]) {
      const p = facts.permits.get(id);
      if (!p) throw badRequest(`许可不存在：${id}`);
      if (!inScope(p.regionId)) throw badRequest(`许可不属于所选区域：${p.name}`);
    }
    for (const id of body.pins) if (!facts.permits.get(id)!.visible) throw badRequest(`许可已隐藏，不能置顶：${facts.permits.get(id)!.name}`);
  }
}

/** What makes two entries the same entry. */
const identity = (e: { kind: string; region_id: number | null; body: string }) => `${e.kind}|${e.region_id}|${e.body}`;

/** The checks across entries: no duplicate, no cycle of expansions, not more than the limit. */
function checkAgainstEntries(proposed: { kind: LexiconKind; region_id: number | null; body: string }[]): void {
  if (proposed.length > MAX_ENTRIES) throw badRequest(`词库条目不能超过 ${MAX_ENTRIES} 条`);
  const seen = new Set<string>();
  for (const e of proposed) {
    if (seen.has(identity(e))) throw badRequest('相同的词条已存在');
    seen.add(identity(e));
  }
  const expansions = proposed
    .filter((e) => e.kind === 'expansion')
    .map((e) => parseStoredBody('expansion', e.body) as Extract<LexiconBody, { kind: 'expansion' }>);
  const cycle = expansionCycle(expansions);
  if (cycle) throw badRequest(`单向扩展形成循环：${cycle.join(' → ')}`);
}

const rowOf = (input: LexiconInput) => ({ kind: input.body.kind, region_id: input.regionId, body: storedBody(input.body) });

/** One change of the lexicon as the preview and the writes take it: a new entry, a replaced one, or one removed. */
export type LexiconChange =
  { action: 'create'; input: LexiconInput } | { action: 'update'; id: number; input: LexiconInput } | { action: 'delete'; id: number };

/**
 * The entries after a change, checked: the actor's ceiling, the catalogue and the other entries.
 * Reads within `db` (the write's transaction, or the database for a preview).
 */
export async function proposedEntries(
  db: Executor,
  actor: Actor,
  change: LexiconChange,
): Promise<{ before: LexiconRow[]; after: Omit<LexiconRow, 'id'>[]; target: LexiconRow | null }> {
  const before = await allLexiconRows(db);
  const target = change.action === 'create' ? null : (before.find((r) => r.id === change.id) ?? null);
  if (change.action !== 'create' && !target) throw notFound(NOT_FOUND);
  if (target) assertMayWrite(actor, target.region_id);
  const kept = before.filter((r) => r !== target);
  if (change.action === 'delete') return { before, after: kept, target };
  assertMayWrite(actor, change.input.regionId);
  checkAgainstCatalogue(change.input, await catalogueFacts(db, [change.input]));
  const stamp = {
    note: change.input.note,
    created_by: target?.created_by ?? actor.username,
    created_at: target?.created_at ?? '',
    updated_by: actor.username,
    updated_at: '',
  };
  const after = [...kept, { ...rowOf(change.input), ...stamp }];
  checkAgainstEntries(after);
  return { before, after, target };
}

export function readLexiconChange(action: LexiconChange['action'], rawId: unknown, rawEntry: unknown): LexiconChange {
  if (action === 'create') return { action, input: readLexiconInput(rawEntry) };
  const id = typeof rawId === 'string' || typeof rawId === 'number' ? parseRecordId(String(rawId)) : null;
  if (id === null) throw notFound(NOT_FOUND);
  return action === 'delete' ? { action, id } : { action, id, input: readLexiconInput(rawEntry) };
}

/** Saves one change (checked as the preview checks it), tells every instance, and answers the entry (for a removal, the one removed). */
export async function saveLexiconChange(ctx: AppContext, actor: Actor, change: LexiconChange): Promise<{ entry: LexiconRow; previous: LexiconRow | null }> {
  return writeChange(
    ctx,
    async (trx) => {
      const { target } = await proposedEntries(trx, actor, change);
      const now = nowIso(ctx.now);
      if (change.action === 'delete') {
        await deleteLexiconRow(trx, change.id);
        return { entry: target!, previous: target };
      }
      const fields = { ...rowOf(change.input), note: change.input.note, updated_by: actor.username, updated_at: now };
      if (change.action === 'update') return { entry: await updateLexiconRow(trx, change.id, fields), previous: target };
      const [entry] = await insertLexiconRows(trx, [{ ...fields, created_by: actor.username, created_at: now }]);
      return { entry, previous: null };
    },
    () => LEXICON_CHANGE,
    { catalogueLock: true },
  );
}

/** The file an export writes and an import reads (docs/search-lexicon.md). */
export const LEXICON_FILE_FORMAT = 'lawrisk-search-lexicon';

export interface LexiconFileEntry extends Record<string, unknown> {
  kind: LexiconKind;
  /** The region's code (its name when it has none); absent for a global entry. */
  region?: string;
  note?: string;
}

/** A curated permit as a file names it: its region's code (or name) and its code, or its name without one. */
interface PermitReference {
  region: string;
  code: string | null;
  name: string;
}

/** The curated permits of entries as references, by id: ids mean nothing in another database. */
async function permitReferences(db: Executor, ids: number[], regions: Map<number, RegionRow>): Promise<Map<string, PermitReference>> {
  const out = new Map<string, PermitReference>();
  for (const part of chunked(ids, ID_CHUNK)) {
    for (const p of await db.selectFrom('permits').select(['id', 'region_id', 'code', 'name']).where('id', 'in', part).execute()) {
      const region = regions.get(p.region_id);
      out.set(String(p.id), { region: region?.code ?? region?.name ?? String(p.region_id), code: p.code, name: p.name });
    }
  }
  return out;
}

export async function exportLexicon(ctx: AppContext): Promise<{ format: string; version: 1; exported_at: string; entries: LexiconFileEntry[] }> {
  const regions = new Map((await listRegionRows(ctx.db)).map((r) => [r.id, r]));
  const rows = await allLexiconRows(ctx.db);
  const bodies = rows.map((row) => parseStoredBody(row.kind, row.body));
  const curated = bodies.flatMap((b) => (b.kind === 'curation' ? [...b.pins, ...b.hides].map(Number) : []));
  const references = await permitReferences(ctx.db, [...new Set(curated)], regions);
  const refer = (ids: string[]) => ids.flatMap((id) => references.get(id) ?? []);
  const entries = rows.map((row, i) => {
    const region = row.region_id === null ? undefined : regions.get(row.region_id);
    const body = bodies[i];
    const fields = body.kind === 'curation' ? { ...entryFields(body), pins: refer(body.pins), hides: refer(body.hides) } : entryFields(body);
    return { kind: row.kind, ...(region ? { region: region.code ?? region.name } : {}), ...fields, ...(row.note ? { note: row.note } : {}) };
  });
  return { format: LEXICON_FILE_FORMAT, version: 1, exported_at: nowIso(ctx.now), entries };
}

/** A region named by a file: by code, else by name. */
const regionNamed = (regions: RegionRow[], token: string) => regions.find((r) => r.code === token) ?? regions.find((r) => r.name === token);

/** The ids of the permits a file's references name in this database; a reference that names none is refused. */
async function resolveReferences(db: Executor, regions: RegionRow[], raw: unknown): Promise<string[]> {
  if (!Array.isArray(raw)) throw badRequest('置顶和隐藏的许可必须是列表');
  const ids: string[] = [];
  for (const ref of raw as unknown[]) {
    const r = ref as Partial<PermitReference> | null;
    if (!r || typeof r !== 'object' || typeof r.region !== 'string' || typeof r.name !== 'string') throw badRequest('许可应写作 {region, code, name}');
    const region = regionNamed(regions, r.region);
    let q = db
      .selectFrom('permits')
      .select('id')
      .where('region_id', '=', region?.id ?? -1);
    q = typeof r.code === 'string' && r.code !== '' ? q.where('code', '=', r.code) : q.where('name', '=', r.name);
    const found = region ? await q.execute() : [];
    if (found.length !== 1) throw badRequest(`许可不存在：${quote(`${r.region} ${r.code ?? ''} ${r.name}`)}`);
    ids.push(String(found[0].id));
  }
  return ids;
}

const quote = (text: string) => (text.length > 60 ? `${text.slice(0, 60)}…` : text);

/** Names an import's problem by the entry's place in the file. */
async function atEntry<T>(i: number, work: () => T | Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    if (err instanceof Error) err.message = `第 ${i + 1} 条：${err.message}`;
    throw err;
  }
}

/**
 * Adds the entries of an exported file, all or none: each checked as if created one by one, the
 * ones identical to an entry already there skipped. Regions are found by code or name, curated
 * permits by their region and code (or name).
 */
export async function importLexicon(ctx: AppContext, actor: Actor, file: unknown): Promise<{ added: number; skipped: number }> {
  const f = file as { format?: unknown; entries?: unknown } | null;
  if (!f || typeof f !== 'object' || f.format !== LEXICON_FILE_FORMAT || !Array.isArray(f.entries))
    throw badRequest('不是词库导出文件（缺少 format 或 entries）');
  if (f.entries.length > MAX_ENTRIES) throw badRequest(`词库条目不能超过 ${MAX_ENTRIES} 条`);
  const entries = f.entries as unknown[];
  const regions = await listRegionRows(ctx.db);
  const inputs: LexiconInput[] = [];
  for (const [i, raw] of entries.entries()) {
    inputs.push(
      await atEntry(i, async () => {
        if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw badRequest('词条必须是一个对象');
        const e = raw as Record<string, unknown>;
        const token = e.region;
        if (token !== undefined && typeof token !== 'string') throw badRequest('区域必须是区域编码或名称');
        const region = token === undefined || token === '' ? null : regionNamed(regions, token);
        if (region === undefined) throw badRequest(`区域不存在：${quote(String(token))}`);
        const curated =
          e.kind === 'curation'
            ? { pins: await resolveReferences(ctx.db, regions, e.pins ?? []), hides: await resolveReferences(ctx.db, regions, e.hides ?? []) }
            : {};
        return readLexiconInput({ ...e, ...curated, region_id: region?.id ?? null });
      }),
    );
  }
  for (const input of inputs) assertMayWrite(actor, input.regionId);
  return writeChange(
    ctx,
    async (trx) => {
      const existing = await allLexiconRows(trx);
      const facts = await catalogueFacts(trx, inputs);
      const seen = new Set(existing.map(identity));
      const fresh: LexiconInput[] = [];
      for (const [i, input] of inputs.entries()) {
        const key = identity(rowOf(input));
        if (seen.has(key)) continue;
        seen.add(key);
        await atEntry(i, () => checkAgainstCatalogue(input, facts));
        fresh.push(input);
      }
      checkAgainstEntries([...existing, ...fresh.map(rowOf)]);
      const now = nowIso(ctx.now);
      await insertLexiconRows(
        trx,
        fresh.map((input) => ({ ...rowOf(input), note: input.note, created_by: actor.username, created_at: now, updated_by: actor.username, updated_at: now })),
      );
      return { added: fresh.length, skipped: inputs.length - fresh.length };
    },
    (r) => (r.added > 0 ? LEXICON_CHANGE : null),
    { catalogueLock: true },
  );
}

/** What the list's word search looks in: the entry's words, codes, patterns and note, in lower case. */
function searchText(row: LexiconRow): string {
  const values = Object.values(entryFields(parseStoredBody(row.kind, row.body))).flat();
  return [...values, row.note ?? ''].join('\u0000').toLowerCase();
}

export async function listLexicon(
  db: Executor,
  filter: { kind?: LexiconKind; regionId?: number | null; text?: string },
  page: { limit: number; offset: number },
) {
  let rows = await listLexiconRows(db, filter);
  const text = filter.text?.trim().toLowerCase();
  if (text) {
    const word = nameKey(text);
    rows = rows.filter((r) => {
      const haystack = searchText(r);
      return haystack.includes(text) || haystack.includes(word);
    });
  }
  return { rows: rows.slice(page.offset, page.offset + page.limit), total: rows.length };
}

/** The names lexicon entries show beside their ids: every region's, and their curated permits'. */
export async function lexiconNames(db: Executor, bodies: LexiconBody[]): Promise<LexiconNames> {
  const regions = new Map((await listRegionRows(db)).map((r) => [r.id, r.name]));
  const ids = new Set<number>();
  for (const b of bodies) if (b.kind === 'curation') for (const id of [...b.pins, ...b.hides]) ids.add(Number(id));
  const permits = new Map<string, string>();
  if (ids.size > 0)
    for (const p of await db
      .selectFrom('permits')
      .select(['id', 'name'])
      .where('id', 'in', [...ids])
      .execute())
      permits.set(String(p.id), p.name);
  return { regions, permits };
}
