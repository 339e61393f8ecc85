import { NEW_ACTIVITY_DEFAULTS } from '@tritium/shared/workflow/index';
import { roleNamed } from '../org/role-by-name.ts';
import { approveAsBuilder, c, dayOf, designFlow, designForm, designViews, newApp, newBoard, newForm, submitRecord, type TemplateBuilder } from './build-kit.ts';

// 行政采购: a purchase request approved by the department manager; from 5,000 yuan on, a countersign of the roles
// 行政主管 and 财务主管 follows (each made when the organisation has none; every one of their members must agree).
// A list and a dashboard (docs/decisions/0132).

export const PURCHASE_CATEGORIES = ['办公用品', '电子设备', '办公家具', '耗材', '劳保用品', '其他'];
/** From this total on, a request goes to the countersign. */
export const COUNTERSIGN_FROM = 5000;

type Line = { item: string; spec: string; qty: number; price: number };
/** The sample requests: category, lines, days until wanted, and whether they were approved. */
export const PURCHASE_SAMPLES: { title: string; category: string; lines: Line[]; due: number; approved: boolean }[] = [
  { title: '行政部日常办公用品', category: '办公用品', due: -25, approved: true, lines: [
    { item: 'A4 复印纸', spec: '70g 500张/包', qty: 40, price: 24.5 },
    { item: '中性笔', spec: '0.5mm 黑色 12支/盒', qty: 20, price: 18 },
  ] },
  { title: '新员工笔记本电脑', category: '电子设备', due: -20, approved: true, lines: [{ item: '笔记本电脑', spec: '14英寸 16G/512G', qty: 3, price: 5699 }] },
  { title: '会议室投影仪', category: '电子设备', due: -16, approved: true, lines: [{ item: '投影仪', spec: '4000流明 1080P', qty: 1, price: 3980 }] },
  { title: '研发部工位扩充', category: '办公家具', due: -12, approved: true, lines: [
    { item: '办公桌', spec: '1.4m 带抽屉', qty: 6, price: 860 },
    { item: '人体工学椅', spec: '网布 可调扶手', qty: 6, price: 699 },
  ] },
  { title: '打印机硒鼓', category: '耗材', due: -9, approved: true, lines: [{ item: '硒鼓', spec: '黑色 标准容量', qty: 8, price: 210 }] },
  { title: '仓库劳保手套', category: '劳保用品', due: -6, approved: true, lines: [{ item: '防滑手套', spec: '丁腈 12副/包', qty: 10, price: 35 }] },
  { title: '前台绿植租摆', category: '其他', due: -3, approved: true, lines: [{ item: '绿植租摆', spec: '月度服务', qty: 1, price: 600 }] },
  { title: '财务部文件柜', category: '办公家具', due: 5, approved: false, lines: [{ item: '文件柜', spec: '钢制 四门', qty: 2, price: 1150 }] },
  { title: '视频会议设备', category: '电子设备', due: 10, approved: false, lines: [
    { item: '会议摄像头', spec: '4K 广角', qty: 2, price: 2680 },
    { item: '全向麦克风', spec: '蓝牙/USB', qty: 2, price: 899 },
  ] },
  { title: '第四季度茶水间用品', category: '办公用品', due: 14, approved: false, lines: [{ item: '纸杯', spec: '250ml 1000只/箱', qty: 5, price: 96 }] },
];

/** A request's total: the lines' quantity × unit price, summed. */
export const purchaseTotal = (s: { lines: Line[] }) => Math.round(s.lines.reduce((sum, l) => sum + l.qty * l.price, 0) * 100) / 100;

