// bench/search/corpus.ts
import { readFileSync } from "node:fs";
var CORPUS_PATH = "test/fixtures/corpus/corpus.json";
var DEV_QUERIES_PATH = "test/fixtures/corpus/queries-dev.jsonl";
function loadCorpus(path = CORPUS_PATH) {
  return JSON.parse(readFileSync(path, "utf8"));
}
function corpusDocs(corpus) {
  const themeIds = new Map(corpus.themes.map((t2) => [t2.name, t2.key]));
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
      riskType: r.risk_type
    }))
  }));
}
function loadQueries(path = DEV_QUERIES_PATH) {
  return readFileSync(path, "utf8").split("\n").filter((l) => l.trim() !== "").map((l) => JSON.parse(l));
}

// bench/search/scale-corpus.ts
function scaleCorpus(real, permits = 1e5, risksPerPermit = 10, seed = 42) {
  const rnd = mulberry32(seed);
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  const regionsOrder = [...new Set(real.map((d) => d.regionId))];
  const byDept = /* @__PURE__ */ new Map();
  const allRisks = [];
  for (const d of real) {
    for (const r of d.risks) {
      allRisks.push(r);
      for (const dept of d.approvalDepartments) {
        const list = byDept.get(dept) ?? [];
        list.push(r);
        byDept.set(dept, list);
      }
    }
  }
  const clauses = allRisks.flatMap((r) => splitClauses(r.description ?? ""));
  const out = [];
  for (let copy = 0; out.length < permits; copy++) {
    for (const d of real) {
      if (out.length >= permits) break;
      const r = regionsOrder.indexOf(d.regionId);
      const regionId = `9${String(copy).padStart(4, "0")}${r}`;
      const regionName = `\u5408\u6210${copy}${["\u5E02", "\u4E1C\u533A", "\u897F\u533A"][r] ?? "\u533A"}`;
      const permitId = `${regionId}:${d.code ?? d.permitId}`;
      const pool = [...d.risks];
      const related = byDept.get(d.approvalDepartments[0] ?? "") ?? allRisks;
      while (pool.length < risksPerPermit) pool.push(pick(related.length > 3 ? related : allRisks));
      const risks = pool.slice(0, risksPerPermit).map((risk, i) => ({
        ...risk,
        id: `${permitId}:r${i + 1}`,
        title: rnd() < 0.2 ? `${risk.title}\uFF08${pick(["\u521D\u6B21", "\u518D\u6B21", "\u591A\u6B21", "\u60C5\u8282\u8F83\u91CD"])}\uFF09` : risk.title,
        description: perturb(risk.description, regionName),
        consequence: rnd() < 0.3 ? changeAmounts(risk.consequence) : risk.consequence
      }));
      out.push({ ...d, permitId, regionId, regionName, risks });
    }
  }
  return out;
  function perturb(text, place) {
    if (!text) return text;
    let parts = splitClauses(text);
    if (parts.length > 1 && rnd() < 0.3) parts = shuffle(parts);
    if (parts.length > 2 && rnd() < 0.3) parts.splice(Math.floor(rnd() * parts.length), 1);
    if (rnd() < 0.4) parts.splice(Math.floor(rnd() * (parts.length + 1)), 0, pick(clauses));
    if (rnd() < 0.2) parts.unshift(`${place}\u8F96\u533A\u5185`);
    return changeAmounts(parts.join("\uFF0C") + "\u3002");
  }
  function changeAmounts(text) {
    if (!text) return text;
    return text.replace(/[一二三四五六七八九十百千万\d]+(?=(万元|元|日|个工作日|年|个月))/g, () => String(1 + Math.floor(rnd() * 50)));
  }
  function shuffle(xs) {
    const a = [...xs];
    for (let i = a.length - 1; i > 0; i--) {
      const j = Math.floor(rnd() * (i + 1));
      [a[i], a[j]] = [a[j], a[i]];
    }
    return a;
  }
}
function splitClauses(text) {
  return text.split(/[，；。]/).map((s) => s.trim()).filter((s) => s !== "");
}
function mulberry32(seed) {
  let a = seed >>> 0;
  return () => {
    a = a + 1831565813 >>> 0;
    let t2 = a;
    t2 = Math.imul(t2 ^ t2 >>> 15, t2 | 1);
    t2 ^= t2 + Math.imul(t2 ^ t2 >>> 7, t2 | 61);
    return ((t2 ^ t2 >>> 14) >>> 0) / 4294967296;
  };
}

// bench/search/query-mix.ts
import { pinyin } from "pinyin-pro";
function latencyQueries(docs2, dev, total = 1e4, seed = 7) {
  const rnd = mulberry32(seed);
  const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
  const visible = docs2.filter((d) => d.visible);
  const regions = [...new Set(docs2.map((d) => d.regionId))];
  const cjk = (s) => s.replace(/[^\u4e00-\u9fff]/g, "");
  const fragment = (s, min, max) => {
    const t2 = cjk(s);
    const len = Math.min(t2.length, min + Math.floor(rnd() * (max - min + 1)));
    const at = Math.floor(rnd() * Math.max(1, t2.length - len + 1));
    return t2.slice(at, at + len);
  };
  const makers = [
    () => fragment(pick(visible).name, 2, 6),
    () => pick(visible).name,
    () => fragment(pick(pick(visible).risks)?.title ?? "", 4, 8),
    () => `${fragment(pick(pick(visible).risks)?.title ?? "", 2, 4)} ${fragment(pick(pick(visible).risks)?.title ?? "", 2, 4)}`,
    () => `\u6211\u60F3${fragment(pick(visible).name, 2, 5)}\u9700\u8981\u529E\u4EC0\u4E48\u8BC1`,
    () => pinyin(fragment(pick(visible).name, 2, 4), { toneType: "none", type: "array", v: true }).join(""),
    () => pinyin(fragment(pick(visible).name, 3, 5), { pattern: "first", toneType: "none", type: "array" }).join("")
  ];
  const generated = [];
  for (let i = 0; i < 1e3; i++) {
    const query = pick(makers)();
    if (query.trim() === "") continue;
    generated.push({ query, regionIds: rnd() < 0.1 ? [pick(regions)] : null });
  }
  const pool = [...dev, ...generated];
  const out = [];
  for (let i = 0; i < total; i++) out.push(pool[i % pool.length]);
  return out;
}

// src/modules/search/engine/ranking-params.ts
var FIELD_COUNT = 7;
var FIELD_NAMES = ["name", "code", "theme", "department", "risk_title", "risk_text", "pinyin"];
var FIELD_WEIGHT = [10, 10, 5, 4, 2.5, 1, 8];
var FIELD_B = [0.5, 0, 0.3, 0.3, 0.5, 0.75, 0.5];
var W = {
  intentChar: 0.15,
  lightWord: 0.5,
  word: 0.5,
  unigram: 0.5,
  loneUnigram: 1,
  synonym: 0.6,
  correction: 0.8,
  pinyinBigram: 1,
  pinyinWord: 0.8,
  initials2: 0.6,
  initials3: 0.8,
  initialsWord: 0.8
};
var MAX_CORRECTIONS = 4;
var MAX_HITS = 20;
var P = {
  /** BM25 saturation of the field-weighted term frequency. */
  k1: 1.2,
  /** Candidates kept by retrieval for re-ranking (name-match bonus, coverage) before the cut. */
  rerankPool: 40,
  /** Final score = BM25F × (1 + phraseBonus × contiguous name match share). */
  phraseBonus: 0.5,
  /** A hit must reach this share of the best hit's score (drops weak tails). */
  relativeCutoff: 0.3,
  /** A hit must cover this share of the query's meaningful characters (rejects nonsense). */
  minCoverage: 0.4
};

// src/modules/search/engine/typed-arrays.ts
function ensureCapacity(arr, size) {
  if (size <= arr.length) return arr;
  const next = new arr.constructor(Math.max(size, arr.length * 2, 16));
  next.set(arr);
  return next;
}
function seek(docs2, from, to, target) {
  if (from >= to || docs2[from] >= target) return from;
  let step = 1;
  let lo = from;
  let hi = from + 1;
  while (hi < to && docs2[hi] < target) {
    lo = hi;
    step <<= 1;
    hi = Math.min(to, lo + step);
  }
  if (hi > to) hi = to;
  while (lo + 1 < hi) {
    const mid = lo + hi >>> 1;
    if (docs2[mid] < target) lo = mid;
    else hi = mid;
  }
  return hi;
}

