/**
 * The function catalogue: what the formula editor offers and GET /v1/formula/function/list returns. The function set
 * is the product's (h3yun-facts §2.10 and the H3-family manual of §6); `source` says whether the behaviour is
 * @formulajs/formulajs's (wrapped: empties and lists converted first) or written here (docs/decisions/0012).
 */

export const FORMULA_CATEGORIES = ['math', 'aggregate', 'text', 'date', 'logic', 'other'] as const;
export type FormulaCategory = (typeof FORMULA_CATEGORIES)[number];

export const FORMULA_CATEGORY_NAMES: Readonly<Record<FormulaCategory, string>> = {
  math: '数学函数', aggregate: '聚合函数', text: '文本函数', date: '日期函数', logic: '逻辑函数', other: '其他函数',
};

/** Static result types, for checking a formula against its fields and the control's bindType. */
export const FORMULA_TYPES = ['number', 'text', 'bool', 'date', 'list', 'any'] as const;
export type FormulaType = (typeof FORMULA_TYPES)[number];

export interface FormulaFunctionInfo {
  name: string;
  category: FormulaCategory;
  /** As the editor shows it, e.g. ROUND(数值, 小数位数). */
  signature: string;
  description: string;
  example: string;
  /** What the example gives. */
  exampleResult: string;
  minArgs: number;
  /** null: any number. */
  maxArgs: number | null;
  returns: FormulaType;
  /** Arguments that may be a whole list (a sub-table column `{T.F}` outside its table): every one, or by index. */
  listArgs: 'all' | readonly number[];
  source: 'formulajs' | 'tritium';
  /** Another name for the same function. */
  aliasOf?: string;
}

type Entry = Omit<FormulaFunctionInfo, 'name' | 'category' | 'listArgs' | 'aliasOf'> & { listArgs?: FormulaFunctionInfo['listArgs']; aliasOf?: string };
const F = 'formulajs' as const;
const T = 'tritium' as const;
const fn = (signature: string, description: string, example: string, exampleResult: string, minArgs: number, maxArgs: number | null, returns: FormulaType, source: 'formulajs' | 'tritium', extra: Partial<Entry> = {}): Entry =>
  ({ signature, description, example, exampleResult, minArgs, maxArgs, returns, source, ...extra });

const MATH: Record<string, Entry> = {
  ABS: fn('ABS(数值)', '绝对值', 'ABS(-3.5)', '3.5', 1, 1, 'number', F),
  CEILING: fn('CEILING(数值, 基数)', '向上舍入为基数的倍数，基数默认 1', 'CEILING(2.1, 0.5)', '2.5', 1, 2, 'number', F),
  COS: fn('COS(角度)', '余弦，参数为角度（度）', 'COS(60)', '0.5', 1, 1, 'number', F),
  FIXED: fn('FIXED(数值, 小数位数, 不要千分位)', '按小数位数舍入并转为文本，默认 2 位并带千分位', 'FIXED(1234.567, 1)', '1,234.6', 1, 3, 'text', F),
  FLOOR: fn('FLOOR(数值, 基数)', '向下舍入为基数的倍数，基数默认 1', 'FLOOR(2.7, 0.5)', '2.5', 1, 2, 'number', F),
  INT: fn('INT(数值)', '向下取整（不大于该数的最大整数）', 'INT(-2.5)', '-3', 1, 1, 'number', F),
  INTDOWN: fn('INTDOWN(数值)', '向零方向取整（舍去小数）', 'INTDOWN(-2.7)', '-2', 1, 1, 'number', F),
  INTUP: fn('INTUP(数值)', '远离零方向取整（有小数即进一）', 'INTUP(2.1)', '3', 1, 1, 'number', F),
  LOG: fn('LOG(数值, 底数)', '对数，底数默认 10', 'LOG(8, 2)', '3', 1, 2, 'number', F),
  MOD: fn('MOD(被除数, 除数)', '余数，符号与除数相同；除数为 0 时为 0', 'MOD(10, 3)', '1', 2, 2, 'number', F),
  PI: fn('PI()', '圆周率', 'PI()', '3.14159265358979', 0, 0, 'number', F),
  POWER: fn('POWER(底数, 指数)', '乘幂', 'POWER(2, 10)', '1024', 2, 2, 'number', F),
  RAND: fn('RAND()', '0 到 1 之间的随机数', 'RAND()', '0.3821…', 0, 0, 'number', F),
  ROUND: fn('ROUND(数值, 小数位数)', '四舍五入到指定小数位数，默认 0 位', 'ROUND(2.345, 2)', '2.35', 1, 2, 'number', F),
  SIN: fn('SIN(角度)', '正弦，参数为角度（度）', 'SIN(30)', '0.5', 1, 1, 'number', F),
  SQRT: fn('SQRT(数值)', '平方根；负数为空', 'SQRT(16)', '4', 1, 1, 'number', F),
  TRUNC: fn('TRUNC(数值, 小数位数)', '截断到指定小数位数（不四舍五入）', 'TRUNC(2.567, 2)', '2.56', 1, 2, 'number', F),
  VALUE: fn('VALUE(文本)', '把文本转为数字；不是数字时为空', 'VALUE("12.5")', '12.5', 1, 1, 'number', F),
};

