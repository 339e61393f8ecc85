import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BizObjectStatus } from '@tritium/shared/constants/data-status';
import {
  approve, boardData, byGroup, departmentWithManager, itemOf, memberInRole, openBuildEngine, statusOf, sumBy, type BuildEngine,
} from './template-builtin.fixtures.ts';
import type { BuiltTemplate } from './build-kit.ts';
import { buildBuiltInTemplate } from './index.ts';
import { engineDb } from '../../../test/org-helpers.ts';
import { LEAVE_SAMPLES, buildLeave, leaveDays } from './leave.ts';
import { EXPENSE_SAMPLES, buildExpense, claimTotal } from './expense.ts';
import { COUNTERSIGN_FROM, PURCHASE_SAMPLES, buildPurchase, purchaseTotal } from './purchase.ts';

// test-databases: both — the templates' flows, rollups and dashboards on either database.

// The approval templates (docs/decisions/0132) built into one fresh engine through the designers' services; each
// one's main flow run through the API by the people of a department with a manager (and of the roles the flows
// name), and each dashboard's numbers checked against the sample data the builder was given.

let e: BuildEngine;
let dept: Awaited<ReturnType<typeof departmentWithManager>>;
const built: Record<string, BuiltTemplate> = {};
const took: Record<string, number> = {};
const one = (rows: unknown[][]) => Number(rows[0]?.[rows[0].length - 1]);
const round2 = (n: number) => Math.round(n * 100) / 100;
const rounded = (o: Record<string, number>) => Object.fromEntries(Object.entries(o).map(([k, v]) => [k, round2(v)]));
const day = (n: number) => new Date(Date.now() + n * 86_400_000).toISOString().slice(0, 10);

beforeAll(async () => {
  e = await openBuildEngine();
  for (const [key, build] of [['leave', buildLeave], ['expense', buildExpense], ['purchase', buildPurchase]] as const) {
    const started = Date.now();
    built[key] = await build(e.ctx);
    took[key] = Date.now() - started;
  }
  dept = await departmentWithManager(e, Object.values(built).map((b) => b.appCode), '研发部');
}, 300_000);
afterAll(async () => {
  console.log('built-in template build times (ms):', took);
  await e?.t.close();
});

describe('请假审批', () => {
  it('holds the sample requests: days by the formula, approved ones effective, the rest waiting', async () => {
    const list = await e.a.post('/v1/bizdata/query', { schemaCode: built.leave!.forms.leave, pageIndex: 0, pageSize: 100, sort: [{ field: 'StartDate', direction: 'asc' }] });
    expect(list.total).toBe(LEAVE_SAMPLES.length);
    expect(list.list.map((r: any) => [r.LeaveType, Number(r.Days), r.Status])).toEqual(
      [...LEAVE_SAMPLES].sort((x, y) => x.from - y.from).map((s) => [s.type, leaveDays(s), s.approved ? BizObjectStatus.Effective : BizObjectStatus.Running]),
    );
  });

  it('an employee\'s request goes to their department manager and ends approved', async () => {
    const code = built.leave!.forms.leave!;
    const saved = await dept.emp.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { LeaveType: '年假', StartDate: day(20), EndDate: day(22), Reason: '回家探亲' } });
    expect(saved.status).toBe(BizObjectStatus.Running);
    expect((await dept.emp.post('/v1/form/loaddata', { schemaCode: code, objectId: saved.objectId })).values.Days).toBe(3);
    expect(await itemOf(dept.emp, code, saved.objectId)).toBeUndefined();
    await approve(dept.m, code, saved.objectId);
    expect(await statusOf(dept.emp, code, saved.objectId)).toBe(BizObjectStatus.Effective);
  });

  it('a request ending before it starts is refused with the form\'s message, and nothing is saved', async () => {
    const code = built.leave!.forms.leave!;
    const refused = await dept.emp.raw('POST', '/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { LeaveType: '事假', StartDate: day(9), EndDate: day(8), Reason: '日期填反' } });
    expect(refused.body.successful).toBe(false);
    expect(refused.body.errorMessage).toContain('结束日期不能早于开始日期');
    expect((await e.a.post('/v1/bizdata/query', { schemaCode: code, pageIndex: 0, pageSize: 1 })).total).toBe(LEAVE_SAMPLES.length + 1);
  });

  it('its dashboard shows the sample numbers by leave type', async () => {
    const data = await boardData(e.a, built.leave!.boards.leave!);
    // The request approved above (年假, 3 days) counts with the samples.
    const approved = [...LEAVE_SAMPLES.filter((s) => s.approved), { type: '年假', from: 0, to: 2 }];
    expect(byGroup(data['已批准请假天数（按类型）']!)).toEqual(sumBy(approved, (s) => s.type, leaveDays));
    expect(byGroup(data['请假申请数（按类型）']!)).toEqual(sumBy([...LEAVE_SAMPLES, { type: '年假' }], (s) => s.type, () => 1));
    expect(one(data['待审批']!)).toBe(LEAVE_SAMPLES.filter((s) => !s.approved).length);
    expect(one(data['已批准请假总天数']!)).toBe(approved.reduce((sum, s) => sum + leaveDays(s), 0));
  });
});