// src/modules/search/engine/normalize.ts
import * as OpenCC from "opencc-js";
var CH_SEP = 0;
var CH_CJK = 1;
var CH_ALNUM = 2;
var charClass = new Uint8Array(65536);
for (let c = 48; c <= 57; c++) charClass[c] = CH_ALNUM;
for (let c = 97; c <= 122; c++) charClass[c] = CH_ALNUM;
for (let c = 13312; c <= 19903; c++) charClass[c] = CH_CJK;
for (let c = 19968; c <= 40959; c++) charClass[c] = CH_CJK;
for (let c = 63744; c <= 64255; c++) charClass[c] = CH_CJK;
charClass[12295] = CH_CJK;
var t2s = null;
var t2sChar = new Uint16Array(65536);
function ensureT2s() {
  if (t2s) return t2s;
  const conv = OpenCC.Converter({ from: "t", to: "cn" });
  const chars = [];
  for (let c = 19968; c <= 40959; c++) chars.push(String.fromCharCode(c));
  const out = conv(chars.join("\n")).split("\n");
  for (let i = 0; i < chars.length; i++) {
    const o = out[i];
    if (o && o.length === 1 && o !== chars[i]) t2sChar[chars[i].charCodeAt(0)] = o.charCodeAt(0);
  }
  t2s = conv;
  return conv;
}
function hasTraditional(s) {
  for (let i = 0; i < s.length; i++) if (t2sChar[s.charCodeAt(i)] !== 0) return true;
  return false;
}
var foldTable = new Uint16Array(65536);
for (let c = 0; c < 65536; c++) {
  let f = c;
  if (f >= 65281 && f <= 65374) f -= 65248;
  if (f >= 65 && f <= 90) f += 32;
  foldTable[c] = charClass[f] === CH_SEP ? 32 : f;
}
function toSimplified(s) {
  const conv = ensureT2s();
  if (!hasTraditional(s)) return s;
  const converted = conv(s);
  if (converted.length === s.length) return converted;
  let out = "";
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    out += String.fromCharCode(t2sChar[c] || c);
  }
  return out;
}
function normalizeText(input) {
  const s = toSimplified(input);
  const codes = new Uint16Array(s.length);
  let changed = false;
  for (let i = 0; i < s.length; i++) {
    const c = s.charCodeAt(i);
    codes[i] = foldTable[c];
    if (codes[i] !== c) changed = true;
  }
  if (!changed) return s;
  let out = "";
  for (let i = 0; i < codes.length; i += 8192) out += String.fromCharCode(...codes.subarray(i, i + 8192));
  return out;
}

// src/modules/search/engine/segmenter.ts
import { createRequire } from "node:module";

// src/modules/search/engine/lexicon.ts
import { readFileSync as readFileSync2 } from "node:fs";
function dataLines(file2) {
  const text = readFileSync2(new URL(file2, import.meta.url), "utf8");
  return text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== "" && !l.startsWith("#"));
}
function clean(word) {
  return normalizeText(word.trim()).replace(/ +/g, "");
}
function loadLexicon() {
  const groups = [];
  const groupsOf = /* @__PURE__ */ new Map();
  let maxWordLen = 1;
  for (const line of dataLines("./synonyms.txt")) {
    const members = [...new Set(line.split("/").map(clean).filter((w) => w !== ""))];
    if (members.length < 2) continue;
    const g = groups.length;
    groups.push(members);
    for (const m of members) {
      const list = groupsOf.get(m);
      if (list) list.push(g);
      else groupsOf.set(m, [g]);
      if (m.length > maxWordLen) maxWordLen = m.length;
    }
  }
  const intent = /* @__PURE__ */ new Set();
  for (const line of dataLines("./intent-words.txt")) for (const w of line.split(/\s+/)) if (w) intent.add(clean(w));
  return { groups, groupsOf, intent, vocabulary: [...groupsOf.keys()], maxWordLen };
}
var lexicon = null;
function getLexicon() {
  lexicon ??= loadLexicon();
  return lexicon;
}

// src/modules/search/engine/segmenter.ts
var require2 = createRequire(import.meta.url);
var jieba = null;
var LEXICON_WORD_FREQ = 2e5;
function getJieba() {
  if (jieba) return jieba;
  const { Jieba } = require2("@node-rs/jieba");
  const { dict } = require2("@node-rs/jieba/dict");
  const j = Jieba.withDict(dict);
  const lex = getLexicon();
  const extra = [...lex.vocabulary, ...lex.intent].filter((w) => w.length > 1 && /^[\u3400-\u9fff]+$/.test(w));
  j.loadDict(Buffer.from(extra.map((w) => `${w} ${LEXICON_WORD_FREQ}`).join("\n") + "\n"));
  jieba = j;
  return j;
}
function cutWords(text) {
  return getJieba().cut(text, true);
}
function cutForSearch(text) {
  return getJieba().cutForSearch(text, true);
}
function tagWords(text) {
  return getJieba().tag(text, true);
}

// src/modules/search/engine/pinyin.ts
import { pinyin as pinyin2 } from "pinyin-pro";
var SYLLABLE_LIST = "a ai an ang ao ba bai ban bang bao bei ben beng bi bian biao bie bin bing bo bu ca cai can cang cao ce cen ceng cha chai chan chang chao che chen cheng chi chong chou chu chua chuai chuan chuang chui chun chuo ci cong cou cu cuan cui cun cuo da dai dan dang dao de dei den deng di dia dian diao die ding diu dong dou du duan dui dun duo e ei en eng er fa fan fang fei fen feng fo fou fu ga gai gan gang gao ge gei gen geng gong gou gu gua guai guan guang gui gun guo ha hai han hang hao he hei hen heng hong hou hu hua huai huan huang hui hun huo ji jia jian jiang jiao jie jin jing jiong jiu ju juan jue jun ka kai kan kang kao ke kei ken keng kong kou ku kua kuai kuan kuang kui kun kuo la lai lan lang lao le lei leng li lia lian liang liao lie lin ling liu lo long lou lu luan lue lun luo lv lve ma mai man mang mao me mei men meng mi mian miao mie min ming miu mo mou mu na nai nan nang nao ne nei nen neng ni nian niang niao nie nin ning niu nong nou nu nuan nue nuo nv nve o ou pa pai pan pang pao pei pen peng pi pian piao pie pin ping po pou pu qi qia qian qiang qiao qie qin qing qiong qiu qu quan que qun ran rang rao re ren reng ri rong rou ru rua ruan rui run ruo sa sai san sang sao se sen seng sha shai shan shang shao she shei shen sheng shi shou shu shua shuai shuan shuang shui shun shuo si song sou su suan sui sun suo ta tai tan tang tao te tei teng ti tian tiao tie ting tong tou tu tuan tui tun tuo wa wai wan wang wei wen weng wo wu xi xia xian xiang xiao xie xin xing xiong xiu xu xuan xue xun ya yan yang yao ye yi yin ying yo yong you yu yuan yue yun za zai zan zang zao ze zei zen zeng zha zhai zhan zhang zhao zhe zhei zhen zheng zhi zhong zhou zhu zhua zhuai zhuan zhuang zhui zhun zhuo zi zong zou zu zuan zui zun zuo";
var SYLLABLES = new Set(SYLLABLE_LIST.split(" "));
var MAX_SYLLABLE = 6;
var MAX_READINGS = 3;
function syllabify(letters) {
  const n = letters.length;
  const cost = new Array(n + 1).fill(Infinity);
  const prev = new Array(n + 1).fill(-1);
  cost[0] = 0;
  for (let i = 0; i < n; i++) {
    if (cost[i] === Infinity) continue;
    for (let len = 1; len <= MAX_SYLLABLE && i + len <= n; len++) {
      const syl = letters.slice(i, i + len);
      if (!SYLLABLES.has(syl)) continue;
      const c = cost[i] + 10 + ("aeiou".includes(syl[0]) ? 1 : 0);
      if (c < cost[i + len]) {
        cost[i + len] = c;
        prev[i + len] = i;
      }
    }
  }
  if (cost[n] === Infinity) return null;
  const out = [];
  for (let j = n; j > 0; j = prev[j]) out.unshift(letters.slice(prev[j], j));
  return out;
}
var charReadings = /* @__PURE__ */ new Map();
function readingsOfChar(ch) {
  let r = charReadings.get(ch);
  if (!r) {
    const all = pinyin2(ch, { multiple: true, type: "array", toneType: "none", v: true });
    r = withUVariants(all.filter((p) => SYLLABLES.has(p)).slice(0, MAX_READINGS));
    charReadings.set(ch, r);
  }
  return r;
}
function withUVariants(readings) {
  const out = [...readings];
  for (const p of readings) if (p.includes("v")) out.push(p.replace("v", "u"));
  return [...new Set(out)];
}
function runReadings(run) {
  const hit = runCache.get(run);
  if (hit) return hit;
  const out = computeRunReadings(run);
  if (runCache.size >= RUN_CACHE_LIMIT) runCache.clear();
  runCache.set(run, out);
  return out;
}
var RUN_CACHE_LIMIT = 5e4;
var runCache = /* @__PURE__ */ new Map();
function computeRunReadings(run) {
  const ctx = pinyin2(run, { type: "array", toneType: "none", v: true });
  const out = [];
  for (let i = 0; i < run.length; i++) {
    const first = ctx.length === run.length && SYLLABLES.has(ctx[i]) ? [ctx[i]] : [];
    out.push([.../* @__PURE__ */ new Set([...withUVariants(first), ...readingsOfChar(run[i])])]);
  }
  return out;
}
function readingKeys(readings, from, to, initialsOnly, sep) {
  let keys = [""];
  for (let i = from; i < to; i++) {
    const options = [...new Set(readings[i].map((p) => initialsOnly ? p[0] : p))];
    if (options.length === 0) return [];
    const next = [];
    for (const k of keys) for (const o of options) next.push(k === "" ? o : k + sep + o);
    keys = next;
  }
  return keys;
}

