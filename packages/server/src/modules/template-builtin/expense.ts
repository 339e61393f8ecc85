import { NEW_ACTIVITY_DEFAULTS } from '@tritium/shared/workflow/index';
import { roleNamed } from '../org/role-by-name.ts';
import { approveAsBuilder, c, dayOf, designFlow, designForm, designViews, newApp, newBoard, newForm, submitRecord, type TemplateBuilder } from './build-kit.ts';

// 费用报销: an expense claim with a sub-table of items summed by a rollup, approved by the department manager and then
// by the role 财务 (made when the organisation has none); a dashboard of sums by category (docs/decisions/0132).

export const EXPENSE_CATEGORIES = ['差旅费', '交通费', '餐饮费', '住宿费', '办公费', '通讯费', '招待费', '其他'];

type Item = { category: string; day: number; amount: number; note: string };
/** The sample claims: title, items, and whether the claim was approved. */
export const EXPENSE_SAMPLES: { title: string; items: Item[]; approved: boolean }[] = [
  { title: '上海客户拜访差旅', approved: true, items: [
    { category: '差旅费', day: -30, amount: 553, note: '高铁往返 北京—上海' },
    { category: '住宿费', day: -30, amount: 860, note: '酒店两晚' },
    { category: '餐饮费', day: -29, amount: 126.5, note: '出差餐补' },
  ] },
  { title: '九月市内交通', approved: true, items: [
    { category: '交通费', day: -27, amount: 48, note: '打车去客户现场' },
    { category: '交通费', day: -24, amount: 36.5, note: '打车回公司' },
  ] },
  { title: '部门办公用品', approved: true, items: [{ category: '办公费', day: -22, amount: 312.8, note: '打印纸、文件夹、签字笔' }] },
  { title: '客户接待晚餐', approved: true, items: [{ category: '招待费', day: -20, amount: 1280, note: '接待合作方一行五人' }] },
  { title: '九月话费补贴', approved: true, items: [{ category: '通讯费', day: -18, amount: 150, note: '手机话费' }] },
  { title: '深圳展会出差', approved: true, items: [
    { category: '差旅费', day: -15, amount: 1640, note: '机票往返 北京—深圳' },
    { category: '住宿费', day: -15, amount: 1350, note: '酒店三晚' },
    { category: '交通费', day: -14, amount: 95, note: '机场大巴与地铁' },
  ] },
  { title: '团队加班餐', approved: true, items: [{ category: '餐饮费', day: -11, amount: 268, note: '版本上线加班晚餐' }] },
  { title: '培训资料打印', approved: true, items: [{ category: '办公费', day: -8, amount: 85, note: '新员工培训资料' }] },
  { title: '广州客户回访', approved: false, items: [
    { category: '差旅费', day: -5, amount: 1120, note: '高铁往返 北京—广州' },
    { category: '住宿费', day: -5, amount: 520, note: '酒店一晚' },
  ] },
  { title: '快递费用', approved: false, items: [{ category: '其他', day: -2, amount: 64, note: '寄送合同' }] },
];

/** A claim's total as its rollup sums it. */
export const claimTotal = (claim: { items: { amount: number }[] }) => Math.round(claim.items.reduce((s, i) => s + i.amount, 0) * 100) / 100;

export const buildExpense: TemplateBuilder = async (ctx) => {
  const appCode = await newApp(ctx, { name: '费用报销', icon: 'dollar', iconColor: '#fa8c16', summary: '按明细填写报销单，自动合计金额，经部门主管与财务审批，按费用类别统计' });
  const claim = await newForm(ctx, appCode, '报销单', true);
  await designForm(ctx, claim, {
    name: '报销单',
    nameSchema: '{Title}',
    submitRules: [{ condition: 'OR(ISNULL({Total}),{Total}<=0)', message: '请填写费用明细，报销总额须大于 0' }],
    controls: [
      c.text('Title', '报销事由', { required: true }),
      c.department('Department', '报销部门', { defaultValue: 'currentDepartment' }),
      c.date('ClaimDate', '报销日期', { defaultValue: 'now' }),
      c.grid('Items', '费用明细', [
        c.choice('Category', '费用类别', EXPENSE_CATEGORIES, { required: true }),
        c.date('SpentOn', '发生日期'),
        c.money('Amount', '金额', { required: true }),
        c.text('Note', '说明'),
      ]),
      c.rollup('Total', '报销总额', { rollupType: 'sum', sourceCode: 'Items', sourceField: 'Amount', decimalPlaces: 2 }),
      c.text('Payee', '收款账户'),
      c.file('Receipts', '发票与凭证'),
    ],
  });
  await designViews(ctx, claim, [
    { title: '全部报销', columns: [{ field: 'Name' }, { field: 'Department' }, { field: 'ClaimDate' }, { field: 'Total' }, { field: 'CreatedBy' }, { field: 'Status' }], stats: [{ field: 'Total', type: 'sum' }] },
  ]);
  await designFlow(ctx, claim, {
    activities: [
      { type: 'Start', code: 'Start', name: '提交报销' },
      { type: 'Approve', code: 'ManagerApprove', name: '部门主管审批', participants: { sources: [{ type: 'originatorManager', levels: 1 }] }, ...NEW_ACTIVITY_DEFAULTS.Approve },
      { type: 'Approve', code: 'FinanceApprove', name: '财务审核', participants: { sources: [{ type: 'roles', ids: [await roleNamed(ctx, '财务')] }] }, ...NEW_ACTIVITY_DEFAULTS.Approve, approveExit: { type: 'count', value: 1 } },
      { type: 'End', code: 'End', name: '结束' },
    ],
    routes: [
      { from: 'Start', to: 'ManagerApprove' },
      { from: 'ManagerApprove', to: 'FinanceApprove' },
      { from: 'FinanceApprove', to: 'End' },
    ],
  });
  const items = { schemaCode: claim, gridCode: 'Items' };
  const money = { decimals: 2, thousands: true, percent: false, unit: '元' };
  const board = await newBoard(ctx, appCode, '费用统计', [
    { type: 'number', title: '已报销总额', source: { schemaCode: claim }, dimensions: [], measures: [{ aggregate: 'sum', field: 'Total', format: money }] },
    { type: 'number', title: '审批中的报销单', source: { schemaCode: claim }, dimensions: [], measures: [{ aggregate: 'count' }], filter: { field: 'Status', operator: 'Equal', value: 2 } },
    { type: 'pie', title: '已报销金额（按费用类别）', source: items, dimensions: [{ field: 'Items.Category' }], measures: [{ aggregate: 'sum', field: 'Items.Amount', format: money }] },
    { type: 'bar', title: '报销金额（按月份）', source: { schemaCode: claim }, dimensions: [{ field: 'ClaimDate', dateGroup: 'month' }], measures: [{ aggregate: 'sum', field: 'Total', format: money }] },
  ]);
  for (const s of EXPENSE_SAMPLES) {
    const rows = s.items.map((i) => ({ Category: i.category, SpentOn: dayOf(ctx, i.day), Amount: i.amount, Note: i.note }));
    const last = Math.max(...s.items.map((i) => i.day));
    const id = await submitRecord(ctx, claim, { Title: s.title, ClaimDate: dayOf(ctx, last + 1), Payee: '招商银行 6225 **** 0826' }, { Items: rows });
    if (s.approved) await approveAsBuilder(ctx, claim, id);
  }
  return { appCode, forms: { claim }, boards: { claim: board } };
};