describe('费用报销', () => {
  it('sums each sample claim\'s items into its total', async () => {
    const list = await e.a.post('/v1/bizdata/query', { schemaCode: built.expense!.forms.claim, pageIndex: 0, pageSize: 100 });
    expect(list.total).toBe(EXPENSE_SAMPLES.length);
    const totals = Object.fromEntries(list.list.map((r: any) => [r.Name, Number(r.Total)]));
    expect(totals).toEqual(Object.fromEntries(EXPENSE_SAMPLES.map((s) => [s.title, claimTotal(s)])));
  });

  it('a claim without items is refused', async () => {
    const refused = await dept.emp.raw('POST', '/v1/form/action/execute', { schemaCode: built.expense!.forms.claim, actionCode: 'Submit', values: { Title: '空报销' }, children: { Items: [] } });
    expect(refused.body.errorMessage).toContain('请填写费用明细');
  });

  it('a claim goes to the department manager, then to 财务, and ends approved', async () => {
    const code = built.expense!.forms.claim!;
    const finance = await memberInRole(e, '财务', built.expense!.appCode);
    const items = [{ Category: '交通费', Amount: 56.5, Note: '打车' }, { Category: '餐饮费', Amount: 100, Note: '午餐' }];
    const saved = await dept.emp.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Title: '客户拜访' }, children: { Items: items } });
    expect((await dept.emp.post('/v1/form/loaddata', { schemaCode: code, objectId: saved.objectId })).values.Total).toBe(156.5);
    expect(await itemOf(finance.client, code, saved.objectId)).toBeUndefined();
    await approve(dept.m, code, saved.objectId);
    expect(await statusOf(dept.emp, code, saved.objectId)).toBe(BizObjectStatus.Running);
    await approve(finance.client, code, saved.objectId);
    expect(await statusOf(dept.emp, code, saved.objectId)).toBe(BizObjectStatus.Effective);
  });

  it('its dashboard sums the approved items by category', async () => {
    const data = await boardData(e.a, built.expense!.boards.claim!);
    const approved = EXPENSE_SAMPLES.filter((s) => s.approved);
    const items = [...approved.flatMap((s) => s.items), { category: '交通费', amount: 56.5 }, { category: '餐饮费', amount: 100 }];
    expect(rounded(byGroup(data['已报销金额（按费用类别）']!))).toEqual(rounded(sumBy(items, (i) => i.category, (i) => i.amount)));
    expect(round2(one(data['已报销总额']!))).toBe(round2(approved.reduce((s, c) => s + claimTotal(c), 0) + 156.5));
    expect(one(data['审批中的报销单']!)).toBe(EXPENSE_SAMPLES.filter((s) => !s.approved).length);
  });
});