// src/modules/search/engine/terms.ts
var pinyinKey = (syllables) => "~" + syllables;
var initialsKey = (letters) => "^" + letters;
var isTextKey = (key) => key[0] !== "~" && key[0] !== "^";
var fold = foldTable;
var cls = charClass;
var CJK = CH_CJK;
var ALNUM = CH_ALNUM;
function runsOf(normalized) {
  const runs = [];
  let i = 0;
  const n = normalized.length;
  while (i < n) {
    const c = cls[normalized.charCodeAt(i)];
    if (c !== CJK && c !== ALNUM) {
      i++;
      continue;
    }
    let j = i + 1;
    while (j < n && cls[normalized.charCodeAt(j)] === c) j++;
    runs.push({ text: normalized.slice(i, j), start: i, cjk: c === CJK });
    i = j;
  }
  return runs;
}
function emitBigrams(raw, sink) {
  const s = toSimplified(raw);
  let len = 0;
  let prev = 0;
  let tokenStart = -1;
  const n = s.length;
  for (let i = 0; i <= n; i++) {
    const c = i < n ? fold[s.charCodeAt(i)] : 32;
    const k = cls[c];
    if (k === ALNUM) {
      if (tokenStart < 0) tokenStart = i;
    } else if (tokenStart >= 0) {
      sink.token(foldRange(s, tokenStart, i));
      len++;
      tokenStart = -1;
    }
    if (k === CJK) {
      len++;
      if (prev !== 0) sink.bigram(prev, c);
      prev = c;
    } else prev = 0;
  }
  return len;
}
function foldRange(s, from, to) {
  let out = "";
  for (let i = from; i < to; i++) out += String.fromCharCode(fold[s.charCodeAt(i)]);
  return out;
}
function indexedLength(raw) {
  let len = 0;
  let inToken = false;
  for (let i = 0; i < raw.length; i++) {
    const k = cls[fold[raw.charCodeAt(i)]];
    if (k === CJK) len++;
    if (k === ALNUM) {
      if (!inToken) len++;
      inToken = true;
    } else inToken = false;
  }
  return len;
}

// src/modules/search/engine/name-forms.ts
import { pinyin as pinyin3 } from "pinyin-pro";
var QUALIFIER = /[（(【\[][^）)】\]]*[）)】\]]/g;
function coreName(name) {
  const stripped = name.replace(QUALIFIER, "");
  return normalizeText(stripped.trim() === "" ? name : stripped).replace(/ +/g, "");
}
var CACHE_LIMIT = 2e4;
var cache = /* @__PURE__ */ new Map();
var windowCache = /* @__PURE__ */ new Map();
function nameForms(name) {
  let f = cache.get(name);
  if (!f) {
    const core = coreName(name);
    const syllables = pinyin3(core, { type: "array", toneType: "none", v: true });
    f = { core, syllables, initials: syllables.map((s) => s[0] ?? "").join("") };
    if (cache.size >= CACHE_LIMIT) cache.clear();
    cache.set(name, f);
  }
  return f;
}
function soundWindows(name) {
  let w = windowCache.get(name);
  if (!w) {
    w = [];
    for (const run of runsOf(normalizeText(name))) {
      if (!run.cjk) continue;
      const readings = runReadings(run.text).map((r) => r.slice(0, 1));
      for (let i = 0; i + 1 < run.text.length; i++) {
        for (let len = 2; len <= 3 && i + len <= run.text.length; len++) {
          const keys = readingKeys(readings, i, i + len, true, "").map(initialsKey);
          if (len === 2) keys.push(...readingKeys(readings, i, i + 2, false, " ").map(pinyinKey));
          w.push({ start: run.start + i, end: run.start + i + len, keys });
        }
      }
    }
    if (windowCache.size >= CACHE_LIMIT) windowCache.clear();
    windowCache.set(name, w);
  }
  return w;
}

// src/modules/search/engine/doc-analyzer.ts
var RISK_BODY = 5 /* RiskBody */;
var CACHE_LIMIT2 = 5e4;
var MAX_KEY_COMBOS = 6;
var DocAnalyzer = class {
  constructor(vocab, dict) {
    this.vocab = vocab;
    this.dict = dict;
    this.bodySink = {
      bigram: (c1, c2) => this.emit(dict.internBigram(c1, c2), RISK_BODY),
      token: (t2) => this.emit(dict.intern(t2), RISK_BODY)
    };
  }
  vocab;
  dict;
  cache = /* @__PURE__ */ new Map();
  /** Key occurrences of the last analysed document, each as term id × 8 + field. */
  pairs = new Int32Array(4096);
  pairCount = 0;
  /** Field lengths (indexed characters) of the last analysed document. */
  lengths = new Float64Array(FIELD_COUNT);
  bodySink;
  emit(term, field) {
    if (this.pairCount === this.pairs.length) this.pairs = ensureCapacity(this.pairs, this.pairCount + 1);
    this.pairs[this.pairCount++] = term * 8 + field;
  }
  /** Analyses the document into `pairs` and `lengths`, interning new keys. */
  analyze(doc) {
    const lengths = this.lengths;
    this.pairCount = 0;
    lengths.fill(0);
    const name = this.short(doc.name, true);
    for (const id of name.ids) this.emit(id, 0 /* Name */);
    for (const id of name.pinyinIds) this.emit(id, 6 /* Pinyin */);
    lengths[0 /* Name */] = lengths[6 /* Pinyin */] = name.length;
    if (doc.code) {
      this.emit(this.dict.intern(normalizeText(doc.code).replace(/ +/g, "")), 1 /* Code */);
      lengths[1 /* Code */] = 1;
    }
    lengths[2 /* Theme */] = this.shortList(doc.themes.map((t2) => t2.name), 2 /* Theme */);
    lengths[3 /* Dept */] = this.shortList(doc.approvalDepartments, 3 /* Dept */);
    lengths[4 /* RiskTitle */] = this.shortList(doc.risks.map((r) => r.title), 4 /* RiskTitle */);
    let bodyLen = 0;
    for (const r of doc.risks) {
      if (r.description) bodyLen += emitBigrams(r.description, this.bodySink);
      if (r.legalBasis) bodyLen += emitBigrams(r.legalBasis, this.bodySink);
      if (r.consequence) bodyLen += emitBigrams(r.consequence, this.bodySink);
      if (r.prevention) bodyLen += emitBigrams(r.prevention, this.bodySink);
      if (r.riskType) bodyLen += emitBigrams(r.riskType, this.bodySink);
    }
    lengths[5 /* RiskBody */] = bodyLen;
  }
  /** Field lengths only (into `lengths`), much cheaper than analyze for long texts. */
  measure(doc) {
    const lengths = this.lengths;
    lengths.fill(0);
    lengths[0 /* Name */] = lengths[6 /* Pinyin */] = this.short(doc.name, true).length;
    lengths[1 /* Code */] = doc.code ? 1 : 0;
    for (const t2 of doc.themes) lengths[2 /* Theme */] += this.short(t2.name, false).length;
    for (const d of doc.approvalDepartments) lengths[3 /* Dept */] += this.short(d, false).length;
    for (const r of doc.risks) {
      lengths[4 /* RiskTitle */] += this.short(r.title, false).length;
      for (const t2 of [r.description, r.legalBasis, r.consequence, r.prevention, r.riskType]) if (t2) lengths[5 /* RiskBody */] += indexedLength(t2);
    }
  }
  shortList(texts, field) {
    let len = 0;
    for (const t2 of texts) {
      const a = this.short(t2, false);
      for (const id of a.ids) this.emit(id, field);
      len += a.length;
    }
    return len;
  }
  /**
   * Unigrams, bigrams, words of 3+ characters and latin tokens. Names also get the bigrams that
   * bridge a dropped qualifier (食品(含保健食品)经营 → 品经) and pinyin keys of both forms.
   */
  short(text, isName) {
    const cacheKey = (isName ? "n\0" : "t\0") + text;
    const hit = this.cache.get(cacheKey);
    if (hit) return hit;
    const keys = [];
    const pinyinKeys = /* @__PURE__ */ new Set();
    let length = 0;
    const runs = runsOf(normalizeText(text));
    for (const run of runs) {
      const t2 = run.text;
      if (!run.cjk) {
        keys.push(t2);
        length++;
        continue;
      }
      length += t2.length;
      for (let i = 0; i < t2.length; i++) keys.push(t2[i]);
      for (let i = 0; i + 1 < t2.length; i++) keys.push(t2.slice(i, i + 2));
      for (const w of cutForSearch(t2)) if (w.length >= 3) keys.push(w);
      for (const w of cutWords(t2)) this.vocab.addWord(w);
      if (isName) this.pinyinOf(t2, pinyinKeys);
    }
    if (isName) {
      const core = coreName(text);
      const own = new Set(keys);
      for (let i = 0; i + 1 < core.length; i++) if (!own.has(core.slice(i, i + 2))) keys.push(core.slice(i, i + 2));
      if (runs.length > 1 && /^[\u3400-\u9fff]+$/.test(core)) this.pinyinOf(core, pinyinKeys);
    }
    const intern = (k) => this.dict.intern(k);
    const out = { ids: Int32Array.from(keys, intern), pinyinIds: Int32Array.from(pinyinKeys, intern), length };
    if (this.cache.size >= CACHE_LIMIT2) this.cache.clear();
    this.cache.set(cacheKey, out);
    return out;
  }
  /** Syllable bigrams ("~shi pin") and initials bigrams and trigrams ("^sp", "^spj") of a name run. */
  pinyinOf(run, out) {
    const readings = runReadings(run);
    this.vocab.addNameRun(run, readings);
    for (let i = 0; i + 1 < run.length; i++) {
      for (const k of readingKeys(readings, i, i + 2, false, " ").slice(0, MAX_KEY_COMBOS)) out.add(pinyinKey(k));
      for (const k of readingKeys(readings, i, i + 2, true, "").slice(0, MAX_KEY_COMBOS)) out.add(initialsKey(k));
      if (i + 2 < run.length) {
        for (const k of readingKeys(readings, i, i + 3, true, "").slice(0, MAX_KEY_COMBOS)) out.add(initialsKey(k));
      }
    }
  }
};

