import type { contracts } from '@tritium/shared';

// The recognition templates every engine has (docs/decisions/0125): read-only, always listed before the engine's own,
// in the same rule format a custom template uses (labels, a pattern, lengths), so one matcher reads them all.

type Field = contracts.RecognitionField;

const DATE = '\\d{4}\\s*年\\s*\\d{1,2}\\s*月\\s*\\d{1,2}\\s*日|\\d{4}[-/.]\\d{1,2}[-/.]\\d{1,2}';
const MONEY = '\\d+(?:,\\d{3})*(?:\\.\\d{1,2})?';
const CHINESE = '[\\u4e00-\\u9fa5]';

const f = (code: string, name: string, anchors: string[], pattern: string | null = null, extra: Partial<Field> = {}): Field => ({
  code,
  name,
  anchors,
  direction: 'any',
  pattern,
  minLength: null,
  maxLength: null,
  ...extra,
});

export const BUILTIN_TEMPLATES: readonly contracts.RecognitionTemplateDto[] = [
  {
    templateCode: 'vatInvoice',
    name: '增值税发票',
    description: '增值税专用发票、普通发票的代码、号码、日期、购买方、金额与税额',
    mode: 'rules',
    builtIn: true,
    modifiedTime: null,
    fields: [
      f('invoiceCode', '发票代码', ['发票代码'], '\\d{10,12}'),
      f('invoiceNumber', '发票号码', ['发票号码'], '\\d{8,20}'),
      f('issueDate', '开票日期', ['开票日期'], DATE),
      f('buyerName', '购买方名称', ['购买方名称', '购方名称'], null, { minLength: 2, maxLength: 100 }),
      f('buyerTaxId', '纳税人识别号', ['纳税人识别号', '统一社会信用代码'], '[0-9A-Z]{15,20}'),
      f('sellerName', '销售方名称', ['销售方名称', '销方名称'], null, { minLength: 2, maxLength: 100 }),
      f('amount', '金额', ['合计金额', '金额'], MONEY),
      f('taxAmount', '税额', ['合计税额', '税额'], MONEY),
      f('totalAmount', '价税合计', ['（小写）', '(小写)', '小写', '价税合计'], MONEY),
    ],
  },
  {
    templateCode: 'idCard',
    name: '居民身份证',
    description: '居民身份证人像面的姓名、性别、民族、出生、住址和公民身份号码',
    mode: 'rules',
    builtIn: true,
    modifiedTime: null,
    fields: [
      f('name', '姓名', ['姓名'], `${CHINESE}{2,10}|[A-Za-z·. ]{2,40}`),
      f('gender', '性别', ['性别'], '男|女'),
      f('ethnicity', '民族', ['民族'], `${CHINESE}{1,6}`),
      f('birthDate', '出生', ['出生'], DATE),
      f('address', '住址', ['住址'], null, { minLength: 4, maxLength: 100 }),
      f('idNumber', '公民身份号码', [], '\\d{17}[\\dXx]'),
    ],
  },
  {
    templateCode: 'businessLicense',
    name: '营业执照',
    description: '营业执照的统一社会信用代码、名称、类型、法定代表人、注册资本、成立日期和住所',
    mode: 'rules',
    builtIn: true,
    modifiedTime: null,
    fields: [
      f('creditCode', '统一社会信用代码', ['统一社会信用代码'], '[0-9A-HJ-NPQRTUWXY]{18}'),
      f('companyName', '名称', ['名称'], null, { minLength: 2, maxLength: 100 }),
      f('companyType', '类型', ['类型'], null, { maxLength: 60 }),
      f('legalRepresentative', '法定代表人', ['法定代表人', '负责人', '经营者'], `${CHINESE}{2,10}|[A-Za-z·. ]{2,40}`),
      f('registeredCapital', '注册资本', ['注册资本'], null, { maxLength: 40 }),
      f('establishedDate', '成立日期', ['成立日期', '注册日期'], DATE),
      f('businessTerm', '营业期限', ['营业期限'], null, { maxLength: 60 }),
      f('address', '住所', ['住所', '经营场所'], null, { minLength: 4, maxLength: 100 }),
    ],
  },
  {
    templateCode: 'bankCard',
    name: '银行卡',
    description: '银行卡的卡号、发卡银行和有效期',
    mode: 'rules',
    builtIn: true,
    modifiedTime: null,
    fields: [
      f('cardNumber', '卡号', [], '(?:\\d[ ]?){15,18}\\d'),
      f('bankName', '银行', [], `${CHINESE}{2,12}银行`),
      f('validThru', '有效期', ['有效期', 'VALID THRU', 'VALIDTHRU'], '\\d{2}\\s*/\\s*\\d{2,4}'),
    ],
  },
];

export const builtinTemplate = (code: string) => BUILTIN_TEMPLATES.find((t) => t.templateCode === code);
