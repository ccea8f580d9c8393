import type { Insertable, Selectable } from 'kysely';
import type { Executor } from '../../../db/database.js';
import type { LexiconRules } from '../engine/admin-lexicon.js';
import { parseStoredBody } from './lexicon-rules.js';
import type { LexiconKind, SearchLexiconTable } from './lexicon.table.js';

export type LexiconRow = Selectable<SearchLexiconTable>;

/** The entries of a kind and region (null: the global ones; undefined: all), newest first. */
export function listLexiconRows(db: Executor, f: { kind?: LexiconKind; regionId?: number | null }): Promise<LexiconRow[]> {
  let q = db.selectFrom('search_lexicon').selectAll();
  if (f.kind) q = q.where('kind', '=', f.kind);
  if (f.regionId === null) q = q.where('region_id', 'is', null);
  else if (f.regionId !== undefined) q = q.where('region_id', '=', f.regionId);
  return q.orderBy('id', 'desc').execute();
}

export function allLexiconRows(db: Executor): Promise<LexiconRow[]> {
  return db.selectFrom('search_lexicon').selectAll().orderBy('id').execute();
}

export function insertLexiconRows(db: Executor, rows: Insertable<SearchLexiconTable>[]): Promise<LexiconRow[]> {
  return rows.length === 0 ? Promise.resolve([]) : db.insertInto('search_lexicon').values(rows).returningAll().execute();
}

export function updateLexiconRow(
  db: Executor,
  id: number,
  patch: Pick<LexiconRow, 'kind' | 'region_id' | 'body' | 'note' | 'updated_by' | 'updated_at'>,
): Promise<LexiconRow> {
  return db.updateTable('search_lexicon').set(patch).where('id', '=', id).returningAll().executeTakeFirstOrThrow();
}

export async function deleteLexiconRow(db: Executor, id: number): Promise<void> {
  await db.deleteFrom('search_lexicon').where('id', '=', id).execute();
}

/** The entries as the engine applies them (admin-lexicon.ts). */
export function rulesOf(rows: Pick<LexiconRow, 'kind' | 'region_id' | 'body'>[]): LexiconRules {
  const rules: LexiconRules = { synonyms: [], expansions: [], aliases: [], curations: [] };
  for (const row of rows) {
    const regionId = row.region_id === null ? null : String(row.region_id);
    const b = parseStoredBody(row.kind, row.body);
    if (b.kind === 'synonym') rules.synonyms.push({ words: b.words, replace: b.replace, regionId });
    else if (b.kind === 'expansion') rules.expansions.push({ from: b.from, to: b.to, regionId });
    else if (b.kind === 'alias') rules.aliases.push({ phrases: b.phrases, code: b.code, pattern: b.pattern, regionId });
    else rules.curations.push({ phrase: b.phrase, match: b.match, pins: b.pins, hides: b.hides, regionId });
  }
  return rules;
}

export async function loadLexiconRules(db: Executor): Promise<LexiconRules> {
  return rulesOf(await db.selectFrom('search_lexicon').select(['kind', 'region_id', 'body']).orderBy('id').execute());
}