// src/modules/search/engine/doc-table.ts
function popcount(x) {
  x -= x >>> 1 & 1431655765;
  x = (x & 858993459) + (x >>> 2 & 858993459);
  return (x + (x >>> 4) & 252645135) * 16843009 >>> 24;
}
var DocTable = class {
  docs = [];
  byPermit = /* @__PURE__ */ new Map();
  regionIndex = /* @__PURE__ */ new Map();
  regionOf = new Uint32Array(0);
  regionBits = [];
  /** Alive and visible: what may be returned. */
  searchable = new Uint32Array(0);
  lengthSum = new Float64Array(FIELD_COUNT);
  aliveCount = 0;
  deadCount = 0;
  get capacity() {
    return this.docs.length;
  }
  idOf(permitId) {
    return this.byPermit.get(permitId);
  }
  isAlive(doc) {
    return this.docs[doc] != null;
  }
  add(doc, lengths) {
    const id = this.docs.length;
    this.docs.push(doc);
    this.growBitsets(id);
    this.byPermit.set(doc.permitId, id);
    let r = this.regionIndex.get(doc.regionId);
    if (r === void 0) {
      r = this.regionBits.length;
      this.regionIndex.set(doc.regionId, r);
      this.regionBits.push(new Uint32Array(this.searchable.length));
    }
    this.regionOf = ensureCapacity(this.regionOf, id + 1);
    this.regionOf[id] = r;
    if (doc.visible) {
      this.searchable[id >>> 5] |= 1 << (id & 31);
      this.regionBits[r][id >>> 5] |= 1 << (id & 31);
    }
    for (let f = 0; f < FIELD_COUNT; f++) this.lengthSum[f] += lengths[f];
    this.aliveCount++;
    return id;
  }
  remove(id, lengths) {
    const doc = this.docs[id];
    if (!doc) return;
    this.docs[id] = null;
    if (this.byPermit.get(doc.permitId) === id) this.byPermit.delete(doc.permitId);
    this.searchable[id >>> 5] &= ~(1 << (id & 31));
    this.regionBits[this.regionOf[id]][id >>> 5] &= ~(1 << (id & 31));
    for (let f = 0; f < FIELD_COUNT; f++) this.lengthSum[f] -= lengths[f];
    this.aliveCount--;
    this.deadCount++;
  }
  averageLength(field) {
    return this.aliveCount > 0 ? Math.max(1, this.lengthSum[field] / this.aliveCount) : 1;
  }
  /**
   * The bitset of documents a search may return, with their count: every searchable one, or
   * those of the given regions (null when no region is known, i.e. nothing can match). The
   * bitset is read-only. (The count is an upper bound when no filter is given.)
   */
  allowedBits(regionIds) {
    if (regionIds == null) return { bits: this.searchable, count: this.aliveCount };
    const picked = [...new Set(regionIds)].map((id) => this.regionIndex.get(id)).filter((r) => r !== void 0);
    if (picked.length === 0) return null;
    const bits = picked.length === 1 ? this.regionBits[picked[0]] : new Uint32Array(this.searchable.length);
    if (picked.length > 1) for (const r of picked) bits.forEach((_, i) => bits[i] |= this.regionBits[r][i]);
    let count = 0;
    for (let i = 0; i < bits.length; i++) count += popcount(bits[i]);
    return { bits, count };
  }
  /**
   * All bitsets always span every document id: the scoring loops read them unchecked, and a
   * read past the end of a typed array would throw them off their fast path.
   */
  growBitsets(id) {
    const words = (id >>> 5) + 1;
    if (words <= this.searchable.length) return;
    this.searchable = ensureCapacity(this.searchable, words);
    const size = this.searchable.length;
    for (let r = 0; r < this.regionBits.length; r++) this.regionBits[r] = ensureCapacity(this.regionBits[r], size);
  }
};

// src/modules/search/engine/explain.ts
function fieldBreakdown(doc, ranked, analyzer, avgLength) {
  const wanted = /* @__PURE__ */ new Map();
  for (const m of ranked.matched) wanted.set(m.rt.id, new Float64Array(FIELD_COUNT));
  analyzer.analyze(doc);
  const { pairs, pairCount, lengths } = analyzer;
  for (let i = 0; i < pairCount; i++) {
    const tf = wanted.get(pairs[i] >> 3);
    if (tf) tf[pairs[i] & 7]++;
  }
  const out = {};
  for (const m of ranked.matched) {
    const tf = wanted.get(m.rt.id);
    const parts = tf.map((n, f) => n * FIELD_WEIGHT[f] / (1 - FIELD_B[f] + FIELD_B[f] * lengths[f] / avgLength(f)));
    const sum = parts.reduce((a, b) => a + b, 0);
    if (sum <= 0) continue;
    const score = m.rt.scoreWeight * m.impact;
    parts.forEach((p, f) => {
      if (p > 0) out[FIELD_NAMES[f]] = (out[FIELD_NAMES[f]] ?? 0) + score * p / sum;
    });
  }
  if (ranked.score > ranked.bm25) out.name_phrase = ranked.score - ranked.bm25;
  for (const k of Object.keys(out)) out[k] = Math.round(out[k] * 1e4) / 1e4;
  return out;
}

// src/modules/search/engine/highlight.ts
var MAX_MATCHED = 16;
function matchedSubstrings(doc, plan, textKeys, soundKeys) {
  const found = /* @__PURE__ */ new Set();
  const covered = /* @__PURE__ */ new Set();
  for (const run of plan.runs) {
    for (let i = 0; i + 1 < run.length; ) {
      if (!textKeys.has(run.slice(i, i + 2))) {
        i++;
        continue;
      }
      let j = i + 1;
      while (j + 1 < run.length && textKeys.has(run.slice(j, j + 2))) j++;
      addStretch(run.slice(i, j + 1), doc, found, covered);
      i = j;
    }
  }
  for (const key of textKeys) {
    if (covered.has(key) || [...found].some((f) => f.includes(key))) continue;
    const original = locate(key, doc);
    if (original && (key.length > 1 || plan.runs.some((r) => r.includes(key)))) found.add(original);
  }
  if (soundKeys.size > 0) {
    for (const w of soundWindows(doc.name)) if (w.keys.some((k) => soundKeys.has(k))) found.add(doc.name.slice(w.start, w.end));
  }
  return mergeOverlaps([...found]).slice(0, MAX_MATCHED);
}
function addStretch(stretch, doc, found, covered) {
  let from = 0;
  while (from + 1 < stretch.length) {
    let to = stretch.length;
    let original = null;
    for (; to >= from + 2; to--) if (original = locate(stretch.slice(from, to), doc)) break;
    if (!original) {
      from++;
      continue;
    }
    found.add(original);
    for (let i = from; i + 1 < to; i++) covered.add(stretch.slice(i, i + 2));
    from = to - 1;
  }
}
function findText(doc, test) {
  if (test(doc.name)) return doc.name;
  for (const t2 of doc.themes) if (test(t2.name)) return t2.name;
  for (const d of doc.approvalDepartments) if (test(d)) return d;
  for (const r of doc.risks) if (test(r.title)) return r.title;
  for (const r of doc.risks) {
    if (r.description && test(r.description)) return r.description;
    if (r.legalBasis && test(r.legalBasis)) return r.legalBasis;
    if (r.consequence && test(r.consequence)) return r.consequence;
    if (r.prevention && test(r.prevention)) return r.prevention;
  }
  return null;
}
function locate(key, doc) {
  if (findText(doc, (t3) => t3.includes(key))) return key;
  if (!/[a-z]/.test(key)) return null;
  const t2 = findText(doc, (x) => x.toLowerCase().includes(key));
  if (!t2) return null;
  const at = t2.toLowerCase().indexOf(key);
  return t2.slice(at, at + key.length);
}
function mergeOverlaps(pieces) {
  const sorted = pieces.sort((a, b) => b.length - a.length);
  return sorted.filter((p, i) => !sorted.slice(0, i).some((q) => q.includes(p)));
}

// src/modules/search/engine/impacts.ts
var ImpactBuilder = class {
  constructor(analyzer, dict) {
    this.analyzer = analyzer;
    this.dict = dict;
  }
  analyzer;
  dict;
  acc = new Float64Array(1024);
  touched = new Int32Array(1024);
  norm = new Float64Array(FIELD_COUNT);
  /** Field lengths of the last collected document. */
  get lengths() {
    return this.analyzer.lengths;
  }
  /** Analyses the document, interning its keys. */
  collect(doc) {
    this.analyzer.analyze(doc);
  }
  /** Calls back once per distinct term of the last collected document (df bookkeeping). */
  forEachTerm(f) {
    this.reduce(null, (t2) => f(t2));
  }
  /** Calls back once per distinct term with its quantised impact, using the given average lengths. */
  forEachImpact(avgLength, f) {
    const lengths = this.analyzer.lengths;
    for (let k = 0; k < FIELD_COUNT; k++) this.norm[k] = FIELD_WEIGHT[k] / (1 - FIELD_B[k] + FIELD_B[k] * lengths[k] / avgLength(k));
    const k1 = P.k1;
    this.reduce(this.norm, (t2, tf) => f(t2, Math.max(1, Math.min(255, Math.round(255 * tf / (tf + k1))))));
  }
  /** Sums the field weights of each distinct term's occurrences (weights of 0 still count). */
  reduce(weights, f) {
    const { pairs, pairCount } = this.analyzer;
    this.acc = ensureCapacity(this.acc, this.dict.size);
    this.touched = ensureCapacity(this.touched, pairCount);
    const acc = this.acc;
    const touched = this.touched;
    let n = 0;
    for (let i = 0; i < pairCount; i++) {
      const t2 = pairs[i] >> 3;
      if (acc[t2] === 0) touched[n++] = t2;
      acc[t2] += weights ? weights[pairs[i] & 7] || 1e-9 : 1;
    }
    for (let i = 0; i < n; i++) {
      const t2 = touched[i];
      f(t2, acc[t2]);
      acc[t2] = 0;
    }
  }
};

