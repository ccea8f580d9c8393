import { pinyin } from 'pinyin-pro';
import { normalizeText } from './normalize.js';
import { readingKeys, runReadings } from './pinyin.js';
import { initialsKey, pinyinKey, runsOf } from './terms.js';

/** Brackets whose content qualifies a permit name rather than names it: （县级）, (含保健食品). */
const QUALIFIER = /[（(【[][^）)】\]]*[）)】\]]/g;

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

export interface SoundWindow {
  /** Positions in the normalised name. */
  start: number;
  end: number;
  /** Pinyin and initials keys the window can be read as. */
  keys: string[];
}

const CACHE_LIMIT = 20_000;
const cache = new Map<string, NameForms>();
const windowCache = new Map<string, SoundWindow[]>();

/** Core name, its pinyin and its initials; memoised, as names repeat across regions. */
export function nameForms(name: string): NameForms {
  let f = cache.get(name);
  if (!f) {
    const core = coreName(name);
    const syllables = pinyin(core, { type: 'array', toneType: 'none', v: true });
    f = { core, syllables, initials: syllables.map((s) => s[0] ?? '').join('') };
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(name, f);
  }
  return f;
}

/** Windows of 2 and 3 characters of the name with their pinyin and initials keys as read in context (highlighting). */
export function soundWindows(name: string): SoundWindow[] {
  let w = windowCache.get(name);
  if (!w) {
    w = [];
    for (const run of runsOf(normalizeText(name))) {
      if (!run.cjk) continue;
      // The reading in context only: highlighting 健食 for "jy" (食 can be read yi) would mislead.
      const readings = runReadings(run.text).map((r) => r.slice(0, 1));
      for (let i = 0; i + 1 < run.text.length; i++) {
        for (let len = 2; len <= 3 && i + len <= run.text.length; len++) {
          const keys = readingKeys(readings, i, i + len, true, '').map(initialsKey);
          if (len === 2) keys.push(...readingKeys(readings, i, i + 2, false, ' ').map(pinyinKey));
          w.push({ start: run.start + i, end: run.start + i + len, keys });
        }
      }
    }
    if (windowCache.size >= CACHE_LIMIT) windowCache.clear();
    windowCache.set(name, w);
  }
  return w;
}
