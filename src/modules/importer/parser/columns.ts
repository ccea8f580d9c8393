import type { FieldKey } from './types.js';

/**
 * The import column table (docs/import.md), kept as data so the parser,
 * the template and its instruction sheet all read the same names.
 */
export interface ColumnSpec {
  field: FieldKey;
  canonical: string;
  aliases: readonly string[];
  /** 许可事项 is always required; 风险点 is required for every risk row. */
  required: boolean;
  /** Permit columns carry down within a permit block; the others describe one risk. */
  scope: 'permit' | 'risk';
  requirement: string;
  meaning: string;
  example: string;
}

export const COLUMNS: readonly ColumnSpec[] = [
  {
    field: 'region',
    canonical: '区域',
    aliases: ['地区', '所属区域', '行政区划'],
    required: false,
    scope: 'permit',
    requirement: '否（缺省时按上传时绑定的部门确定）',
    meaning: '区域名称或区域代码',
    example: '广安区 或 511602',
  },
  {
    field: 'themes',
    canonical: '主题',
    aliases: ['主题名称', '场景', '一件事'],
    required: false,
    scope: 'permit',
    requirement: '否',
    meaning: '事项所属的主题，可填多个',
    example: '开办餐饮店、开办超市便利店',
  },
  {
    field: 'permitName',
    canonical: '许可事项',
    aliases: ['事项名称', '许可事项名称', '许可名称'],
    required: true,
    scope: 'permit',
    requirement: '是',
    meaning: '许可事项名称',
    example: '食品(含保健食品)经营许可核发',
  },
  {
    field: 'permitCode',
    canonical: '事项编码',
    aliases: ['编码', '事项代码'],
    required: false,
    scope: 'permit',
    requirement: '否',
    meaning: '事项编码；与区域一起确定一个许可事项，未填时按事项名称确定',
    example: '511A0005200004',
  },
  {
    field: 'implementationLevel',
    canonical: '实施层级',
    aliases: ['层级'],
    required: false,
    scope: 'permit',
    requirement: '否',
    meaning: '实施层级',
    example: '省级、市级、县级',
  },
  {
    field: 'approvalDepartments',
    canonical: '审批部门',
    aliases: ['实施机关', '审批机关', '主管部门'],
    required: false,
    scope: 'permit',
    requirement: '否',
    meaning: '审批（实施）部门，可填多个',
    example: '区行政审批局、区市场监管局',
  },
  {
    field: 'internalContact',
    canonical: '内部联系人',
    aliases: ['联系人', '内部联系方式'],
    required: false,
    scope: 'permit',
    requirement: '否',
    meaning: '内部联系人及电话（不对外公开）',
    example: '市场准入审批科 0826-2381681',
  },
  {
    field: 'contactInfo',
    canonical: '对外咨询电话',
    aliases: ['咨询电话', '对外联系方式', '联系方式'],
    required: false,
    scope: 'permit',
    requirement: '否',
    meaning: '对外公开的咨询电话',
    example: '0826-2306250',
  },
  {
    field: 'riskType',
    canonical: '风险类型',
    aliases: ['风险类别'],
    required: false,
    scope: 'risk',
    requirement: '否',
    meaning: '风险类别',
    example: '无证经营',
  },
  {
    field: 'riskPoint',
    canonical: '风险点',
    aliases: ['风险描述', '风险内容', '风险事项'],
    required: true,
    scope: 'risk',
    requirement: '风险行必填',
    meaning: '风险点：单元格第一行为风险点标题，单元格内换行（Alt+Enter）后的内容为风险描述',
    example: '未取得食品经营许可即开展餐饮服务或食品销售（换行）门店装修完成后未等许可证核发即试营业……',
  },
  {
    field: 'legalBasis',
    canonical: '法律依据',
    aliases: ['依据'],
    required: false,
    scope: 'risk',
    requirement: '否',
    meaning: '法律法规名称及条款',
    example: '《食品安全法》第三十五条、第一百二十二条',
  },
  {
    field: 'consequence',
    canonical: '法律后果',
    aliases: ['法律责任', '处罚措施'],
    required: false,
    scope: 'risk',
    requirement: '否',
    meaning: '违法的法律后果',
    example: '没收违法所得和违法经营的食品……',
  },
  {
    field: 'prevention',
    canonical: '防范建议',
    aliases: ['防控措施', '风险防范措施'],
    required: false,
    scope: 'risk',
    requirement: '否',
    meaning: '防范建议',
    example: '取得营业执照后先申请食品经营许可，许可证核发前不得试营业。',
  },
  {
    field: 'level',
    canonical: '风险等级',
    aliases: ['等级'],
    required: false,
    scope: 'risk',
    requirement: '否',
    meaning: '风险等级：高 / 中 / 低',
    example: '高',
  },
  {
    field: 'visible',
    canonical: '检索可见',
    aliases: ['是否可见'],
    required: false,
    scope: 'permit',
    requirement: '否（留空为“是”）',
    meaning: '该许可事项是否出现在公开检索中：是 / 否',
    example: '是',
  },
];

export const COLUMN_BY_FIELD: ReadonlyMap<FieldKey, ColumnSpec> = new Map(COLUMNS.map((c) => [c.field, c]));

/** Header key: NFKC folds full-width letters and （）, then case and every kind of blank are dropped. */
export function normalizeHeader(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\s\u200b-\u200d\ufeff*]+/g, '');
}

const HEADER_INDEX: ReadonlyMap<string, ColumnSpec> = (() => {
  const index = new Map<string, ColumnSpec>();
  for (const spec of COLUMNS) {
    for (const name of [spec.canonical, ...spec.aliases]) index.set(normalizeHeader(name), spec);
  }
  return index;
})();

/**
 * The column a header names, or null. A trailing note in brackets is tolerated
 * ("风险等级（高/中/低）"), since hand-made templates often carry one.
 */
export function matchHeader(text: string): ColumnSpec | null {
  const key = normalizeHeader(text);
  if (key === '') return null;
  const direct = HEADER_INDEX.get(key);
  if (direct) return direct;
  const withoutNote = key.replace(/\([^()]*\)$/, '');
  return withoutNote !== key ? (HEADER_INDEX.get(withoutNote) ?? null) : null;
}

/** 1-based column index to its Excel letters (1 → A, 27 → AA). */
export function columnLetter(index: number): string {
  let n = index;
  let letters = '';
  while (n > 0) {
    const rem = (n - 1) % 26;
    letters = String.fromCharCode(65 + rem) + letters;
    n = Math.floor((n - 1) / 26);
  }
  return letters;
}