// src/modules/search/engine/pinyin-vocab.ts
var PinyinVocab = class {
  bySyllables = /* @__PURE__ */ new Map();
  byInitials = /* @__PURE__ */ new Map();
  nameBigrams = /* @__PURE__ */ new Set();
  bigramsBySound = /* @__PURE__ */ new Map();
  seenWords = /* @__PURE__ */ new Set();
  seenRuns = /* @__PURE__ */ new Set();
  /** soundAlikes answers, valid until a new name run arrives. */
  alikeCache = /* @__PURE__ */ new Map();
  constructor() {
    for (const w of getLexicon().vocabulary) this.addWord(w);
  }
  /** A CJK word of 2 to 8 characters becomes reachable by its pinyin and initials. */
  addWord(word) {
    if (word.length < 2 || word.length > 8 || this.seenWords.has(word) || !/^[\u3400-\u9fff]+$/.test(word)) return;
    this.seenWords.add(word);
    const readings = runReadings(word);
    for (const k of readingKeys(readings, 0, word.length, false, " ").slice(0, 8)) file(this.bySyllables, k, word);
    for (const k of readingKeys(readings, 0, word.length, true, "").slice(0, 8)) file(this.byInitials, k, word);
  }
  /** The bigrams of a run of a permit name, for homophone typo correction. */
  addNameRun(run, readings) {
    if (this.seenRuns.has(run)) return;
    this.seenRuns.add(run);
    this.alikeCache.clear();
    for (let i = 0; i + 1 < run.length; i++) {
      const bigram = run.slice(i, i + 2);
      this.nameBigrams.add(bigram);
      for (const k of readingKeys(readings, i, i + 2, false, " ")) file(this.bigramsBySound, k, bigram);
    }
  }
  wordsBySyllables(syllables) {
    return this.bySyllables.get(syllables) ?? [];
  }
  wordsByInitials(initials) {
    return this.byInitials.get(initials) ?? [];
  }
  isNameBigram(bigram) {
    return this.nameBigrams.has(bigram);
  }
  /** Name bigrams that can sound like the given CJK bigram read as given (any reading of theirs). */
  soundAlikes(bigram, readings) {
    const cacheKey = bigram + readings.join("|");
    const cached = this.alikeCache.get(cacheKey);
    if (cached) return cached;
    const out = /* @__PURE__ */ new Set();
    for (const k of readingKeys(readings, 0, 2, false, " ")) for (const b of this.bigramsBySound.get(k) ?? []) out.add(b);
    out.delete(bigram);
    const list = [...out];
    if (this.alikeCache.size >= 1e4) this.alikeCache.clear();
    this.alikeCache.set(cacheKey, list);
    return list;
  }
};
function file(map, key, word) {
  const set = map.get(key);
  if (set) set.add(word);
  else map.set(key, /* @__PURE__ */ new Set([word]));
}

// src/modules/search/engine/posting-buffer.ts
var CHUNK = 1 << 22;
var PostingBuffer = class {
  terms = [];
  impacts = [];
  size = 0;
  /** Posting count after each document. */
  docEnds = new Uint32Array(1024);
  docs = 0;
  push(term, impact) {
    const c = this.size >>> 22;
    if (c === this.terms.length) {
      this.terms.push(new Int32Array(CHUNK));
      this.impacts.push(new Uint8Array(CHUNK));
    }
    const at = this.size & CHUNK - 1;
    this.terms[c][at] = term;
    this.impacts[c][at] = impact;
    this.size++;
  }
  endDoc() {
    this.docEnds = ensureCapacity(this.docEnds, this.docs + 1);
    this.docEnds[this.docs++] = this.size;
  }
  /** Every posting as (term, doc, impact), documents in order. */
  forEach(f) {
    let k = 0;
    for (let doc = 0; doc < this.docs; doc++) {
      for (const end = this.docEnds[doc]; k < end; k++) f(this.terms[k >>> 22][k & CHUNK - 1], doc, this.impacts[k >>> 22][k & CHUNK - 1]);
    }
  }
};

// src/modules/search/engine/postings.ts
var NO_DOCS = new Uint32Array(0);
var NO_IMPACTS = new Uint8Array(0);
var DENSE_SHARE = 0.2;
var DENSE_MIN_DOCS = 512;
var Postings = class _Postings {
  offsets = new Uint32Array(1);
  docs = new Uint32Array(0);
  impacts = new Uint8Array(0);
  baseTerms = 0;
  dense = [];
  denseCount = 0;
  delta = [];
  deltaSize = 0;
  /**
   * Base segment from exact per-term counts over `docCount` document ids; `fill` calls put()
   * in ascending doc order per term.
   */
  static build(counts, termCount, docCount, fill) {
    const p = new _Postings();
    p.baseTerms = termCount;
    p.offsets = new Uint32Array(termCount + 1);
    const denseFrom = docCount >= DENSE_MIN_DOCS ? Math.max(1, Math.floor(docCount * DENSE_SHARE)) : Infinity;
    for (let t2 = 0; t2 < termCount; t2++) {
      const isDense = counts[t2] >= denseFrom;
      if (isDense) {
        p.dense[t2] = new Uint8Array(docCount);
        p.denseCount += counts[t2];
      }
      p.offsets[t2 + 1] = p.offsets[t2] + (isDense ? 0 : counts[t2]);
    }
    const total = p.offsets[termCount];
    p.docs = new Uint32Array(total);
    p.impacts = new Uint8Array(total);
    const cursor = p.offsets.slice(0, termCount);
    fill((term, doc, impact) => {
      const d = p.dense[term];
      if (d) d[doc] = impact;
      else {
        const at = cursor[term]++;
        p.docs[at] = doc;
        p.impacts[at] = impact;
      }
    });
    return p;
  }
  get size() {
    return this.docs.length + this.denseCount + this.deltaSize;
  }
  get pendingDelta() {
    return this.deltaSize;
  }
  slices(term) {
    const d = this.dense[term];
    if (d) return [{ docs: NO_DOCS, impacts: NO_IMPACTS, start: 0, end: 0, dense: d }];
    const out = [];
    if (term < this.baseTerms && this.offsets[term] < this.offsets[term + 1]) {
      out.push({ docs: this.docs, impacts: this.impacts, start: this.offsets[term], end: this.offsets[term + 1], dense: null });
    }
    const l = this.delta[term];
    if (l && l.n > 0) out.push({ docs: l.docs, impacts: l.impacts, start: 0, end: l.n, dense: null });
    return out;
  }
  append(term, doc, impact) {
    const dense = this.dense[term];
    if (dense) {
      const grown = ensureCapacity(dense, doc + 1);
      grown[doc] = impact;
      this.dense[term] = grown;
      this.denseCount++;
      return;
    }
    let d = this.delta[term];
    if (!d) {
      d = { docs: new Uint32Array(4), impacts: new Uint8Array(4), n: 0 };
      this.delta[term] = d;
    }
    d.docs = ensureCapacity(d.docs, d.n + 1);
    d.impacts = ensureCapacity(d.impacts, d.n + 1);
    d.docs[d.n] = doc;
    d.impacts[d.n] = impact;
    d.n++;
    this.deltaSize++;
  }
  /** Folds the delta lists into a new base segment, dropping postings of documents no longer alive. */
  compact(termCount, docCount, alive) {
    const counts = new Int32Array(termCount);
    this.forEachPosting(termCount, alive, (t2) => counts[t2]++);
    return _Postings.build(counts, termCount, docCount, (put) => this.forEachPosting(termCount, alive, put));
  }
  forEachPosting(termCount, alive, f) {
    for (let t2 = 0; t2 < termCount; t2++) {
      for (const s of this.slices(t2)) {
        if (s.dense) {
          for (let doc = 0; doc < s.dense.length; doc++) if (s.dense[doc] > 0 && alive(doc)) f(t2, doc, s.dense[doc]);
        } else {
          for (let i = s.start; i < s.end; i++) if (alive(s.docs[i])) f(t2, s.docs[i], s.impacts[i]);
        }
      }
    }
  }
};

// src/modules/search/engine/query-analyzer.ts
import { pinyin as pinyin4 } from "pinyin-pro";

// src/modules/search/engine/query-terms.ts
var TermCollector = class {
  byKey = /* @__PURE__ */ new Map();
  add(key, display, origin, weight, start, end) {
    if (weight <= 0 || key === "") return;
    const t2 = this.byKey.get(key);
    if (!t2) {
      this.byKey.set(key, { key, display, origin, weight, spans: [start, end] });
      return;
    }
    if (weight > t2.weight) {
      t2.weight = weight;
      t2.origin = origin;
      t2.display = display;
    }
    t2.spans.push(start, end);
  }
  terms() {
    return [...this.byKey.values()];
  }
};