const AGGREGATE: Record<string, Entry> = {
  SUM: fn('SUM(数值1, 数值2, …)', '求和；子表字段 {子表.字段} 对所有行求和，空值不计', 'SUM({Lines.Amount})', '各行金额之和', 1, null, 'number', F, { listArgs: 'all' }),
  AVG: fn('AVG(数值1, 数值2, …)', '平均值，空值不计；没有数值时为 0', 'AVG(1, 2, 6)', '3', 1, null, 'number', F, { listArgs: 'all' }),
  AVERAGE: fn('AVERAGE(数值1, 数值2, …)', '同 AVG', 'AVERAGE(1, 2, 6)', '3', 1, null, 'number', F, { listArgs: 'all', aliasOf: 'AVG' }),
  MAX: fn('MAX(值1, 值2, …)', '最大值（数字或日期），空值不计', 'MAX(3, 9, 4)', '9', 1, null, 'any', F, { listArgs: 'all' }),
  MIN: fn('MIN(值1, 值2, …)', '最小值（数字或日期），空值不计', 'MIN(3, 9, 4)', '3', 1, null, 'any', F, { listArgs: 'all' }),
  COUNT: fn('COUNT(值1, 值2, …)', '非空值的个数；COUNT({子表.字段}) 统计该字段已填写的行数', 'COUNT({Lines.Product})', '已填写产品的行数', 1, null, 'number', F, { listArgs: 'all' }),
  SUMIF: fn('SUMIF(区域, 条件, 求和区域)', '按条件求和，条件如 ">100"、"手机"', 'SUMIF({Lines.Category}, "手机", {Lines.Amount})', '类别为手机的金额之和', 2, 3, 'number', F, { listArgs: [0, 2] }),
  COUNTIF: fn('COUNTIF(区域, 条件)', '按条件计数', 'COUNTIF({Lines.Qty}, ">10")', '数量大于 10 的行数', 2, 2, 'number', F, { listArgs: [0] }),
  LARGE: fn('LARGE(数值列表, k)', '第 k 大的值', 'LARGE({Lines.Amount}, 2)', '第二大的金额', 2, 2, 'number', F, { listArgs: [0] }),
  SMALL: fn('SMALL(数值列表, k)', '第 k 小的值', 'SMALL({Lines.Amount}, 1)', '最小的金额', 2, 2, 'number', F, { listArgs: [0] }),
};

