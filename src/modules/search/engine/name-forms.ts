import { pinyin } from 'pinyin-pro';
import { normalizeText } from './normalize.js';

/** Brackets whose content qualifies a permit name rather than names it: （县级）, (含保健食品). */
const QUALIFIER = /[（(【\[][^）)】\]]*[）)】\]]/g;

/**
 * The permit name as people say it: qualifiers in brackets dropped, punctuation and spaces
 * removed ("食品(含保健食品)经营许可核发" → "食品经营许可核发"), normalised.
 */
export function coreName(name: string): string {
  const stripped = name.replace(QUALIFIER, '');
  return normalizeText(stripped.trim() === '' ? name : stripped).replace(/ +/g, '');
}

export interface NameForms {
  core: string;
  /** Toneless syllables of the core name (reading in context). */
  syllables: string[];
  /** First letters of those syllables. */
  initials: string;
}

const CACHE_LIMIT = 20_000;
const cache = new Map<string, NameForms>();

/** Core name, its pinyin and its initials; memoised, as names repeat across regions. */
export function nameForms(name: string): NameForms {
  let f = cache.get(name);
  if (!f) {
    const core = coreName(name);
    const syllables = pinyin(core, { type: 'array', toneType: 'none', v: true }) as string[];
    f = { core, syllables, initials: syllables.map((s) => s[0] ?? '').join('') };
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(name, f);
  }
  return f;
}
