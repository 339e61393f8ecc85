import { c, dayOf, designForm, designViews, newApp, newBoard, newForm, submitRecord, type TemplateBuilder } from './build-kit.ts';

// 客户管理: customers, their contacts, follow-ups and opportunities (each associated to a customer); the customer rolls
// up its follow-ups and the amount of its open and won opportunities; a sales dashboard. Whose a record is, is the
// record's owner (拥有者, the system field a list shows and an owner change moves), not a field of its own: it is
// what travels with the sample data when the app is packaged (docs/decisions/0132).

export const STAGES = ['初步接洽', '需求确认', '方案报价', '商务谈判', '赢单', '输单'];
const CLOSED = ['赢单', '输单'];

export const CUSTOMERS = [
  { name: '北京云启科技有限公司', industry: '互联网', level: 'A 重点客户', source: '展会', city: '北京', phone: '010-62851234' },
  { name: '上海恒信精密制造有限公司', industry: '制造业', level: 'A 重点客户', source: '老客户介绍', city: '上海', phone: '021-58961122' },
  { name: '杭州禾丰连锁超市', industry: '零售', level: 'B 普通客户', source: '官网咨询', city: '杭州', phone: '0571-87213456' },
  { name: '深圳前海汇通金融服务有限公司', industry: '金融', level: 'B 普通客户', source: '电话营销', city: '深圳', phone: '0755-26639870' },
  { name: '成都启明教育科技有限公司', industry: '教育', level: 'C 潜在客户', source: '官网咨询', city: '成都', phone: '028-85527788' },
  { name: '武汉康宁医疗器械有限公司', industry: '医疗', level: 'B 普通客户', source: '合作伙伴', city: '武汉', phone: '027-87651230' },
  { name: '南京青禾物流有限公司', industry: '其他', level: 'C 潜在客户', source: '展会', city: '南京', phone: '025-84456601' },
  { name: '广州美佳日化有限公司', industry: '制造业', level: 'A 重点客户', source: '老客户介绍', city: '广州', phone: '020-38825566' },
];

/** Contacts: the customer's index, name, title, mobile. */
export const CONTACTS: [number, string, string, string][] = [
  [0, '张伟', '信息部总监', '13810021234'], [0, '李娜', '采购经理', '13910035678'], [1, '王强', '生产副总', '13611102345'],
  [1, '赵敏', 'IT主管', '13761209876'], [2, '陈静', '运营总监', '13588806543'], [3, '刘洋', '科技部经理', '13802317788'],
  [4, '周婷', '校长助理', '13980012266'], [5, '吴磊', '总经理', '13907125599'], [6, '郑凯', '信息化负责人', '13951703322'],
  [7, '孙丽', '市场总监', '13922108899'], [7, '何军', '采购专员', '13711456677'],
];

/** Follow-ups: the customer's index, days from the install day, method, what was said. */
export const FOLLOW_UPS: [number, number, string, string][] = [
  [0, -45, '拜访', '上门演示产品，对方关注权限与审批流程'], [0, -30, '会议', '与信息部一起梳理需求清单'], [0, -12, '电话', '确认报价单细节，约下周商务沟通'],
  [1, -40, '电话', '初次联系，介绍生产管理方案'], [1, -20, '拜访', '参观车间，了解报工流程'], [2, -35, '微信', '发送门店巡检案例资料'],
  [2, -8, '电话', '对方内部评估中，两周后回复'], [3, -25, '邮件', '发送安全合规说明材料'], [4, -18, '电话', '了解教务管理现状，暂无预算'],
  [5, -15, '拜访', '演示设备维修工单流程'], [5, -3, '会议', '商务谈判，讨论付款方式'], [6, -10, '微信', '推荐物流调度案例'],
  [7, -28, '拜访', '对接市场部活动报名需求'], [7, -6, '电话', '合同条款确认，准备签约'],
];

/** Opportunities: the customer's index, title, amount, stage, expected close (days from the install day). */
export const OPPORTUNITIES: [number, string, number, string, number][] = [
  [0, '云启科技 OA 审批平台', 180000, '方案报价', 20], [0, '云启科技 费用报销模块', 45000, '赢单', -10],
  [1, '恒信制造 生产报工系统', 260000, '需求确认', 45], [1, '恒信制造 设备巡检', 68000, '初步接洽', 60],
  [2, '禾丰超市 门店巡检', 96000, '商务谈判', 15], [3, '汇通金融 合同管理', 150000, '方案报价', 30],
  [4, '启明教育 教务管理', 52000, '输单', -5], [5, '康宁医疗 售后工单', 120000, '商务谈判', 10],
  [6, '青禾物流 调度看板', 38000, '初步接洽', 50], [7, '美佳日化 市场活动管理', 88000, '赢单', -2],
];