const TEXT: Record<string, Entry> = {
  CONCATENATE: fn('CONCATENATE(文本1, 文本2, …)', '连接文本，空值按空文本', 'CONCATENATE("订单", "-", 12)', '订单-12', 1, null, 'text', F, { listArgs: 'all' }),
  CONTAINS: fn('CONTAINS(文本或多选, 查找内容)', '是否包含：文本含有该内容，或多选值中有该选项', 'CONTAINS("华东大区", "华东")', 'true', 2, 2, 'bool', T, { listArgs: [0] }),
  GETADDRESS: fn('GETADDRESS(地址)', '地址控件的文本：省市区 + 空格 + 详细地址', 'GETADDRESS({Address})', '广东省 深圳市 南山区 科技园', 1, 1, 'text', T),
  GETUNITNAME: fn('GETUNITNAME(人员或部门)', '人员或部门的名称，多个用 ; 连接', 'GETUNITNAME({Owner})', '张三', 1, 1, 'text', T, { listArgs: [0] }),
  LEFT: fn('LEFT(文本, 字符数)', '从左边取若干字符，默认 1 个', 'LEFT("氚云表单", 2)', '氚云', 1, 2, 'text', F),
  LEN: fn('LEN(文本)', '字符数', 'LEN("氚云")', '2', 1, 1, 'number', F),
  LENGTH: fn('LENGTH(文本)', '同 LEN', 'LENGTH("abc")', '3', 1, 1, 'number', F, { aliasOf: 'LEN' }),
  LOWER: fn('LOWER(文本)', '转为小写', 'LOWER("AbC")', 'abc', 1, 1, 'text', F),
  TOLOWER: fn('TOLOWER(文本)', '同 LOWER', 'TOLOWER("AbC")', 'abc', 1, 1, 'text', F, { aliasOf: 'LOWER' }),
  REPLACE: fn('REPLACE(原文本, 开始位置, 字符数, 新文本)', '从第几个字符起（从 1 开始）替换若干字符', 'REPLACE("abcdef", 2, 3, "X")', 'aXef', 4, 4, 'text', F),
  RIGHT: fn('RIGHT(文本, 字符数)', '从右边取若干字符，默认 1 个', 'RIGHT("20240131", 2)', '31', 1, 2, 'text', F),
  SEARCH: fn('SEARCH(查找文本, 所在文本, 开始位置)', '查找位置（从 1 开始，不区分大小写）；找不到为 0', 'SEARCH("c", "abcabc", 4)', '6', 2, 3, 'number', F),
  SPLIT: fn('SPLIT(文本, 分隔符)', '按分隔符拆成列表', 'SPLIT("a;b;c", ";")', '[a, b, c]', 2, 2, 'list', T),
  STARTSWITH: fn('STARTSWITH(文本, 开头)', '是否以某内容开头', 'STARTSWITH("DD2024001", "DD")', 'true', 2, 2, 'bool', T),
  STRING: fn('STRING(值)', '转为文本', 'STRING(12.5)', '12.5', 1, 1, 'text', T, { listArgs: [0] }),
  SUBSTITUTE: fn('SUBSTITUTE(文本, 旧文本, 新文本, 第几处)', '替换文本；不写第几处时全部替换', 'SUBSTITUTE("a-b-c", "-", "/")', 'a/b/c', 3, 4, 'text', F),
  SUBSTRING: fn('SUBSTRING(文本, 开始位置, 字符数)', '从第几个字符起（从 1 开始）取若干字符，不写字符数取到末尾', 'SUBSTRING("abcdef", 2, 3)', 'bcd', 2, 3, 'text', F),
  TEXT: fn('TEXT(值, 格式)', '按格式转为文本：数字如 "0.00"，日期如 "yyyy年MM月dd日"', 'TEXT(DATE(2024, 2, 29), "yyyy年MM月dd日")', '2024年02月29日', 2, 2, 'text', F),
  TRIM: fn('TRIM(文本)', '去掉首尾空格，中间连续空格留一个', 'TRIM("  a   b ")', 'a b', 1, 1, 'text', F),
  UNION: fn('UNION(值1, 值2, …)', '合并多个值或多选，去掉重复和空值', 'UNION(SPLIT("a;b", ";"), "b", "c")', '[a, b, c]', 1, null, 'list', T, { listArgs: 'all' }),
  UPPER: fn('UPPER(文本)', '转为大写', 'UPPER("abc")', 'ABC', 1, 1, 'text', F),
  TOUPPER: fn('TOUPPER(文本)', '同 UPPER', 'TOUPPER("abc")', 'ABC', 1, 1, 'text', F, { aliasOf: 'UPPER' }),
  UPPERMONEY: fn('UPPERMONEY(金额)', '人民币大写金额', 'UPPERMONEY(1234.56)', '壹仟贰佰叁拾肆元伍角陆分', 1, 1, 'text', T),
};

