import type { FieldKey } from '../parser/types.js';

/** What the import template holds besides the column table: example rows, widths and the rules. */

export const TEMPLATE_SHEET = '许可事项风险清单';
export const INSTRUCTIONS_SHEET = '填写说明';
/** Data validations (风险等级, 检索可见) cover rows 2 up to this row (up to the last row of a longer sheet). */
export const VALIDATED_LAST_ROW = 5000;

export const COLUMN_WIDTHS: Record<FieldKey, number> = {
  region: 10,
  themes: 24,
  permitName: 30,
  permitCode: 18,
  implementationLevel: 10,
  approvalDepartments: 26,
  internalContact: 26,
  contactInfo: 16,
  riskType: 12,
  riskPoint: 50,
  legalBasis: 36,
  consequence: 42,
  prevention: 38,
  level: 10,
  visible: 10,
};

const FOOD_PERMIT: Partial<Record<FieldKey, string>> = {
  region: '广安区',
  themes: '开办餐饮店、开办超市便利店',
  permitName: '食品(含保健食品)经营许可核发',
  permitCode: '511A0005200004',
  implementationLevel: '县级',
  approvalDepartments: '区行政审批局、区市场监管局',
  internalContact: '市场准入审批科 0826-2381681',
  contactInfo: '0826-2306250',
  visible: '是',
};

const HOTEL_PERMIT: Partial<Record<FieldKey, string>> = {
  region: '广安区',
  themes: '开办宾馆旅馆',
  permitName: '旅馆业特种行业许可证核发',
  permitCode: '511A0146000000',
  implementationLevel: '县级',
  approvalDepartments: '区公安分局',
  internalContact: '治安管理大队 0826-2340469',
  contactInfo: '0826-2300952',
  visible: '是',
};

/** Two permits of two risks each; the second row of each block leaves the permit cells blank (carried down). */
export const EXAMPLE_ROWS: ReadonlyArray<Partial<Record<FieldKey, string>>> = [
  {
    ...FOOD_PERMIT,
    riskType: '无证经营',
    level: '高',
    riskPoint:
      '未取得食品经营许可即开展餐饮服务或食品销售\n门店装修完成后未等许可证核发即试营业，或在线上平台销售自制食品；仅销售预包装食品的经营者未在开业前办理备案。',
    legalBasis: '《食品安全法》第三十五条、第一百二十二条',
    consequence:
      '没收违法所得和违法经营的食品，并可以没收用于违法经营的工具、设备、原料等物品；违法经营的食品货值金额不足一万元的，并处五万元以上十万元以下罚款；货值金额一万元以上的，并处货值金额十倍以上二十倍以下罚款。',
    prevention: '取得营业执照后先申请食品经营许可，许可证核发前不得试营业；仅销售预包装食品的在开业前向市场监管部门备案。',
  },
  {
    riskType: '承诺不实',
    level: '中',
    riskPoint:
      '告知承诺办理后现场条件与承诺不符\n选择告知承诺方式申请，承诺已设置粗加工、烹饪、餐用具清洗消毒等功能区和防蝇防鼠设施，核查时发现场所与承诺内容不一致。',
    legalBasis: '《行政许可法》第六十九条、第七十八条；《食品经营许可和备案管理办法》',
    consequence: '责令限期整改；逾期不整改或整改后仍不符合许可条件的，依法撤销许可，并记入经营者信用记录。',
    prevention: '承诺前对照餐饮服务食品安全操作规范逐项自查并留存照片；条件尚不具备的选择一般程序办理。',
  },
  {
    ...HOTEL_PERMIT,
    riskType: '无证经营',
    level: '高',
    riskPoint:
      '未取得特种行业许可证经营旅馆（含民宿、日租房）\n利用住宅、公寓开设日租房、民宿或钟点房，或浴场、足浴店违规提供住宿，未取得旅馆业特种行业许可证。',
    legalBasis: '《治安管理处罚法》（2012年修正）第五十四条；《旅馆业治安管理办法》第四条',
    consequence: '处十日以上十五日以下拘留，并处五百元以上一千元以下罚款；情节较轻的，处五日以下拘留或者五百元以下罚款；对无证经营的旅馆予以取缔。',
    prevention: '开业前向公安机关申领特种行业许可证，完成治安防范设施建设。',
  },
  {
    riskType: '经营管理',
    level: '高',
    riskPoint: '不按规定查验登记住宿旅客身份\n接待旅客未查验身份证件、未逐人如实登记，或以他人身份证件代替登记、未上传旅客信息。',
    legalBasis: '《旅馆业治安管理办法》第六条；《治安管理处罚法》（2012年修正）第五十六条；《反恐怖主义法》第二十一条、第八十六条',
    consequence: '对旅馆业工作人员处二百元以上五百元以下罚款；住宿业经营者未查验客户身份、对身份不明者提供服务的，由主管部门处十万元以上五十万元以下罚款。',
    prevention: '严格执行“四实”登记，一人一证一登记，旅客信息实时上传。',
  },
];

export const RULES: readonly string[] = [
  '每个工作表是一张表，一行填写一条风险。工作簿可以有多个工作表，每个工作表都会读取。',
  '表头行是第一行含有至少三个已知列名的行；表头以上的标题行、说明行（包括合并单元格的标题）不导入。',
  '列按名称识别，不按位置，列的先后顺序可以调整；列名不区分大小写和全角/半角，忽略空格，“（）”与“()”相同，也可以使用“可用别名”中的名称。无法识别的列会在预览中提示并忽略。',
  '同一许可事项有多条风险时，可以只在第一行填写许可事项各列（区域、主题、许可事项、事项编码、实施层级、审批部门、内部联系人、对外咨询电话、检索可见），下面各行留空或纵向合并单元格，即沿用上一行的内容。许可事项名称、事项编码或区域与上一行不同的行，开始一个新的许可事项。',
  '许可事项按“区域＋事项编码”识别，没有事项编码时按“区域＋许可事项名称”识别；同一工作表中不相邻的同一许可事项合并为一项，风险依次追加。',
  '主题、审批部门可以填写多个，用“、”“，”“；”“/”（全角或半角）分隔。',
  '风险点单元格的第一行是风险点标题；在单元格内换行（Windows 按 Alt+Enter，Mac 按 Control+Option+Return）后填写的内容是风险描述。',
  '风险等级填写“高”“中”或“低”；检索可见填写“是”或“否”，留空视为“是”，填“否”的许可事项不出现在公开检索中。',
  '公式按文件中保存的计算结果导入；日期按 YYYY-MM-DD 导入。每个单元格不超过 5000 个字符，每个工作簿不超过 200000 行。',
  '上传后先生成预览，列出每个问题所在的工作表、行号和列；确认无误并提交后才写入。',
  '第 2 至 5 行是示例，填写前请删除。',
];