describe('行政采购', () => {
  const submit = (client: typeof dept.emp, title: string, qty: number, price: number) =>
    client.post('/v1/form/action/execute', { schemaCode: built.purchase!.forms.request, actionCode: 'Submit', values: { Title: title, Category: '电子设备' }, children: { Lines: [{ Item: '显示器', Qty: qty, Price: price }] } });

  it('below 5,000 yuan the department manager\'s approval ends it', async () => {
    const code = built.purchase!.forms.request!;
    const saved = await submit(dept.emp, '显示器两台', 2, 1299);
    await approve(dept.m, code, saved.objectId);
    expect(await statusOf(dept.emp, code, saved.objectId)).toBe(BizObjectStatus.Effective);
  });

  it('from 5,000 yuan on, 行政主管 and 财务主管 countersign: both must agree', async () => {
    const code = built.purchase!.forms.request!;
    const admin = await memberInRole(e, '行政主管', built.purchase!.appCode);
    const finance = await memberInRole(e, '财务主管', built.purchase!.appCode);
    const saved = await submit(dept.emp, '显示器五台', 5, 1000);
    expect((await dept.emp.post('/v1/form/loaddata', { schemaCode: code, objectId: saved.objectId })).values.Total).toBe(COUNTERSIGN_FROM);
    await approve(dept.m, code, saved.objectId);
    expect(await itemOf(admin.client, code, saved.objectId)).toBeTruthy();
    expect(await itemOf(finance.client, code, saved.objectId)).toBeTruthy();
    await approve(admin.client, code, saved.objectId);
    expect(await statusOf(dept.emp, code, saved.objectId)).toBe(BizObjectStatus.Running);
    await approve(finance.client, code, saved.objectId);
    expect(await statusOf(dept.emp, code, saved.objectId)).toBe(BizObjectStatus.Effective);
  });

  it('its dashboard shows the approved amounts by category and the requests waiting', async () => {
    const data = await boardData(e.a, built.purchase!.boards.request!);
    const approved = [...PURCHASE_SAMPLES.filter((s) => s.approved), { category: '电子设备', lines: [{ item: '', spec: '', qty: 2, price: 1299 }] }, { category: '电子设备', lines: [{ item: '', spec: '', qty: 5, price: 1000 }] }];
    expect(rounded(byGroup(data['已批准采购金额（按类别）']!))).toEqual(rounded(sumBy(approved, (s) => s.category, purchaseTotal)));
    expect(round2(one(data['已批准采购总额']!))).toBe(round2(approved.reduce((s, p) => s + purchaseTotal(p), 0)));
    expect(one(data['审批中的申请']!)).toBe(PURCHASE_SAMPLES.filter((s) => !s.approved).length);
  });

  it('the approved sample requests from 5,000 yuan on passed the countersign, the others did not', async () => {
    const code = built.purchase!.forms.request!;
    const rows = await e.a.post('/v1/bizdata/query', { schemaCode: code, pageIndex: 0, pageSize: 100 });
    const ids = new Map<string, string>(rows.list.map((r: any) => [r.Name, r.ObjectId]));
    const nodes = async (title: string) => {
      const detail = await e.a.get('/v1/workflow/instance/detail', { schemaCode: code, objectId: ids.get(title)! });
      return [...new Set(detail.items.map((i: any) => i.activityCode))].sort();
    };
    const approved = PURCHASE_SAMPLES.filter((s) => s.approved);
    const [large, small] = [approved.filter((s) => purchaseTotal(s) >= COUNTERSIGN_FROM), approved.filter((s) => purchaseTotal(s) < COUNTERSIGN_FROM)];
    expect(large.length).toBeGreaterThan(0);
    for (const s of large) expect(await nodes(s.title)).toEqual(['Countersign', 'ManagerApprove', 'Start']);
    for (const s of small) expect(await nodes(s.title)).toEqual(['ManagerApprove', 'Start']);
  });
});

describe('building', () => {
  it('a second build reuses the roles of the same names instead of making new ones', async () => {
    const again = await buildBuiltInTemplate(e.ctx, 'purchase-request');
    expect(again.appCode).not.toBe(built.purchase!.appCode);
    const roles = await engineDb(e.t.database.db, e.admin.engineCode).selectFrom('org_units').select('name').where('unit_type', '=', 'Role').execute();
    const names = roles.map((r) => r.name).filter((n) => ['财务', '行政主管', '财务主管'].includes(n)).sort();
    expect(names).toEqual(['行政主管', '财务', '财务主管'].sort());
  }, 60_000);

  it('an unknown template is refused by name', async () => {
    await expect(buildBuiltInTemplate(e.ctx, 'payroll')).rejects.toMatchObject({ errorName: 'BuiltinTemplateFailed', code: 500201, detail: { template: 'payroll' } });
  });
});