// src/modules/search/engine/query-analyzer.ts
function analyzeQuery(query, vocab) {
  const normalized = normalizeText(query);
  const posWeight = new Float32Array(normalized.length);
  const out = new TermCollector();
  const runs = runsOf(normalized);
  const latin = [];
  for (const run of runs) {
    if (run.cjk) analyzeCjkRun(run, vocab, out, posWeight);
    else {
      posWeight.fill(1, run.start, run.start + run.text.length);
      latin.push(run);
    }
  }
  const { syllables, initials } = analyzeLatinRuns(latin, vocab, out);
  return { normalized, terms: out.terms(), posWeight, runs: runs.filter((r) => r.cjk).map((r) => r.text), syllables, initials };
}
var LIGHT_TAGS = /* @__PURE__ */ new Set(["r", "s", "f", "t", "m", "q", "d", "p", "c", "u", "y", "e", "o"]);
function analyzeCjkRun(run, vocab, out, posWeight) {
  const { text, start } = run;
  const lex = getLexicon();
  const tagged = splitIntentAffixes(tagWords(text));
  const words = tagged.map((t2) => t2.word);
  const cw = new Float32Array(text.length).fill(1);
  const wordAt = /* @__PURE__ */ new Set();
  let p = 0;
  for (const { word, tag } of tagged) {
    if (lex.intent.has(word)) cw.fill(W.intentChar, p, p + word.length);
    else if (LIGHT_TAGS.has(tag[0]) && !lex.groupsOf.has(word)) cw.fill(W.lightWord, p, p + word.length);
    wordAt.add(word);
    p += word.length;
  }
  posWeight.set(cw, start);
  const meanWeight = (from, to) => cw.slice(from, to).reduce((a, b) => a + b, 0) / (to - from);
  const readings = pinyin4(text, { type: "array", toneType: "none", v: true }).map((p2) => [p2]);
  if (text.length === 1) out.add(text, text, "unigram", W.loneUnigram * cw[0], start, start + 1);
  for (let i = 0; i + 1 < text.length; i++) {
    const bigram = text.slice(i, i + 2);
    const weight = meanWeight(i, i + 2);
    out.add(bigram, bigram, wordAt.has(bigram) ? "word" : "bigram", weight, start + i, start + i + 2);
    if (!vocab.isNameBigram(bigram) && !wordAt.has(bigram)) {
      for (const alike of vocab.soundAlikes(bigram, readings.slice(i, i + 2)).slice(0, MAX_CORRECTIONS)) {
        out.add(alike, alike, "correction", W.correction * weight, start + i, start + i + 2);
      }
    }
  }
  p = 0;
  for (const w of words) {
    if (w.length === 1 && text.length > 1 && cw[p] === 1) out.add(w, w, "unigram", W.unigram, start + p, start + p + 1);
    p += w.length;
  }
  const seen = /* @__PURE__ */ new Set();
  for (const w of [...words, ...cutForSearch(text)]) {
    if (seen.has(w)) continue;
    seen.add(w);
    const at = text.indexOf(w);
    const weight = meanWeight(at, at + w.length);
    if (w.length >= 3) out.add(w, w, "word", W.word * weight, start + at, start + at + w.length);
    addSynonyms(w, weight, start + at, start + at + w.length, out);
  }
}
function splitIntentAffixes(tagged) {
  const lex = getLexicon();
  const out = [];
  for (const t2 of tagged) {
    const w = t2.word;
    let split = false;
    if (w.length >= 2 && !lex.intent.has(w) && !lex.groupsOf.has(w)) {
      for (let cut = 1; cut < w.length && !split; cut++) {
        const head = w.slice(0, cut);
        const tail = w.slice(cut);
        if (lex.intent.has(head) && lex.groupsOf.has(tail)) out.push({ word: head, tag: "x" }, { word: tail, tag: t2.tag });
        else if (lex.intent.has(tail) && lex.groupsOf.has(head)) out.push({ word: head, tag: t2.tag }, { word: tail, tag: "x" });
        else continue;
        split = true;
      }
    }
    if (!split) out.push(t2);
  }
  return out;
}
function addSynonyms(word, weight, from, to, out, origin = "synonym") {
  const lex = getLexicon();
  for (const g of lex.groupsOf.get(word) ?? []) {
    for (const member of lex.groups[g]) if (member !== word) out.add(member, member, origin, W.synonym * weight, from, to);
  }
}
function addPhrase(phrase, origin, weight, budget, from, to, out) {
  for (const run of runsOf(phrase)) {
    const t2 = run.text;
    if (!run.cjk || t2.length === 1) {
      out.add(t2, t2, origin, weight, from, to);
      continue;
    }
    const each = weight * Math.min(1, budget / (t2.length - 1));
    for (let i = 0; i + 1 < t2.length; i++) out.add(t2.slice(i, i + 2), t2.slice(i, i + 2), origin, each, from, to);
    if (t2.length >= 3) out.add(t2, t2, origin, W.word * weight, from, to);
  }
}
function analyzeLatinRuns(runs, vocab, out) {
  const syllables = [];
  const initials = [];
  for (const run of runs) {
    const end = run.start + run.text.length;
    out.add(run.text, run.text, "word", 1, run.start, end);
    addSynonyms(run.text, 1, run.start, end, out);
    if (!/^[a-z]+$/.test(run.text)) continue;
    const syl = syllabify(run.text);
    if (syl) {
      let at = run.start;
      for (const s of syl) {
        syllables.push({ text: s, start: at, end: at + s.length });
        at += s.length;
      }
    } else if (run.text.length >= 2) {
      addInitials(run, vocab, out);
      initials.push({ text: run.text, start: run.start });
    }
  }
  for (let i = 0; i + 1 < syllables.length; i++) {
    const key = syllables[i].text + " " + syllables[i + 1].text;
    out.add(pinyinKey(key), key, "pinyin", W.pinyinBigram, syllables[i].start, syllables[i + 1].end);
  }
  for (let i = 0; i < syllables.length; i++) {
    for (let j = i + 2; j <= Math.min(syllables.length, i + 6); j++) {
      const key = syllables.slice(i, j).map((s) => s.text).join(" ");
      for (const word of vocab.wordsBySyllables(key)) {
        addPhrase(word, "pinyin", W.pinyinWord, word.length - 1, syllables[i].start, syllables[j - 1].end, out);
        addSynonyms(word, W.pinyinWord, syllables[i].start, syllables[j - 1].end, out, "pinyin");
      }
    }
  }
  return { syllables: syllables.map((s) => s.text), initials };
}
function addInitials(run, vocab, out) {
  const t2 = run.text;
  for (let i = 0; i + 1 < t2.length; i++) {
    out.add(initialsKey(t2.slice(i, i + 2)), t2.slice(i, i + 2), "initials", W.initials2, run.start + i, run.start + i + 2);
    if (i + 2 < t2.length) out.add(initialsKey(t2.slice(i, i + 3)), t2.slice(i, i + 3), "initials", W.initials3, run.start + i, run.start + i + 3);
  }
  const end = run.start + t2.length;
  for (const word of vocab.wordsByInitials(t2)) {
    addPhrase(word, "initials", W.initialsWord, word.length - 1, run.start, end, out);
    addSynonyms(word, W.initialsWord, run.start, end, out, "initials");
  }
}

// src/modules/search/engine/rank.ts
function rankCandidates(cands, ctx, limit) {
  const { plan } = ctx;
  let totalWeight = 0;
  for (const w of plan.posWeight) totalWeight += w;
  if (totalWeight <= 0) return [];
  const ranked = [];
  const covered = new Uint8Array(plan.posWeight.length);
  const floor = P.relativeCutoff / (1 + P.phraseBonus) * (cands[0]?.score ?? 0);
  const shareByName = /* @__PURE__ */ new Map();
  for (const c of cands) {
    if (c.score < floor) continue;
    const matched = [];
    covered.fill(0);
    for (const h of c.hits) {
      const rt = ctx.terms[h.term];
      matched.push({ rt, impact: h.impact });
      if (rt.term.key[0] === "^") continue;
      const s = rt.term.spans;
      for (let i = 0; i < s.length; i += 2) covered.fill(1, s[i], s[i + 1]);
    }
    const name = ctx.docOf(c.doc).name;
    const initials = nameForms(name).initials;
    for (const run of plan.initials) {
      const { length, endA } = longestCommonRun(run.text, initials);
      if (length >= 2) covered.fill(1, run.start + endA - length, run.start + endA);
    }
    let coveredWeight = 0;
    for (let i = 0; i < covered.length; i++) if (covered[i]) coveredWeight += plan.posWeight[i];
    const coverage = coveredWeight / totalWeight;
    if (coverage < P.minCoverage) continue;
    let phrase = shareByName.get(name);
    if (phrase === void 0) shareByName.set(name, phrase = nameMatchShare(plan, name));
    ranked.push({ doc: c.doc, score: c.score * (1 + P.phraseBonus * phrase), bm25: c.score, phrase, coverage, matched });
  }
  ranked.sort((a, b) => b.score - a.score || a.doc - b.doc);
  const best = ranked.length > 0 ? ranked[0].score : 0;
  return ranked.filter((r) => r.score >= P.relativeCutoff * best).slice(0, limit);
}
function nameMatchShare(plan, name) {
  const forms = nameForms(name);
  let best = 0;
  for (const q of plan.runs) best = Math.max(best, share(q, forms.core));
  if (plan.syllables.length > 0) best = Math.max(best, share(plan.syllables, forms.syllables));
  for (const q of plan.initials) best = Math.max(best, share(q.text, forms.initials));
  return best;
}
function share(a, b) {
  const l = longestCommonRun(a, b).length;
  return l >= 2 ? l / Math.max(a.length, b.length) : 0;
}
function longestCommonRun(a, b) {
  let best = 0;
  let endA = 0;
  let prev = new Uint16Array(b.length + 1);
  let cur = new Uint16Array(b.length + 1);
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      cur[j] = a[i - 1] === b[j - 1] ? prev[j - 1] + 1 : 0;
      if (cur[j] > best) {
        best = cur[j];
        endA = i;
      }
    }
    [prev, cur] = [cur, prev];
  }
  return { length: best, endA };
}

