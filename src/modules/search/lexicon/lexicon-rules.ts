import { badRequest } from '../../../http/errors.js';
import { parseRecordId } from '../../../http/record-id.js';
import { nameKey, parsePattern } from '../engine/knowledge.js';
import { LEXICON_KINDS, type LexiconKind } from './lexicon.table.js';

/**
 * What an entry of each kind holds, normalised as the engine reads it (docs/search-lexicon.md),
 * and the checks that need nothing but the entry itself. Checks against the catalogue and the
 * other entries are in lexicon.service.ts.
 */
export type LexiconBody =
  | { kind: 'synonym'; words: string[]; replace: boolean }
  | { kind: 'expansion'; from: string; to: string[] }
  | { kind: 'alias'; phrases: string[]; code: string | null; pattern: string | null }
  | { kind: 'curation'; phrase: string; match: 'exact' | 'contains'; pins: string[]; hides: string[] };

/** An entry as given: its kind's fields, its region (null: global) and a note. */
export interface LexiconInput {
  body: LexiconBody;
  regionId: number | null;
  note: string | null;
}

export const MAX_WORD = 50;
export const MAX_ENTRIES = 10_000;
/** Most words one entry lists, most permits a curation pins or hides (an entry is a rule, not a list), longest note. */
const ENTRY_LIMITS = { words: 50, pins: 20, hides: 50, note: 200 };
/** Chinese characters (as the engine's normaliser classes them), or letters and digits. */
const CJK_WORD = /^[\u3007\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]+$/;
const LATIN_WORD = /^[a-z0-9]+$/;

export const KIND_LABELS: Record<LexiconKind, string> = { synonym: '同义词组', expansion: '单向扩展', alias: '许可别名', curation: '置顶与隐藏' };

/** A value as a message quotes it: short. */
const quote = (raw: string) => (raw.length > 20 ? `${raw.slice(0, 20)}…` : raw);

/**
 * A word normalised as the engine reads it (full-width, case, traditional characters, spaces):
 * Chinese characters, or letters and digits. A question is read in runs of one or the other, so
 * a word mixing them (4s店) would never meet one; a curation's question (`mixed`) may, being
 * compared whole.
 */
export function readWord(raw: unknown, what = '词语', mixed = false): string {
  if (typeof raw !== 'string' && typeof raw !== 'number') throw badRequest(`${what}必须是文字`);
  const word = nameKey(String(raw));
  if (word === '') throw badRequest(`${what}不能为空`);
  if (word.length > MAX_WORD) throw badRequest(`${what}不能超过 ${MAX_WORD} 个字符：${word.slice(0, 10)}…`);
  if (CJK_WORD.test(word) || LATIN_WORD.test(word)) return word;
  if (mixed) return word;
  // Normalised, a word holds nothing but Chinese characters, letters and digits: here it mixes them.
  throw badRequest(`${what}不能混合汉字与字母、数字：${quote(word)}（可分成两个词）`);
}

/** A list given as an array or as text separated by 、，, / or new lines. */
function readList(raw: unknown): unknown[] {
  if (raw === undefined || raw === null) return [];
  if (Array.isArray(raw)) return raw;
  if (typeof raw === 'string') return raw.split(/[、，,/\n]/).filter((w) => w.trim() !== '');
  if (typeof raw === 'number') return [raw];
  throw badRequest('列表格式不正确');
}

function readWords(raw: unknown, what: string, max = ENTRY_LIMITS.words): string[] {
  const items = readList(raw);
  if (items.length > max) throw badRequest(`${what}最多 ${max} 个`);
  return [...new Set(items.map((w) => readWord(w, what)))];
}

function readPermitIds(raw: unknown, what: string, max: number): string[] {
  const items = readList(raw);
  if (items.length > max) throw badRequest(`${what}最多 ${max} 个许可`);
  const ids = items.map((v) => {
    const id = typeof v === 'string' || typeof v === 'number' ? parseRecordId(String(v)) : null;
    if (id === null) throw badRequest(`许可编号不正确：${quote(String(v))}`);
    return String(id);
  });
  return [...new Set(ids)];
}

