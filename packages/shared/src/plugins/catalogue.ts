/**
 * The plugin templates the platform ships (issue 44, docs/decisions/0123): what each offers and the settings an
 * administrator fills in when installing it. One instance per template per engine (its code is the template's);
 * plugins an engine authors are templates of kind `custom`. Secret settings are sealed on the server and only ever
 * answered as "set" or "not set".
 */
import type { PluginKind } from '../constants/messages.ts';

export type PluginSettingKind = 'text' | 'url' | 'secret' | 'select' | 'number' | 'textarea';

export interface PluginSettingField {
  key: string;
  label: { 'zh-CN': string; 'en-US': string };
  kind: PluginSettingKind;
  required: boolean;
  /** For `select`: the values and their labels. */
  choices?: readonly { value: string; label: { 'zh-CN': string; 'en-US': string } }[];
  placeholder?: string;
}

/** What installing the template adds to the platform. */
export interface PluginOffers {
  /** The control types (registry keys) whose "服务未配置" this plugin lifts. */
  controls: readonly string[];
  /** Automation steps it makes available. */
  automationActions: readonly ('attendance' | 'payment' | 'connector')[];
  /** Methods /v2/plugin/invoke accepts for it. */
  methods: readonly string[];
  /** Where its settings are edited when not on the plugin page itself (the notification channels' page, say). */
  settingsPage?: string;
}

export interface PluginTemplate {
  code: string;
  kind: PluginKind | 'connector';
  name: { 'zh-CN': string; 'en-US': string };
  description: { 'zh-CN': string; 'en-US': string };
  /** The provider the template speaks to (shown under the name). */
  provider?: string;
  settings: readonly PluginSettingField[];
  offers: PluginOffers;
  /** Shown instead of the install button while the template cannot be installed yet. */
  unavailableReason?: { 'zh-CN': string; 'en-US': string };
}

const l = (zh: string, en: string) => ({ 'zh-CN': zh, 'en-US': en });
const field = (key: string, zh: string, en: string, kind: PluginSettingKind, required = true, extra: Partial<PluginSettingField> = {}): PluginSettingField => ({
  key,
  label: l(zh, en),
  kind,
  required,
  ...extra,
});
const CHAT_PLATFORM = field('platform', '平台', 'Platform', 'select', true, {
  choices: [
    { value: 'dingtalk', label: l('钉钉', 'DingTalk') },
    { value: 'wxwork', label: l('企业微信', 'WeCom') },
  ],
});