const DATE: Record<string, Entry> = {
  NOW: fn('NOW()', '当前时间', 'NOW()', '2024-01-31 09:30:00', 0, 0, 'date', T),
  TODAY: fn('TODAY()', '今天（0 点）', 'TODAY()', '2024-01-31', 0, 0, 'date', T),
  DATE: fn('DATE(年, 月, 日, 时, 分, 秒)', '由年月日（和时分秒）组成日期；超出的月、日顺延', 'DATE(2024, 2, 29)', '2024-02-29', 3, 6, 'date', T),
  YEAR: fn('YEAR(日期)', '年', 'YEAR("2024-02-29")', '2024', 1, 1, 'number', T),
  QUARTER: fn('QUARTER(日期)', '季度（1-4）', 'QUARTER("2024-05-01")', '2', 1, 1, 'number', T),
  MONTH: fn('MONTH(日期)', '月（1-12）', 'MONTH("2024-02-29")', '2', 1, 1, 'number', T),
  DAY: fn('DAY(日期)', '日（1-31）', 'DAY("2024-02-29")', '29', 1, 1, 'number', T),
  HOUR: fn('HOUR(日期)', '时（0-23）', 'HOUR("2024-02-29 13:45:10")', '13', 1, 1, 'number', T),
  MINUTE: fn('MINUTE(日期)', '分（0-59）', 'MINUTE("2024-02-29 13:45:10")', '45', 1, 1, 'number', T),
  SECOND: fn('SECOND(日期)', '秒（0-59）', 'SECOND("2024-02-29 13:45:10")', '10', 1, 1, 'number', T),
  WEEKDAY: fn('WEEKDAY(日期)', '星期几：0 为星期日，1-6 为星期一至六', 'WEEKDAY("2024-02-29")', '4', 1, 1, 'number', T),
  WEEKNUM: fn('WEEKNUM(日期)', '一年中的第几周（周日为一周的开始，1 月 1 日在第 1 周）', 'WEEKNUM("2024-01-07")', '2', 1, 1, 'number', T),
  ADDYEAR: fn('ADDYEAR(日期, 年数)', '加若干年；2 月 29 日加一年为 2 月 28 日', 'ADDYEAR("2024-02-29", 1)', '2025-02-28', 2, 2, 'date', T),
  ADDMONTH: fn('ADDMONTH(日期, 月数)', '加若干月；超过月末取月末', 'ADDMONTH("2024-01-31", 1)', '2024-02-29', 2, 2, 'date', T),
  ADDDAY: fn('ADDDAY(日期, 天数)', '加若干天（可为负数）', 'ADDDAY("2024-02-28", 1)', '2024-02-29', 2, 2, 'date', T),
  ADDHOUR: fn('ADDHOUR(日期, 小时数)', '加若干小时', 'ADDHOUR("2024-02-28 23:00", 2)', '2024-02-29 01:00:00', 2, 2, 'date', T),
  ADDMINUTE: fn('ADDMINUTE(日期, 分钟数)', '加若干分钟', 'ADDMINUTE("2024-02-29 23:50", 15)', '2024-03-01 00:05:00', 2, 2, 'date', T),
  YEARS: fn('YEARS(结束日期, 开始日期)', '相差年数（天数 ÷ 365，保留 2 位小数）', 'YEARS("2025-01-01", "2024-01-01")', '1', 2, 2, 'number', T),
  DAYS: fn('DAYS(结束日期, 开始日期)', '相差天数（保留 2 位小数）', 'DAYS("2024-03-01", "2024-02-01")', '29', 2, 2, 'number', T),
  HOURS: fn('HOURS(结束日期, 开始日期)', '相差小时数（保留 2 位小数）', 'HOURS("2024-03-01 12:00", "2024-03-01 09:30")', '2.5', 2, 2, 'number', T),
  MINUTES: fn('MINUTES(结束日期, 开始日期)', '相差分钟数（保留 2 位小数）', 'MINUTES("2024-03-01 12:00", "2024-03-01 11:15")', '45', 2, 2, 'number', T),
  DATEDIF: fn('DATEDIF(开始日期, 结束日期, 单位)', '相差的整年 "Y"、整月 "M"、天 "D"，或 "MD"、"YM"、"YD"；开始晚于结束时为空', 'DATEDIF("2024-01-31", "2024-02-29", "M")', '0', 3, 3, 'number', T),
};