function readBody(kind: LexiconKind, input: Record<string, unknown>): LexiconBody {
  switch (kind) {
    case 'synonym': {
      const words = readWords(input.words, '同义词');
      if (words.length < 2) throw badRequest('同义词组至少需要两个不同的词');
      return { kind, words, replace: input.replace_bundled === true || input.replace_bundled === 'true' };
    }
    case 'expansion': {
      if (input.from === undefined || input.from === null || input.from === '') throw badRequest('单向扩展需要源词');
      const from = readWord(input.from, '源词');
      const to = readWords(input.to, '扩展词');
      if (to.length === 0) throw badRequest('单向扩展至少需要一个扩展词');
      if (to.includes(from)) throw badRequest(`单向扩展形成循环：${from} → ${from}`);
      return { kind, from, to };
    }
    case 'alias': {
      const phrases = readWords(input.phrases ?? input.aliases, '别名');
      if (phrases.length === 0) throw badRequest('别名不能为空');
      const code = typeof input.code === 'string' && input.code.trim() !== '' ? input.code.trim() : null;
      const patternText = typeof input.pattern === 'string' && input.pattern.trim() !== '' ? input.pattern.trim() : null;
      if ((code === null) === (patternText === null)) throw badRequest('别名需要指定许可编码或名称模式（二选一）');
      if (code !== null && code.length > MAX_WORD) throw badRequest(`许可编码不能超过 ${MAX_WORD} 个字符`);
      if (patternText !== null && (patternText.length > MAX_WORD || !parsePattern(patternText))) {
        throw badRequest('名称模式不正确：用 & 连接名称中的片段，片段前加 ! 表示不含，最长 50 个字符');
      }
      return { kind, phrases, code, pattern: patternText };
    }
    case 'curation': {
      if (input.phrase === undefined || input.phrase === null || input.phrase === '') throw badRequest('请填写要调整结果的问题');
      const phrase = readWord(input.phrase, '问题', true);
      const match = input.match ?? 'exact';
      if (match !== 'exact' && match !== 'contains') throw badRequest('匹配方式必须是 exact（完全相同）或 contains（包含）');
      const pins = readPermitIds(input.pins, '置顶', ENTRY_LIMITS.pins);
      const hides = readPermitIds(input.hides, '隐藏', ENTRY_LIMITS.hides);
      if (pins.length + hides.length === 0) throw badRequest('请至少置顶或隐藏一个许可');
      if (pins.some((p) => hides.includes(p))) throw badRequest('同一许可不能既置顶又隐藏');
      return { kind, phrase, match, pins, hides };
    }
  }
}

/** Reads an entry from a request or an imported file; 400 with the reason when it is not one. */
export function readLexiconInput(raw: unknown): LexiconInput {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) throw badRequest('词条必须是一个对象');
  const input = raw as Record<string, unknown>;
  const kind = input.kind;
  if (typeof kind !== 'string' || !(LEXICON_KINDS as readonly string[]).includes(kind)) {
    throw badRequest('词条类型必须是 synonym（同义词组）、expansion（单向扩展）、alias（许可别名）或 curation（置顶与隐藏）');
  }
  const region = input.region_id;
  let regionId: number | null = null;
  if (region !== undefined && region !== null && region !== '') {
    regionId = typeof region === 'string' || typeof region === 'number' ? parseRecordId(String(region)) : null;
    if (regionId === null) throw badRequest('区域编号不正确');
  }
  const note = typeof input.note === 'string' && input.note.trim() !== '' ? input.note.trim() : null;
  if (note !== null && note.length > ENTRY_LIMITS.note) throw badRequest(`备注不能超过 ${ENTRY_LIMITS.note} 个字符`);
  return { body: readBody(kind as LexiconKind, input), regionId, note };
}

/** What the body column stores: the kind's fields without the kind. */
export function storedBody(body: LexiconBody): string {
  const { kind: _kind, ...fields } = body;
  return JSON.stringify(fields);
}

export function parseStoredBody(kind: LexiconKind, text: string): LexiconBody {
  return { kind, ...JSON.parse(text) } as LexiconBody;
}

/**
 * A cycle the one-way expansions would form (源 → 扩展 → … → 源), as the words along it; null
 * when there is none. Expansions of every region count: a cycle is an error wherever it lies.
 */
export function expansionCycle(expansions: { from: string; to: string[] }[]): string[] | null {
  const next = new Map<string, string[]>();
  for (const e of expansions) next.set(e.from, [...(next.get(e.from) ?? []), ...e.to]);
  const done = new Set<string>();
  // Depth-first without recursion (a chain may be as long as the lexicon): the path's words, each with its next edge.
  for (const start of next.keys()) {
    if (done.has(start)) continue;
    const path: { word: string; edge: number }[] = [{ word: start, edge: 0 }];
    const onPath = new Set([start]);
    while (path.length > 0) {
      const top = path[path.length - 1];
      const targets = next.get(top.word) ?? [];
      if (top.edge === targets.length) {
        done.add(top.word);
        onPath.delete(top.word);
        path.pop();
        continue;
      }
      const t = targets[top.edge++];
      if (onPath.has(t)) return [...path.slice(path.findIndex((p) => p.word === t)).map((p) => p.word), t];
      if (!done.has(t)) {
        path.push({ word: t, edge: 0 });
        onPath.add(t);
      }
    }
  }
  return null;
}
