import { getLexicon } from './lexicon.js';
import { readingKeys, runReadings } from './pinyin.js';
import type { SnapshotReader, SnapshotWriter } from './snapshot-codec.js';

/**
 * What pinyin and initials queries, and homophone typos, are resolved against: the words of
 * permit names and themes plus the names of the domain vocabulary (lexicon.ts), and the bigrams
 * of permit names, each filed under every way it can be read.
 */
export class PinyinVocab {
  private bySyllables = new Map<string, Set<string>>();
  private byInitials = new Map<string, Set<string>>();
  private nameBigrams = new Set<string>();
  private bigramsBySound = new Map<string, Set<string>>();
  private seenWords = new Set<string>();
  private seenRuns = new Set<string>();
  /** soundAlikes answers, valid until a new name run arrives. */
  private readonly alikeCache = new Map<string, string[]>();

  constructor() {
    for (const w of getLexicon().spelledVocabulary) this.addWord(w);
  }

  /** A CJK word of 2 to 8 characters becomes reachable by its pinyin and initials. */
  addWord(word: string): void {
    if (word.length < 2 || word.length > 8 || this.seenWords.has(word) || !/^[\u3400-\u9fff]+$/.test(word)) return;
    this.seenWords.add(word);
    const readings = runReadings(word);
    for (const k of readingKeys(readings, 0, word.length, false, ' ').slice(0, 8)) file(this.bySyllables, k, word);
    for (const k of readingKeys(readings, 0, word.length, true, '').slice(0, 8)) file(this.byInitials, k, word);
  }

  /** The bigrams of a run of a permit name, for homophone typo correction. */
  addNameRun(run: string, readings: string[][]): void {
    if (this.seenRuns.has(run)) return;
    this.seenRuns.add(run);
    this.alikeCache.clear();
    for (let i = 0; i + 1 < run.length; i++) {
      const bigram = run.slice(i, i + 2);
      this.nameBigrams.add(bigram);
      for (const k of readingKeys(readings, i, i + 2, false, ' ')) file(this.bigramsBySound, k, bigram);
    }
  }

  save(w: SnapshotWriter): void {
    for (const map of [this.bySyllables, this.byInitials, this.bigramsBySound]) {
      w.int(map.size);
      for (const [key, words] of map) {
        w.str(key);
        w.strs([...words]);
      }
    }
    for (const set of [this.nameBigrams, this.seenWords, this.seenRuns]) w.strs([...set]);
  }

  /** The vocabulary as saved: the bundled words are part of it. */
  static load(r: SnapshotReader): PinyinVocab {
    const v = Object.create(PinyinVocab.prototype) as PinyinVocab;
    const mapOfSets = () => {
      const map = new Map<string, Set<string>>();
      for (let n = r.int(); n > 0; n--) map.set(r.text(), new Set(r.strs()));
      return map;
    };
    Object.assign(v, {
      bySyllables: mapOfSets(),
      byInitials: mapOfSets(),
      bigramsBySound: mapOfSets(),
      nameBigrams: new Set(r.strs()),
      seenWords: new Set(r.strs()),
      seenRuns: new Set(r.strs()),
      alikeCache: new Map(),
    });
    return v;
  }

  wordsBySyllables(syllables: string): Iterable<string> {
    return this.bySyllables.get(syllables) ?? [];
  }

  wordsByInitials(initials: string): Iterable<string> {
    return this.byInitials.get(initials) ?? [];
  }

  isNameBigram(bigram: string): boolean {
    return this.nameBigrams.has(bigram);
  }

  /** Name bigrams that can sound like the given CJK bigram read as given (any reading of theirs). */
  soundAlikes(bigram: string, readings: string[][]): string[] {
    const cacheKey = bigram + readings.join('|');
    const cached = this.alikeCache.get(cacheKey);
    if (cached) return cached;
    const out = new Set<string>();
    for (const k of readingKeys(readings, 0, 2, false, ' ')) for (const b of this.bigramsBySound.get(k) ?? []) out.add(b);
    out.delete(bigram);
    const list = [...out];
    if (this.alikeCache.size >= 10_000) this.alikeCache.clear();
    this.alikeCache.set(cacheKey, list);
    return list;
  }
}

function file(map: Map<string, Set<string>>, key: string, word: string): void {
  const set = map.get(key);
  if (set) set.add(word);
  else map.set(key, new Set([word]));
}