export const PLUGIN_TEMPLATES = [
  {
    code: 'connector',
    kind: 'connector',
    name: l('连接器', 'Connectors'),
    description: l('连接 ERP、CRM 等外部系统：连接配置、连接器、高级按钮、自动化连接器步骤和连接器触发。', 'Reach outside systems such as an ERP or CRM: connections, connectors, the advanced button, the automation connector step and trigger.'),
    settings: [],
    offers: { controls: ['advancedButton'], automationActions: ['connector'], methods: ['call'], settingsPage: '/admin/connectors' },
  },
  {
    code: 'sms',
    kind: 'sms',
    name: l('短信', 'SMS'),
    description: l('通过短信发送待办、催办和通知。', 'Send to-dos, urges and notices as text messages.'),
    settings: [],
    offers: { controls: [], automationActions: [], methods: [], settingsPage: '/admin/notification-channels' },
  },
  {
    code: 'email',
    kind: 'email',
    name: l('邮件', 'E-mail'),
    description: l('通过邮件发送待办、催办和通知。', 'Send to-dos, urges and notices by e-mail.'),
    settings: [],
    offers: { controls: [], automationActions: [], methods: [], settingsPage: '/admin/notification-channels' },
  },
  {
    code: 'robot',
    kind: 'robotMessage',
    name: l('机器人消息', 'Robot messages'),
    description: l('向钉钉、企业微信、飞书群机器人发送消息。', 'Post messages to DingTalk, WeCom and Feishu group robots.'),
    settings: [],
    offers: { controls: [], automationActions: [], methods: [], settingsPage: '/admin/notification-channels' },
  },
  {
    code: 'ocr',
    kind: 'ocr',
    name: l('OCR识别', 'OCR'),
    provider: 'PaddleOCR',
    description: l('在本机识别发票、身份证、营业执照等图片中的文字（不需联网），按识别模板填入表单。', 'Read invoices, ID cards and licences from pictures on this machine (no network) into a form by recognition templates.'),
    settings: [],
    offers: { controls: ['ocr'], automationActions: [], methods: ['recognize'] },
  },
  {
    code: 'esign-tsign',
    kind: 'eSign',
    provider: 'e签宝',
    name: l('电子签章（e签宝）', 'E-sign (tsign)'),
    description: l('把打印模板生成的 PDF 依次发给签署人签署，签署完成后的文件存回记录。', 'Send a print template\'s PDF to signers in order; the signed file returns to the record.'),
    settings: [
      field('baseUrl', '接口地址', 'API address', 'url', true, { placeholder: 'https://openapi.esign.cn' }),
      field('appId', 'App ID', 'App ID', 'text'),
      field('appSecret', 'App Secret', 'App Secret', 'secret'),
    ],
    offers: { controls: ['eSign'], automationActions: [], methods: ['startFlow', 'flowStatus', 'revokeFlow'] },
  },
  {
    code: 'esign-fdd',
    kind: 'eSign',
    provider: '法大大',
    name: l('电子签章（法大大）', 'E-sign (fadada)'),
    description: l('把打印模板生成的 PDF 依次发给签署人签署，签署完成后的文件存回记录。', 'Send a print template\'s PDF to signers in order; the signed file returns to the record.'),
    settings: [
      field('baseUrl', '接口地址', 'API address', 'url', true, { placeholder: 'https://api.fadada.com/api/v5/' }),
      field('appId', 'App ID', 'App ID', 'text'),
      field('appSecret', 'App Secret', 'App Secret', 'secret'),
    ],
    offers: { controls: ['eSign'], automationActions: [], methods: ['startFlow', 'flowStatus', 'revokeFlow'] },
  },
  {
    code: 'payment',
    kind: 'payment',
    provider: '支付宝',
    name: l('在线支付', 'Payment'),
    description: l('为记录生成付款二维码，收款、查询、关闭和退款，支付结果写回记录。', 'Show a QR code to pay for a record; query, close and refund; the result lands on the record.'),
    settings: [
      field('gatewayUrl', '网关地址', 'Gateway address', 'url', true, { placeholder: 'https://openapi.alipay.com/gateway.do' }),
      field('appId', 'App ID', 'App ID', 'text'),
      field('privateKey', '应用私钥（PEM）', 'App private key (PEM)', 'secret'),
      field('platformPublicKey', '支付宝公钥（PEM）', 'Provider public key (PEM)', 'textarea'),
    ],
    offers: { controls: ['plugin'], automationActions: ['payment'], methods: ['precreate', 'query', 'close', 'refund'] },
  },
  {
    code: 'face',
    kind: 'faceRecognition',
    provider: '腾讯云',
    name: l('人脸识别', 'Face recognition'),
    description: l('用手机拍照，与本人留存的照片比对，记录结果和相似度。', 'Take a photo on the phone and compare it with the person\'s stored photo; the result and score are kept.'),
    settings: [
      field('endpoint', '接口地址', 'API address', 'url', true, { placeholder: 'https://iai.tencentcloudapi.com' }),
      field('region', '地域', 'Region', 'text', true, { placeholder: 'ap-guangzhou' }),
      field('secretId', 'SecretId', 'SecretId', 'text'),
      field('secretKey', 'SecretKey', 'SecretKey', 'secret'),
      field('threshold', '通过分数（0-100）', 'Pass score (0-100)', 'number', false, { placeholder: '80' }),
    ],
    offers: { controls: ['faceRecognition'], automationActions: [], methods: ['compare'] },
  },
  {
    code: 'attendance',
    kind: 'attendance',
    name: l('考勤', 'Attendance'),
    description: l('自动化按日期范围从钉钉或企业微信读取打卡记录，写入表单。', 'An automation reads punch records from DingTalk or WeCom for a date range into a form.'),
    settings: [CHAT_PLATFORM],
    offers: { controls: [], automationActions: ['attendance'], methods: ['punches'] },
  },
] as const satisfies readonly PluginTemplate[];

export type PluginTemplateCode = (typeof PLUGIN_TEMPLATES)[number]['code'];

export const PLUGIN_TEMPLATE_CODES = PLUGIN_TEMPLATES.map((t) => t.code) as readonly PluginTemplateCode[];

export function pluginTemplate(code: string): PluginTemplate | undefined {
  return (PLUGIN_TEMPLATES as readonly PluginTemplate[]).find((t) => t.code === code);
}

/** The template an installed plugin of this kind comes from, for a control's service (first installed wins). */
export const SERVICE_PLUGINS: Readonly<Record<string, readonly PluginTemplateCode[]>> = {
  eSign: ['esign-tsign', 'esign-fdd'],
  faceRecognition: ['face'],
  ocr: ['ocr'],
  advancedButton: ['connector'],
};