// src/modules/search/engine/retrieve.ts
var seek2 = seek;
var Scratch = class {
  acc = new Float32Array(0);
  touched = new Int32Array(0);
  values = new Float64Array(0);
};
var SCAN_BUDGET = 2e5;
var SURVIVORS = 2e3;
var SELECTIVE = 1 / 16;
var SEED_LISTS = 3;
var SEED_PROBE_LISTS = 6;
var SEEDS_PER_LIST = 128;
var SEED_STRENGTH = 0.7;
var SEED_SCAN = 8192;
function retrieveTopK(lists, allowed, allowedCount, k, relative, scratch, capacity) {
  const n = lists.length;
  if (n === 0 || allowedCount === 0) return [];
  lists.sort((a, b) => b.bound - a.bound);
  const rest = new Float64Array(n + 1);
  for (let i2 = n - 1; i2 >= 0; i2--) rest[i2] = rest[i2 + 1] + lists[i2].bound;
  let postings = 0;
  for (const l of lists) postings += l.dense ? l.dense.length : l.end - l.start;
  if (allowedCount * n <= postings * SELECTIVE) return probeAllowed(lists, allowed, k, relative, scratch, capacity);
  let { threshold, best } = seedThreshold(lists, allowed, k, relative);
  scratch.acc = ensureCapacity(scratch.acc, capacity);
  scratch.touched = ensureCapacity(scratch.touched, capacity);
  const acc = scratch.acc;
  const touched = scratch.touched;
  let count = 0;
  let i = 0;
  let scanned = 0;
  try {
    for (; i < n; i++) {
      if (rest[i] < threshold) break;
      const l = lists[i];
      const size = l.dense ? l.dense.length : l.end - l.start;
      if (i > 0 && scanned + size > SCAN_BUDGET) break;
      scanned += size;
      count = l.dense ? accumulateDense(l, allowed, acc, touched, count) : accumulate(l, allowed, acc, touched, count);
      best = Math.max(best, bestOfLastList);
      threshold = Math.max(threshold, relative * best);
    }
    let floor = threshold - rest[i];
    if (countAbove(touched, count, acc, floor) > SURVIVORS) floor = Math.max(floor, kthLargest(acc, touched, count, SURVIVORS, scratch));
    const cands = survivors(touched, count, acc, floor);
    if (cands.length >= k) threshold = Math.max(threshold, kthLargest(acc, cands, cands.length, k, scratch));
    let live = keepAbove(cands, cands.length, acc, threshold - rest[i]);
    for (; i < n && live > 0; i++) {
      probe(lists[i], cands, live, acc);
      live = keepAbove(cands, live, acc, threshold - rest[i + 1]);
    }
    let kept = cands.subarray(0, keepAbove(cands, live, acc, Math.max(threshold, Number.MIN_VALUE)));
    if (kept.length > k) {
      const kth = kthLargest(acc, kept, kept.length, k, scratch);
      kept = kept.filter((d) => acc[d] >= kth);
    }
    const ranked = byScore(Array.from(kept), acc).slice(0, k);
    return withHits(lists, ranked, acc);
  } finally {
    for (let t2 = 0; t2 < count; t2++) acc[touched[t2]] = 0;
  }
}
function probeAllowed(lists, allowed, k, relative, scratch, capacity) {
  scratch.acc = ensureCapacity(scratch.acc, capacity);
  const acc = scratch.acc;
  const docs2 = [];
  for (let w = 0; w < allowed.length; w++) {
    for (let bits = allowed[w]; bits !== 0; bits &= bits - 1) docs2.push(w * 32 + (31 - Math.clz32(bits & -bits)));
  }
  const cands = Int32Array.from(docs2);
  try {
    for (const l of lists) probe(l, cands, cands.length, acc);
    let best = 0;
    for (const d of cands) best = Math.max(best, acc[d]);
    const kept = Array.from(cands.subarray(0, keepAbove(cands, cands.length, acc, Math.max(relative * best, Number.MIN_VALUE))));
    const ranked = byScore(kept, acc).slice(0, k);
    return withHits(lists, ranked, acc);
  } finally {
    for (const d of docs2) acc[d] = 0;
  }
}
var bestOfLastList = 0;
function byScore(docs2, acc) {
  const keyed = docs2.map((d) => ({ d, s: acc[d] }));
  keyed.sort(compareScored);
  return keyed.map((x) => x.d);
}
function compareScored(a, b) {
  return b.s - a.s || a.d - b.d;
}
function accumulate(l, allowed, acc, touched, count) {
  const { docs: docs2, impacts, weight, start, end } = l;
  let best = 0;
  for (let p = start; p < end; p++) {
    const d = docs2[p];
    if ((allowed[d >>> 5] >>> (d & 31) & 1) === 0) continue;
    const before = acc[d];
    if (before === 0) touched[count++] = d;
    const s = before + weight * impacts[p];
    acc[d] = s;
    if (s > best) best = s;
  }
  bestOfLastList = best;
  return count;
}
function accumulateDense(l, allowed, acc, touched, count) {
  const dense = l.dense;
  const weight = l.weight;
  let best = 0;
  for (let d = 0; d < dense.length; d++) {
    const impact = dense[d];
    if (impact === 0 || (allowed[d >>> 5] >>> (d & 31) & 1) === 0) continue;
    const before = acc[d];
    if (before === 0) touched[count++] = d;
    const s = before + weight * impact;
    acc[d] = s;
    if (s > best) best = s;
  }
  bestOfLastList = best;
  return count;
}
function probe(l, cands, live, acc) {
  const { docs: docs2, impacts, weight, end, dense } = l;
  if (dense) {
    const size = dense.length;
    for (let j = 0; j < live; j++) {
      const d = cands[j];
      if (d < size) acc[d] += weight * dense[d];
    }
    return;
  }
  let p = l.start;
  for (let j = 0; j < live; j++) {
    const d = cands[j];
    p = seek2(docs2, p, end, d);
    if (p < end && docs2[p] === d) acc[d] += weight * impacts[p];
  }
}
function keepAbove(cands, live, acc, min) {
  let m = 0;
  for (let j = 0; j < live; j++) if (acc[cands[j]] >= min) cands[m++] = cands[j];
  return m;
}
function countAbove(touched, count, acc, min) {
  let m = 0;
  for (let t2 = 0; t2 < count; t2++) if (acc[touched[t2]] >= min) m++;
  return m;
}
function survivors(touched, count, acc, min) {
  let m = 0;
  for (let t2 = 0; t2 < count; t2++) if (acc[touched[t2]] >= min) m++;
  const out = new Int32Array(m);
  m = 0;
  for (let t2 = 0; t2 < count; t2++) if (acc[touched[t2]] >= min) out[m++] = touched[t2];
  return out.sort();
}
function kthLargest(acc, touched, count, k, scratch) {
  const v = scratch.values = ensureCapacity(scratch.values, count);
  for (let t2 = 0; t2 < count; t2++) v[t2] = acc[touched[t2]];
  let lo = 0;
  let hi = count - 1;
  const want = k - 1;
  while (lo < hi) {
    const pivot = v[lo + hi >>> 1];
    let a = lo;
    let b = hi;
    while (a <= b) {
      while (v[a] > pivot) a++;
      while (v[b] < pivot) b--;
      if (a <= b) {
        const x = v[a];
        v[a++] = v[b];
        v[b--] = x;
      }
    }
    if (want <= b) hi = b;
    else if (want >= a) lo = a;
    else break;
  }
  return v[want];
}
function withHits(lists, ranked, acc) {
  const out = ranked.map((doc) => ({ doc, score: acc[doc], hits: [] }));
  const order = out.map((_, j) => j).sort((a, b) => out[a].doc - out[b].doc);
  for (const l of lists) {
    let p = l.start;
    for (const j of order) {
      const c = out[j];
      if (l.dense) {
        if (c.doc < l.dense.length && l.dense[c.doc] > 0) c.hits.push({ term: l.term, impact: l.dense[c.doc] });
        continue;
      }
      p = seek2(l.docs, p, l.end, c.doc);
      if (p < l.end && l.docs[p] === c.doc) c.hits.push({ term: l.term, impact: l.impacts[p] });
    }
  }
  return out;
}
function seedThreshold(lists, allowed, k, relative) {
  const n = lists.length;
  const seedSet = /* @__PURE__ */ new Set();
  for (let i = 0; i < Math.min(n, SEED_LISTS); i++) {
    const l = lists[i];
    if (l.dense) continue;
    const strong = Math.ceil(SEED_STRENGTH * l.bound / l.weight);
    let taken = 0;
    const end = Math.min(l.end, l.start + SEED_SCAN);
    for (let p = l.start; p < end && taken < SEEDS_PER_LIST; p++) {
      const d = l.docs[p];
      if (l.impacts[p] >= strong && (allowed[d >>> 5] >>> (d & 31) & 1) === 1) {
        seedSet.add(d);
        taken++;
      }
    }
  }
  const seeds = Int32Array.from(seedSet).sort();
  const scores = new Float64Array(seeds.length);
  for (let i = 0; i < Math.min(n, SEED_PROBE_LISTS); i++) {
    const l = lists[i];
    let p = l.start;
    for (let j = 0; j < seeds.length; j++) {
      const d = seeds[j];
      if (l.dense) {
        if (d < l.dense.length) scores[j] += l.weight * l.dense[d];
        continue;
      }
      p = seek2(l.docs, p, l.end, d);
      if (p < l.end && l.docs[p] === d) scores[j] += l.weight * l.impacts[p];
    }
  }
  scores.sort().reverse();
  const best = scores[0] ?? 0;
  return { threshold: Math.max(relative * best, scores.length >= k ? scores[k - 1] : 0), best };
}

