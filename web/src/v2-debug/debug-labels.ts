/** The Chinese the console shows for the search engine's debug codes (docs/search.md). */

type TagType = 'primary' | 'success' | 'warning' | 'info' | 'danger';

const ORIGINS: Record<string, { label: string; type: TagType }> = {
  word: { label: '原词', type: 'primary' },
  bigram: { label: '二元切分', type: 'info' },
  unigram: { label: '单字', type: 'info' },
  synonym: { label: '同义词', type: 'success' },
  pinyin: { label: '拼音', type: 'warning' },
  initials: { label: '拼音首字母', type: 'warning' },
  correction: { label: '纠错', type: 'danger' },
};

const KINDS: Record<string, string> = {
  content: '主题词',
  single: '主题词（单字）',
  light: '修饰词',
  intent: '问句用语',
  stage: '办理阶段',
  bridge: '跨词二元',
  sound: '拼音',
};

const EVIDENCE: Record<string, string> = {
  text: '事项原文',
  alias: '俗称',
  activity: '主要事项',
  supporting: '相关事项',
  question: '常见问法',
};

/** The engine's fields (src/modules/search/engine/ranking-params.ts) and the factors on the score. */
const FIELDS: Record<string, string> = {
  name: '事项名称',
  code: '事项编码',
  theme: '主题',
  department: '审批部门',
  department_alias: '部门俗称',
  risk_title: '风险点',
  risk_text: '风险内容',
  pinyin: '拼音',
  alias: '俗称',
  activity: '主要事项',
  supporting: '相关事项',
  question: '常见问法',
  explained_share: '解释程度',
  name_phrase: '名称整体匹配',
  stage: '办理阶段',
};

const CUT: Record<string, string> = {
  nothing: '问题中没有可匹配的词，或没有任何事项与之匹配',
  unexplained: '最佳候选对问题解释不足，整体判定为没有找到',
  elsewhere: '所选区域没有所问的事项，整体判定为没有找到',
  relative: '得分远低于第一名',
  hit_unexplained: '对问题解释不足',
};

/** The verdicts of 为什么没有找到 (GET /admin/search/why-not), with the alert type each is shown as. */
const WHY_NOT: Record<string, { text: string; type: 'success' | 'warning' | 'info' | 'error' }> = {
  unknown: { text: '检索索引中没有这个许可事项', type: 'error' },
  hidden: { text: '该事项设为不在检索中显示（隐藏），检索不会返回它', type: 'warning' },
  region: { text: '该事项不属于所选区域，被区域筛选排除', type: 'warning' },
  curated_out: { text: '管理员的结果调整规则对这个问题隐藏了该事项（搜索词库 → 置顶与隐藏）', type: 'warning' },
  no_terms: { text: '问题中的词在该事项的名称、风险内容和知识词条中都没有出现', type: 'info' },
  pinned: { text: '管理员的结果调整规则把该事项置顶在这个问题的结果中', type: 'success' },
  found: { text: '该事项在检索结果中', type: 'success' },
  no_answer: { text: '整个问题判定为没有找到，没有返回任何事项', type: 'info' },
  cut: { text: '该事项参与了排序，但被截掉', type: 'warning' },
  below_limit: { text: '该事项排在第 20 条结果之后', type: 'info' },
  not_retrieved: { text: '按检索初筛得分，该事项不在参与排序的候选之内', type: 'info' },
};

export const originLabel = (o: string) => ORIGINS[o] ?? { label: o, type: 'info' as const };
export const kindLabel = (k: string) => KINDS[k] ?? k;
export const evidenceLabel = (e: string) => EVIDENCE[e] ?? e;
export const fieldLabel = (f: string) => FIELDS[f] ?? f;
export const cutLabel = (r: string) => CUT[r] ?? r;
export const whyNotLabel = (v: string) => WHY_NOT[v] ?? { text: v, type: 'info' as const };

/** One sentence saying why the answer is what it is. */
export function verdict(reason: string | null | undefined, subjects: { text: string; explained: number }[]): string {
  const missing = subjects.filter((s) => s.explained < 0.5).map((s) => `「${s.text}」`);
  if (reason === 'nothing') return '没有任何许可事项与问题中的词相符，判定为没有找到。';
  if (reason === 'elsewhere') return '所问的事项在其他区域才有，所选区域的最佳结果远不如它，判定为没有找到（不以本区域字面相近的事项充数）。';
  if (reason === 'unexplained') {
    return missing.length
      ? `最接近的许可事项也没有讲到问题中的${missing.join('、')}，判定为没有找到（不以字面相近的事项充数）。`
      : '最接近的许可事项对问题的解释不足，判定为没有找到。';
  }
  return missing.length ? `已找到；问题中的${missing.join('、')}在第一条结果中没有对应。` : '已找到；第一条结果讲到了问题的全部主题词。';
}

export const percent = (x: number | undefined) => (x === undefined ? '—' : `${Math.round(x * 100)}%`);