const LOGIC: Record<string, Entry> = {
  IF: fn('IF(条件, 成立时的值, 不成立时的值)', '条件成立取第二个参数，否则取第三个（不写为空）', 'IF(85 >= 60, "及格", "不及格")', '及格', 2, 3, 'any', T),
  CASE: fn('CASE(条件1, 值1, 条件2, 值2, …, 其他值)', '取第一个成立条件对应的值；都不成立取最后的其他值（不写为空）', 'CASE(5 > 8, "大", 5 > 3, "中", "小")', '中', 2, null, 'any', T),
  AND: fn('AND(条件1, 条件2, …)', '所有条件都成立', 'AND(1 < 2, 3 < 4)', 'true', 1, null, 'bool', F, { listArgs: 'all' }),
  OR: fn('OR(条件1, 条件2, …)', '任一条件成立', 'OR(1 > 2, 3 < 4)', 'true', 1, null, 'bool', F, { listArgs: 'all' }),
  NOT: fn('NOT(条件)', '条件取反', 'NOT(1 > 2)', 'true', 1, 1, 'bool', F),
  ISNULL: fn('ISNULL(值)', '是否为空（未填写、空文本或没有选项）', 'ISNULL({Remark})', 'true', 1, 1, 'bool', T, { listArgs: [0] }),
  ISNUMBER: fn('ISNUMBER(值)', '是否为数字（含可转为数字的文本）', 'ISNUMBER("12")', 'true', 1, 1, 'bool', T),
};

const OTHER: Record<string, Entry> = {
  NEWGUID: fn('NEWGUID()', '新的唯一标识（GUID）', 'NEWGUID()', '5f0c…-…', 0, 0, 'text', T),
};

const GROUPS: [FormulaCategory, Record<string, Entry>][] = [
  ['math', MATH], ['aggregate', AGGREGATE], ['text', TEXT], ['date', DATE], ['logic', LOGIC], ['other', OTHER],
];

/** Every function, by category then name. */
export const FORMULA_FUNCTIONS: readonly FormulaFunctionInfo[] = GROUPS.flatMap(([category, entries]) =>
  Object.keys(entries)
    .sort()
    .map((name) => ({ name, category, ...entries[name], listArgs: entries[name].listArgs ?? [] })),
);

const BY_NAME = new Map(FORMULA_FUNCTIONS.map((info) => [info.name, info]));

/** A function by name, any case. */
export function formulaFunction(name: string): FormulaFunctionInfo | undefined {
  return BY_NAME.get(name.toUpperCase());
}

/** Whether argument `index` of the function may be a whole list. */
export function acceptsList(info: FormulaFunctionInfo, index: number): boolean {
  return info.listArgs === 'all' || info.listArgs.includes(index);
}