export const buildCrm: TemplateBuilder = async (ctx) => {
  const appCode = await newApp(ctx, { name: '客户管理', icon: 'team', iconColor: '#1f6fff', summary: '管理客户、联系人、跟进记录与销售商机，销售看板按阶段与负责人统计' });
  const customer = await newForm(ctx, appCode, '客户');
  const contact = await newForm(ctx, appCode, '联系人');
  const followUp = await newForm(ctx, appCode, '跟进记录');
  const opportunity = await newForm(ctx, appCode, '商机');
  const customerControls = [
    c.text('CustomerName', '客户名称', { required: true, noRepeat: true }),
    c.choice('Industry', '所属行业', ['互联网', '制造业', '零售', '金融', '教育', '医疗', '其他']),
    c.radio('Level', '客户等级', ['A 重点客户', 'B 普通客户', 'C 潜在客户']),
    c.choice('Source', '客户来源', ['官网咨询', '展会', '老客户介绍', '电话营销', '合作伙伴']),
    c.text('City', '所在城市'),
    c.text('Phone', '联系电话'),
  ];
  await designForm(ctx, customer, { name: '客户', nameSchema: '{CustomerName}', controls: customerControls });
  await designForm(ctx, contact, {
    name: '联系人',
    nameSchema: '{ContactName}',
    controls: [c.text('ContactName', '姓名', { required: true }), c.link('Customer', '所属客户', customer, { required: true }), c.text('JobTitle', '职务'), c.text('Mobile', '手机'), c.text('Email', '邮箱')],
  });
  await designForm(ctx, followUp, {
    name: '跟进记录',
    controls: [
      c.link('Customer', '客户', customer, { required: true }),
      c.date('FollowTime', '跟进时间', { defaultValue: 'now' }),
      c.choice('Method', '跟进方式', ['电话', '拜访', '微信', '邮件', '会议']),
      c.area('Content', '跟进内容', { required: true }),
      c.date('NextTime', '下次跟进'),
    ],
  });
  await designForm(ctx, opportunity, {
    name: '商机',
    nameSchema: '{Title}',
    controls: [
      c.text('Title', '商机名称', { required: true }),
      c.link('Customer', '客户', customer, { required: true }),
      c.money('Amount', '预计金额', { required: true }),
      c.choice('Stage', '销售阶段', STAGES, { required: true }),
      c.date('CloseDate', '预计成交日期'),
    ],
  });
  // The customer again, now with the rollups over the forms made after it.
  await designForm(ctx, customer, {
    name: '客户',
    nameSchema: '{CustomerName}',
    controls: [
      ...customerControls,
      c.rollup('FollowUps', '跟进次数', { rollupType: 'count', sourceSchemaCode: followUp, sourceCode: 'Customer', decimalPlaces: 0 }),
      c.rollup('OpenAmount', '进行中商机金额', { rollupType: 'sum', sourceSchemaCode: opportunity, sourceCode: 'Customer', sourceField: 'Amount', filter: `AND({Stage}<>"赢单",{Stage}<>"输单")`, decimalPlaces: 2 }),
      c.rollup('WonAmount', '已成交金额', { rollupType: 'sum', sourceSchemaCode: opportunity, sourceCode: 'Customer', sourceField: 'Amount', filter: '{Stage}="赢单"', decimalPlaces: 2 }),
    ],
  });
  await designViews(ctx, customer, [{ title: '全部客户', columns: ['CustomerName', 'Industry', 'Level', 'City', 'OwnerId', 'FollowUps', 'OpenAmount', 'WonAmount'].map((field) => ({ field })) }]);
  await designViews(ctx, opportunity, [{ title: '全部商机', columns: ['Title', 'Customer', 'Amount', 'Stage', 'CloseDate', 'OwnerId'].map((field) => ({ field })), stats: [{ field: 'Amount', type: 'sum' }] }]);
  const opp = { schemaCode: opportunity };
  const money = { decimals: 0, thousands: true, percent: false, unit: '元' };
  const board = await newBoard(ctx, appCode, '销售看板', [
    { type: 'number', title: '进行中商机总额', source: opp, dimensions: [], measures: [{ aggregate: 'sum', field: 'Amount', format: money }], filter: { field: 'Stage', operator: 'NotIn', value: CLOSED } },
    { type: 'number', title: '已成交金额', source: opp, dimensions: [], measures: [{ aggregate: 'sum', field: 'Amount', format: money }], filter: { field: 'Stage', operator: 'Equal', value: '赢单' } },
    { type: 'bar', title: '商机金额（按阶段）', source: opp, dimensions: [{ field: 'Stage' }], measures: [{ aggregate: 'sum', field: 'Amount', format: money }], wide: true },
    { type: 'pie', title: '商机数（按负责人）', source: opp, dimensions: [{ field: 'OwnerId', label: '负责人' }], measures: [{ aggregate: 'count' }] },
    { type: 'bar', title: '跟进次数（按方式）', source: { schemaCode: followUp }, dimensions: [{ field: 'Method' }], measures: [{ aggregate: 'count' }] },
  ]);
  const ids: string[] = [];
  for (const s of CUSTOMERS) ids.push(await submitRecord(ctx, customer, { CustomerName: s.name, Industry: s.industry, Level: s.level, Source: s.source, City: s.city, Phone: s.phone }));
  for (const [i, name, title, mobile] of CONTACTS) await submitRecord(ctx, contact, { ContactName: name, Customer: ids[i], JobTitle: title, Mobile: mobile });
  for (const [i, days, method, content] of FOLLOW_UPS) await submitRecord(ctx, followUp, { Customer: ids[i], FollowTime: dayOf(ctx, days), Method: method, Content: content });
  for (const [i, title, amount, stage, close] of OPPORTUNITIES) await submitRecord(ctx, opportunity, { Title: title, Customer: ids[i], Amount: amount, Stage: stage, CloseDate: dayOf(ctx, close) });
  return { appCode, forms: { customer, contact, followUp, opportunity }, boards: { sales: board } };
};
