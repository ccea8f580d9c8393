import { pinyin } from 'pinyin-pro';

/** Toneless pinyin syllables, ü written v; the bare nasals (m, n, ng, hng) are left out on purpose. */
const SYLLABLE_LIST =
  'a ai an ang ao ba bai ban bang bao bei ben beng bi bian biao bie bin bing bo bu ca cai can cang cao ce cen ceng ' +
  'cha chai chan chang chao che chen cheng chi chong chou chu chua chuai chuan chuang chui chun chuo ci cong cou cu ' +
  'cuan cui cun cuo da dai dan dang dao de dei den deng di dia dian diao die ding diu dong dou du duan dui dun duo e ' +
  'ei en eng er fa fan fang fei fen feng fo fou fu ga gai gan gang gao ge gei gen geng gong gou gu gua guai guan guang ' +
  'gui gun guo ha hai han hang hao he hei hen heng hong hou hu hua huai huan huang hui hun huo ji jia jian jiang jiao ' +
  'jie jin jing jiong jiu ju juan jue jun ka kai kan kang kao ke kei ken keng kong kou ku kua kuai kuan kuang kui kun ' +
  'kuo la lai lan lang lao le lei leng li lia lian liang liao lie lin ling liu lo long lou lu luan lue lun luo lv lve ' +
  'ma mai man mang mao me mei men meng mi mian miao mie min ming miu mo mou mu na nai nan nang nao ne nei nen neng ni ' +
  'nian niang niao nie nin ning niu nong nou nu nuan nue nuo nv nve o ou pa pai pan pang pao pei pen peng pi pian ' +
  'piao pie pin ping po pou pu qi qia qian qiang qiao qie qin qing qiong qiu qu quan que qun ran rang rao re ren reng ' +
  'ri rong rou ru rua ruan rui run ruo sa sai san sang sao se sen seng sha shai shan shang shao she shei shen sheng ' +
  'shi shou shu shua shuai shuan shuang shui shun shuo si song sou su suan sui sun suo ta tai tan tang tao te tei teng ' +
  'ti tian tiao tie ting tong tou tu tuan tui tun tuo wa wai wan wang wei wen weng wo wu xi xia xian xiang xiao xie ' +
  'xin xing xiong xiu xu xuan xue xun ya yan yang yao ye yi yin ying yo yong you yu yuan yue yun za zai zan zang zao ' +
  'ze zei zen zeng zha zhai zhan zhang zhao zhe zhei zhen zheng zhi zhong zhou zhu zhua zhuai zhuan zhuang zhui zhun ' +
  'zhuo zi zong zou zu zuan zui zun zuo';
const SYLLABLES = new Set(SYLLABLE_LIST.split(' '));
const MAX_SYLLABLE = 6;
const MAX_READINGS = 3;

/**
 * Splits a run of letters into pinyin syllables, fewest syllables first and, among those, fewest
 * syllables starting with a vowel, which written pinyin would mark with an apostrophe
 * ("fangan" → fan gan, "xian" → xian). Null when the run is not pinyin.
 */
export function syllabify(letters: string): string[] | null {
  const n = letters.length;
  const cost = new Array<number>(n + 1).fill(Infinity);
  const prev = new Array<number>(n + 1).fill(-1);
  cost[0] = 0;
  for (let i = 0; i < n; i++) {
    if (cost[i] === Infinity) continue;
    for (let len = 1; len <= MAX_SYLLABLE && i + len <= n; len++) {
      const syl = letters.slice(i, i + len);
      if (!SYLLABLES.has(syl)) continue;
      const c = cost[i] + 10 + ('aeiou'.includes(syl[0]) ? 1 : 0);
      if (c < cost[i + len]) {
        cost[i + len] = c;
        prev[i + len] = i;
      }
    }
  }
  if (cost[n] === Infinity) return null;
  const out: string[] = [];
  for (let j = n; j > 0; j = prev[j]) out.unshift(letters.slice(prev[j], j));
  return out;
}

const charReadings = new Map<string, string[]>();

/** All toneless readings of one character (ü also spelt u), at most MAX_READINGS. */
function readingsOfChar(ch: string): string[] {
  let r = charReadings.get(ch);
  if (!r) {
    const all = pinyin(ch, { multiple: true, type: 'array', toneType: 'none', v: true });
    r = withUVariants(all.filter((p) => SYLLABLES.has(p)).slice(0, MAX_READINGS));
    charReadings.set(ch, r);
  }
  return r;
}

function withUVariants(readings: string[]): string[] {
  const out = [...readings];
  for (const p of readings) if (p.includes('v')) out.push(p.replace('v', 'u'));
  return [...new Set(out)];
}

/**
 * Readings of each character of a CJK run: the reading in context first, then the other readings
 * of polyphonic characters (so that 形业 and 行业 meet on "xing ye").
 */
export function runReadings(run: string): string[][] {
  const hit = runCache.get(run);
  if (hit) return hit;
  const out = computeRunReadings(run);
  if (runCache.size >= RUN_CACHE_LIMIT) runCache.clear();
  runCache.set(run, out);
  return out;
}

/** Names and query bigrams repeat: readings of recent runs are memoised. */
const RUN_CACHE_LIMIT = 50_000;
const runCache = new Map<string, string[][]>();

function computeRunReadings(run: string): string[][] {
  const ctx = pinyin(run, { type: 'array', toneType: 'none', v: true });
  const out: string[][] = [];
  for (let i = 0; i < run.length; i++) {
    const first = ctx.length === run.length && SYLLABLES.has(ctx[i]) ? [ctx[i]] : [];
    out.push([...new Set([...withUVariants(first), ...readingsOfChar(run[i])])]);
  }
  return out;
}

/** Every key a window of characters can take: one reading per character, joined. */
export function readingKeys(readings: string[][], from: number, to: number, initialsOnly: boolean, sep: string): string[] {
  let keys = [''];
  for (let i = from; i < to; i++) {
    const options = [...new Set(readings[i].map((p) => (initialsOnly ? p[0] : p)))];
    if (options.length === 0) return [];
    const next: string[] = [];
    for (const k of keys) for (const o of options) next.push(k === '' ? o : k + sep + o);
    keys = next;
  }
  return keys;
}
