import { NEW_ACTIVITY_DEFAULTS } from '@tritium/shared/workflow/index';
import { approveAsBuilder, c, dayOf, designFlow, designForm, designViews, newApp, newBoard, newForm, submitRecord, type TemplateBuilder } from './build-kit.ts';

// 请假审批: a leave request whose days a formula counts, approved by the applicant's department manager; a list and a
// dashboard by leave type (docs/decisions/0132).

export const LEAVE_TYPES = ['年假', '事假', '病假', '调休', '婚假', '产假'];

/** The sample requests: type, first day and last day (from the install day), reason, and whether it was approved. */
export const LEAVE_SAMPLES: { type: string; from: number; to: number; reason: string; approved: boolean }[] = [
  { type: '年假', from: -40, to: -36, reason: '春节前后回老家探亲', approved: true },
  { type: '事假', from: -33, to: -33, reason: '办理房屋过户手续', approved: true },
  { type: '病假', from: -29, to: -28, reason: '重感冒发烧，医院开具病假条', approved: true },
  { type: '调休', from: -25, to: -25, reason: '上月周末加班调休', approved: true },
  { type: '年假', from: -21, to: -19, reason: '带孩子外出旅行', approved: true },
  { type: '婚假', from: -18, to: -9, reason: '本人结婚', approved: true },
  { type: '事假', from: -14, to: -13, reason: '陪同父母到医院复查', approved: true },
  { type: '病假', from: -7, to: -7, reason: '牙科手术后休息', approved: true },
  { type: '调休', from: -4, to: -4, reason: '项目上线期间加班调休', approved: true },
  { type: '年假', from: 3, to: 7, reason: '国庆后错峰出游', approved: false },
  { type: '事假', from: 5, to: 5, reason: '孩子学校家长会', approved: false },
  { type: '调休', from: 10, to: 11, reason: '双休日值班调休', approved: false },
];

/** Days of a request as the form's formula counts them: last day − first day + 1. */
export const leaveDays = (s: { from: number; to: number }) => s.to - s.from + 1;

export const buildLeave: TemplateBuilder = async (ctx) => {
  const appCode = await newApp(ctx, { name: '请假审批', icon: 'calendar', iconColor: '#13a8a8', summary: '员工在线提交请假申请，自动计算请假天数，由部门主管审批，并按请假类型统计' });
  const leave = await newForm(ctx, appCode, '请假申请', true);
  await designForm(ctx, leave, {
    name: '请假申请',
    nameSchema: '{LeaveType}-{StartDate}',
    submitRules: [{ condition: '{EndDate}<{StartDate}', message: '结束日期不能早于开始日期' }],
    controls: [
      c.choice('LeaveType', '请假类型', LEAVE_TYPES, { required: true }),
      c.date('StartDate', '开始日期', { required: true }),
      c.date('EndDate', '结束日期', { required: true }),
      c.formula('Days', '请假天数', 'DAYS({EndDate},{StartDate})+1', { decimalPlaces: 1 }),
      c.area('Reason', '请假事由', { required: true }),
      c.user('Handover', '工作交接人'),
      c.file('Attachment', '附件（病假条等）'),
    ],
  });
  await designViews(ctx, leave, [
    { title: '全部请假', columns: [{ field: 'Name' }, { field: 'LeaveType' }, { field: 'StartDate' }, { field: 'EndDate' }, { field: 'Days' }, { field: 'CreatedBy' }, { field: 'Status' }], sort: [{ field: 'StartDate', direction: 'desc' }] },
  ]);
  await designFlow(ctx, leave, {
    activities: [
      { type: 'Start', code: 'Start', name: '提交申请' },
      { type: 'Approve', code: 'ManagerApprove', name: '部门主管审批', participants: { sources: [{ type: 'originatorManager', levels: 1 }] }, ...NEW_ACTIVITY_DEFAULTS.Approve },
      { type: 'End', code: 'End', name: '结束' },
    ],
    routes: [
      { from: 'Start', to: 'ManagerApprove' },
      { from: 'ManagerApprove', to: 'End' },
    ],
  });
  const source = { schemaCode: leave };
  const days = { decimals: 1, thousands: true, percent: false, unit: '天' };
  const board = await newBoard(ctx, appCode, '请假统计', [
    { type: 'number', title: '已批准请假总天数', source, dimensions: [], measures: [{ aggregate: 'sum', field: 'Days', format: days }] },
    { type: 'number', title: '待审批', source, dimensions: [], measures: [{ aggregate: 'count' }], filter: { field: 'Status', operator: 'Equal', value: 2 } },
    { type: 'pie', title: '已批准请假天数（按类型）', source, dimensions: [{ field: 'LeaveType' }], measures: [{ aggregate: 'sum', field: 'Days', format: days }] },
    { type: 'bar', title: '请假申请数（按类型）', source, dimensions: [{ field: 'LeaveType' }], measures: [{ aggregate: 'count' }], filter: { field: 'Status', operator: 'In', value: [1, 2] } },
  ]);
  for (const s of LEAVE_SAMPLES) {
    const id = await submitRecord(ctx, leave, { LeaveType: s.type, StartDate: dayOf(ctx, s.from), EndDate: dayOf(ctx, s.to), Reason: s.reason });
    if (s.approved) await approveAsBuilder(ctx, leave, id);
  }
  return { appCode, forms: { leave }, boards: { leave: board } };
};