export const buildPurchase: TemplateBuilder = async (ctx) => {
  const appCode = await newApp(ctx, { name: '行政采购', icon: 'cart', iconColor: '#722ed1', summary: '提交采购申请，部门主管审批；金额达到 5000 元时由行政主管与财务主管会签' });
  const request = await newForm(ctx, appCode, '采购申请', true);
  await designForm(ctx, request, {
    name: '采购申请',
    nameSchema: '{Title}',
    submitRules: [{ condition: 'OR(ISNULL({Total}),{Total}<=0)', message: '请填写采购明细，合计金额须大于 0' }],
    controls: [
      c.text('Title', '采购事由', { required: true }),
      c.choice('Category', '采购类别', PURCHASE_CATEGORIES, { required: true }),
      c.department('Department', '申请部门', { defaultValue: 'currentDepartment' }),
      c.date('NeededBy', '期望到货日期'),
      c.grid('Lines', '采购明细', [
        c.text('Item', '物品名称', { required: true }),
        c.text('Spec', '规格型号'),
        c.number('Qty', '数量', { required: true }),
        c.money('Price', '单价'),
        c.formula('Amount', '金额', '{Lines.Qty}*{Lines.Price}', { decimalPlaces: 2 }),
      ]),
      c.rollup('Total', '合计金额', { rollupType: 'sum', sourceCode: 'Lines', sourceField: 'Amount', decimalPlaces: 2 }),
      c.area('Purpose', '用途说明'),
      c.file('Quotes', '报价单'),
    ],
  });
  await designViews(ctx, request, [
    { title: '全部申请', columns: [{ field: 'Name' }, { field: 'Category' }, { field: 'Department' }, { field: 'Total' }, { field: 'NeededBy' }, { field: 'CreatedBy' }, { field: 'Status' }], stats: [{ field: 'Total', type: 'sum' }] },
  ]);
  const approve = { ...NEW_ACTIVITY_DEFAULTS.Approve };
  await designFlow(ctx, request, {
    activities: [
      { type: 'Start', code: 'Start', name: '提交申请' },
      { type: 'Approve', code: 'ManagerApprove', name: '部门主管审批', participants: { sources: [{ type: 'originatorManager', levels: 1 }] }, ...approve },
      { type: 'Condition', code: 'ByAmount', name: '按金额' },
      {
        type: 'Approve',
        code: 'Countersign',
        name: '行政与财务会签',
        participants: { sources: [{ type: 'roles', ids: [await roleNamed(ctx, '行政主管'), await roleNamed(ctx, '财务主管')] }] },
        participateMethod: 'parallel',
        approveExit: { type: 'percentage', value: 100 },
        ...approve,
      },
      { type: 'End', code: 'End', name: '结束' },
    ],
    routes: [
      { from: 'Start', to: 'ManagerApprove' },
      { from: 'ManagerApprove', to: 'ByAmount' },
      { from: 'ByAmount', to: 'Countersign', condition: { match: 'all', rules: [{ field: 'Total', operator: 'gte', value: COUNTERSIGN_FROM }] } },
      { from: 'ByAmount', to: 'End', isElse: true },
      { from: 'Countersign', to: 'End' },
    ],
  });
  const source = { schemaCode: request };
  const money = { decimals: 2, thousands: true, percent: false, unit: '元' };
  const board = await newBoard(ctx, appCode, '采购统计', [
    { type: 'number', title: '已批准采购总额', source, dimensions: [], measures: [{ aggregate: 'sum', field: 'Total', format: money }] },
    { type: 'number', title: '审批中的申请', source, dimensions: [], measures: [{ aggregate: 'count' }], filter: { field: 'Status', operator: 'Equal', value: 2 } },
    { type: 'bar', title: '已批准采购金额（按类别）', source, dimensions: [{ field: 'Category' }], measures: [{ aggregate: 'sum', field: 'Total', format: money }] },
    { type: 'pie', title: '采购申请数（按类别）', source, dimensions: [{ field: 'Category' }], measures: [{ aggregate: 'count' }], filter: { field: 'Status', operator: 'In', value: [1, 2] } },
  ]);
  for (const s of PURCHASE_SAMPLES) {
    const lines = s.lines.map((l) => ({ Item: l.item, Spec: l.spec, Qty: l.qty, Price: l.price }));
    const id = await submitRecord(ctx, request, { Title: s.title, Category: s.category, NeededBy: dayOf(ctx, s.due), Purpose: `${s.category}采购：${s.title}` }, { Lines: lines });
    if (s.approved) await approveAsBuilder(ctx, request, id);
  }
  return { appCode, forms: { request }, boards: { request: board } };
};