// src/modules/search/engine/term-dict.ts
var CJK_BASE = 13312;
var CJK_SPAN = 40960 - CJK_BASE;
var EMPTY = -1;
var TermDict = class {
  ids = /* @__PURE__ */ new Map();
  keys = [];
  df = new Int32Array(1024);
  /** Upper bound of the quantised impact of any posting of the term (never lowered). */
  maxImpact = new Uint8Array(1024);
  slotKeys = new Int32Array(1 << 16).fill(EMPTY);
  slotIds = new Int32Array(1 << 16);
  slotsUsed = 0;
  get size() {
    return this.keys.length;
  }
  lookup(key) {
    return this.ids.get(key) ?? -1;
  }
  intern(key) {
    let id = this.ids.get(key);
    if (id === void 0) {
      id = this.keys.length;
      this.ids.set(key, id);
      this.keys.push(key);
      this.df = ensureCapacity(this.df, id + 1);
      this.maxImpact = ensureCapacity(this.maxImpact, id + 1);
    }
    return id;
  }
  /** Id of the bigram of two CJK code units. */
  internBigram(c1, c2) {
    if (c1 < CJK_BASE || c1 >= 40960 || c2 < CJK_BASE || c2 >= 40960) return this.intern(String.fromCharCode(c1, c2));
    const code = (c1 - CJK_BASE) * CJK_SPAN + (c2 - CJK_BASE);
    const mask = this.slotKeys.length - 1;
    let slot = Math.imul(code, 2654435761) >>> 0 & mask;
    for (; ; ) {
      const k = this.slotKeys[slot];
      if (k === code) return this.slotIds[slot];
      if (k === EMPTY) break;
      slot = slot + 1 & mask;
    }
    const id = this.intern(String.fromCharCode(c1, c2));
    this.slotKeys[slot] = code;
    this.slotIds[slot] = id;
    if (++this.slotsUsed * 2 > this.slotKeys.length) this.growSlots();
    return id;
  }
  growSlots() {
    const oldKeys = this.slotKeys;
    const oldIds = this.slotIds;
    this.slotKeys = new Int32Array(oldKeys.length * 2).fill(EMPTY);
    this.slotIds = new Int32Array(oldKeys.length * 2);
    const mask = this.slotKeys.length - 1;
    for (let i = 0; i < oldKeys.length; i++) {
      if (oldKeys[i] === EMPTY) continue;
      let slot = Math.imul(oldKeys[i], 2654435761) >>> 0 & mask;
      while (this.slotKeys[slot] !== EMPTY) slot = slot + 1 & mask;
      this.slotKeys[slot] = oldKeys[i];
      this.slotIds[slot] = oldIds[i];
    }
  }
};

// src/modules/search/engine/index.ts
var micros = (from) => Math.round((performance.now() - from) * 1e3);
var SearchIndex = class _SearchIndex {
  dict = new TermDict();
  postings = new Postings();
  table = new DocTable();
  vocab = new PinyinVocab();
  analyzer = new DocAnalyzer(this.vocab, this.dict);
  impacts = new ImpactBuilder(this.analyzer, this.dict);
  scratch = new Scratch();
  /**
   * Bulk build: a cheap first pass measures field lengths (for the averages BM25F normalises
   * by), the second analyses each document once and buffers its (term, impact) postings, which
   * are then placed term by term into the compact base segment. A permit given twice keeps its
   * last version.
   */
  static build(docs2) {
    const index = new _SearchIndex();
    const latest = /* @__PURE__ */ new Map();
    for (const d of docs2) latest.set(d.permitId, d);
    const unique = [...latest.values()];
    const { dict, table, impacts, analyzer } = index;
    for (const doc of unique) {
      analyzer.measure(doc);
      table.add(doc, analyzer.lengths);
    }
    const avg = (f) => table.averageLength(f);
    const buffer = new PostingBuffer();
    const push = (t2, impact) => {
      buffer.push(t2, impact);
      dict.df[t2]++;
      if (impact > dict.maxImpact[t2]) dict.maxImpact[t2] = impact;
    };
    for (const doc of unique) {
      impacts.collect(doc);
      impacts.forEachImpact(avg, push);
      buffer.endDoc();
    }
    index.postings = Postings.build(dict.df, dict.size, table.capacity, (put) => buffer.forEach(put));
    return index;
  }
  get size() {
    return this.table.aliveCount;
  }
  upsert(doc) {
    const old = this.table.idOf(doc.permitId);
    if (old !== void 0) this.removeId(old);
    const { dict, table, impacts } = this;
    impacts.collect(doc);
    const id = table.add(doc, impacts.lengths);
    impacts.forEachImpact((f) => table.averageLength(f), (t2, impact) => {
      dict.df[t2]++;
      if (impact > dict.maxImpact[t2]) dict.maxImpact[t2] = impact;
      this.postings.append(t2, id, impact);
    });
    this.maybeCompact();
  }
  remove(permitId) {
    const id = this.table.idOf(permitId);
    if (id === void 0) return;
    this.removeId(id);
    this.maybeCompact();
  }
  removeId(id) {
    const doc = this.table.docs[id];
    if (!doc) return;
    this.impacts.collect(doc);
    this.impacts.forEachTerm((t2) => this.dict.df[t2]--);
    this.table.remove(id, this.impacts.lengths);
  }
  /** Folds delta lists and drops removed documents once they amount to a quarter of the index. */
  maybeCompact() {
    const t2 = this.table;
    if (this.postings.pendingDelta > Math.max(2e5, this.postings.size / 4) || t2.deadCount > Math.max(1e3, t2.aliveCount / 4)) {
      this.postings = this.postings.compact(this.dict.size, t2.capacity, (d) => t2.isAlive(d));
      t2.deadCount = 0;
    }
  }
  search(query, opts = {}) {
    const t0 = performance.now();
    const limit = Math.max(1, Math.min(MAX_HITS, Math.floor(opts.limit ?? MAX_HITS)));
    const plan = analyzeQuery(query, this.vocab);
    const tAnalyzed = performance.now();
    const n = Math.max(1, this.table.aliveCount);
    const terms = plan.terms.map((term) => {
      const id = this.dict.lookup(term.key);
      const df = id >= 0 ? this.dict.df[id] : 0;
      if (df <= 0) return { term, id: -1, scoreWeight: 0 };
      const idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
      return { term, id, scoreWeight: term.weight * idf * (P.k1 + 1) / 255 };
    });
    const lists = [];
    terms.forEach((rt, term) => {
      if (rt.id < 0) return;
      const bound = rt.scoreWeight * this.dict.maxImpact[rt.id];
      for (const s of this.postings.slices(rt.id)) lists.push({ ...s, weight: rt.scoreWeight, bound, term });
    });
    const allowed = this.table.allowedBits(opts.regionIds);
    const cands = allowed ? retrieveTopK(lists, allowed.bits, allowed.count, P.rerankPool, P.relativeCutoff / (1 + P.phraseBonus), this.scratch, this.table.capacity) : [];
    const tRetrieved = performance.now();
    const docOf = (d) => this.table.docs[d];
    const ranked = rankCandidates(cands, { plan, terms, docOf }, limit);
    const hits = ranked.map((r) => {
      const doc = docOf(r.doc);
      const textKeys = new Set(r.matched.filter((m) => isTextKey(m.rt.term.key)).map((m) => m.rt.term.key));
      const soundKeys = new Set(r.matched.filter((m) => !isTextKey(m.rt.term.key)).map((m) => m.rt.term.key));
      return { doc, score: Math.round(r.score * 1e4) / 1e4, matched: matchedSubstrings(doc, plan, textKeys, soundKeys) };
    });
    if (!opts.debug) return { hits };
    const rank = micros(tRetrieved);
    const total = micros(t0);
    hits.forEach((hit, i) => hit.breakdown = fieldBreakdown(hit.doc, ranked[i], this.analyzer, (f) => this.table.averageLength(f)));
    return {
      hits,
      debug: {
        normalizedQuery: plan.normalized,
        terms: plan.terms.map((t2) => ({ term: t2.display, origin: t2.origin, weight: Math.round(t2.weight * 1e3) / 1e3 })),
        timingsUs: { analyze: Math.round((tAnalyzed - t0) * 1e3), retrieve: Math.round((tRetrieved - tAnalyzed) * 1e3), rank, total }
      }
    };
  }
};

// bench/search/_mix.ts
import { Session } from "node:inspector/promises";
import { writeFileSync } from "node:fs";
var docs = scaleCorpus(corpusDocs(loadCorpus()), 1e5);
var idx = SearchIndex.build(docs);
var qs = latencyQueries(docs, loadQueries().map((q) => ({ query: q.query, regionIds: null })));
for (const q of qs.slice(0, 1500)) idx.search(q.query, { regionIds: q.regionIds });
var session = new Session();
session.connect();
await session.post("Profiler.enable");
await session.post("Profiler.start");
var t = performance.now();
for (const q of qs.slice(1500, 4500)) idx.search(q.query, { regionIds: q.regionIds });
console.log("avg ms", ((performance.now() - t) / 3e3).toFixed(3));
var { profile } = await session.post("Profiler.stop");
writeFileSync("/tmp/prof/mix.cpuprofile", JSON.stringify(profile));
