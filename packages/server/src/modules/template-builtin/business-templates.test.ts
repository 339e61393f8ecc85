import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { boardData, byGroup, grantApp, openBuildEngine, sumBy, type BuildEngine } from './template-builtin.fixtures.ts';
import type { BuiltTemplate } from './build-kit.ts';
import { CUSTOMERS, FOLLOW_UPS, OPPORTUNITIES, buildCrm } from './crm.ts';
import { PRODUCTS, PURCHASES, SALES, buildInventory, expectedStock } from './inventory.ts';
import { PROJECTS, TASKS, buildProject, isDone, taskStatus } from './project.ts';
import { addInvitedMember, orgClient } from '../../../test/org-helpers.ts';

// test-databases: both — rollups over other forms, business rules per sub-table row and the Gantt chart on either database.

// The data templates (docs/decisions/0132) built into one fresh engine through the designers' services; each one's
// main flow run through the API, and the numbers its sample data gives checked on its lists and dashboard.

let e: BuildEngine;
const built: Record<string, BuiltTemplate> = {};
const took: Record<string, number> = {};
const one = (rows: unknown[][]) => Number(rows[0]?.[rows[0].length - 1]);
const query = async (schemaCode: string, extra: Record<string, unknown> = {}) => (await e.a.post('/v1/bizdata/query', { schemaCode, pageIndex: 0, pageSize: 200, ...extra })).list as any[];
const submit = async (schemaCode: string, values: Record<string, unknown>, children?: Record<string, unknown[]>) =>
  (await e.a.post('/v1/form/action/execute', { schemaCode, actionCode: 'Submit', values, ...(children ? { children } : {}) })).objectId as string;

beforeAll(async () => {
  e = await openBuildEngine();
  for (const [key, build] of [['crm', buildCrm], ['inventory', buildInventory], ['project', buildProject]] as const) {
    const started = Date.now();
    built[key] = await build(e.ctx);
    took[key] = Date.now() - started;
  }
}, 300_000);
afterAll(async () => {
  console.log('built-in template build times (ms):', took);
  await e?.t.close();
});

describe('客户管理', () => {
  it('rolls the samples\' follow-ups and opportunities up to their customers', async () => {
    const rows = await query(built.crm!.forms.customer!);
    expect(rows).toHaveLength(CUSTOMERS.length);
    const byName = new Map(rows.map((r) => [r.CustomerName, r]));
    CUSTOMERS.forEach((customer, i) => {
      const row = byName.get(customer.name);
      expect(Number(row.FollowUps)).toBe(FOLLOW_UPS.filter((f) => f[0] === i).length);
      const opps = OPPORTUNITIES.filter((o) => o[0] === i);
      expect(Number(row.OpenAmount)).toBe(opps.filter((o) => !['赢单', '输单'].includes(o[3])).reduce((s, o) => s + o[2], 0));
      expect(Number(row.WonAmount)).toBe(opps.filter((o) => o[3] === '赢单').reduce((s, o) => s + o[2], 0));
    });
  });

  it('a salesperson logs a follow-up and a new opportunity: the customer and the sales dashboard follow', async () => {
    const { customer, followUp, opportunity } = built.crm!.forms as Record<string, string>;
    const member = await addInvitedMember(e.t, e.admin, { name: '销售小李' });
    await grantApp(e, built.crm!.appCode, [member.userId]);
    const sales = orgClient(e.t.app, member);
    const target = (await query(customer)).find((r) => r.CustomerName === CUSTOMERS[4]!.name);
    await sales.post('/v1/form/action/execute', { schemaCode: followUp, actionCode: 'Submit', values: { Customer: target.ObjectId, Method: '拜访', Content: '重新沟通预算' } });
    await sales.post('/v1/form/action/execute', { schemaCode: opportunity, actionCode: 'Submit', values: { Title: '启明教育 排课系统', Customer: target.ObjectId, Amount: 30000, Stage: '需求确认' } });
    const after = (await query(customer)).find((r) => r.ObjectId === target.ObjectId);
    expect([Number(after.FollowUps), Number(after.OpenAmount)]).toEqual([Number(target.FollowUps) + 1, Number(target.OpenAmount) + 30000]);

    const data = await boardData(e.a, built.crm!.boards.sales!);
    const opps = [...OPPORTUNITIES.map((o) => ({ stage: o[3], amount: o[2] })), { stage: '需求确认', amount: 30000 }];
    expect(byGroup(data['商机金额（按阶段）']!)).toEqual(sumBy(opps, (o) => o.stage, (o) => o.amount));
    expect(byGroup(data['商机数（按负责人）']!)).toEqual({ [e.ctx.userId]: OPPORTUNITIES.length, [member.userId]: 1 });
    expect(one(data['进行中商机总额']!)).toBe(opps.filter((o) => !['赢单', '输单'].includes(o.stage)).reduce((s, o) => s + o.amount, 0));
    expect(one(data['已成交金额']!)).toBe(opps.filter((o) => o.stage === '赢单').reduce((s, o) => s + o.amount, 0));
    expect(byGroup(data['跟进次数（按方式）']!)).toEqual(sumBy([...FOLLOW_UPS.map((f) => f[2]), '拜访'], (m) => m, () => 1));
  });
});

describe('进销存', () => {
  const stockList = async () => {
    const rows = await query(built.inventory!.forms.product!, { sort: [{ field: 'ProductCode', direction: 'asc' }] });
    return rows.map((r) => [r.ProductCode, Number(r.InQty), Number(r.OutQty), Number(r.Stock)]);
  };

  it('holds each product\'s purchases, sales and stock from the sample orders', async () => {
    const { inQty, outQty } = expectedStock();
    expect(await stockList()).toEqual(PRODUCTS.map((p, i) => [p[0], inQty[i], outQty[i], inQty[i]! - outQty[i]!]));
  });

  it('a sale lowers the stock, a purchase raises it, removing the sale gives its quantity back', async () => {
    const { product, purchase, sale } = built.inventory!.forms as Record<string, string>;
    const ids = new Map((await query(product)).map((r) => [r.ProductCode, r.ObjectId]));
    const stockOf = async (code: string) => (await stockList()).find((r) => r[0] === code)![3] as number;
    const before = await stockOf('SP003');
    const saleId = await submit(sale, { Customer: '南京青禾物流有限公司' }, { Lines: [{ Product: ids.get('SP003'), Qty: 4, Price: 1399 }] });
    expect(await stockOf('SP003')).toBe(before - 4);
    await submit(purchase, { Supplier: '苏州华显科技有限公司' }, { Lines: [{ Product: ids.get('SP003'), Qty: 10, Price: 975 }] });
    expect(await stockOf('SP003')).toBe(before + 6);
    await e.a.post('/v1/form/action/execute', { schemaCode: sale, actionCode: 'Remove', objectId: saleId });
    expect(await stockOf('SP003')).toBe(before + 10);
  });

  it('its dashboard shows the stock by product and the order totals', async () => {
    const data = await boardData(e.a, built.inventory!.boards.stock!);
    const extraPurchase = { lines: [[2, 10, 975]] as [number, number, number][] };
    const { inQty, outQty } = expectedStock([...PURCHASES, { supplier: '', day: 0, ...extraPurchase }], SALES);
    expect(byGroup(data['当前库存（按商品）']!)).toEqual(Object.fromEntries(PRODUCTS.map((p, i) => [p[1], inQty[i]! - outQty[i]!])));
    const total = (orders: { lines: [number, number, number][] }[]) => orders.reduce((s, o) => s + o.lines.reduce((t, [, q, pr]) => t + q * pr, 0), 0);
    expect(one(data['销售总额']!)).toBe(total(SALES));
    expect(one(data['采购总额']!)).toBe(total([...PURCHASES, extraPurchase]));
  });
});

describe('项目管理', () => {
  it('draws the sample tasks on the Gantt chart with their parent tasks', async () => {
    const { task } = built.project!.forms as Record<string, string>;
    const gantt = await e.a.post('/v1/bizdata/view/gantt', { schemaCode: task, viewCode: 'Gantt' });
    expect(gantt.total).toBe(TASKS.length);
    const names = new Map(gantt.list.map((r: any) => [r.ObjectId, r.TaskName]));
    const parents = Object.fromEntries(gantt.tasks.map((x: any) => [names.get(x.objectId), x.parentId ? names.get(x.parentId) : null]));
    expect(parents).toEqual(Object.fromEntries(TASKS.map((t) => [t[1], t[2] === null ? null : TASKS[t[2]]![1]])));
  });

  it('finishing a task on the Gantt chart counts on its project and the dashboard', async () => {
    const { task, project } = built.project!.forms as Record<string, string>;
    const open = (await query(task)).find((r) => r.TaskName === '兼容性测试');
    await e.a.post('/v1/gantt/task/update', { schemaCode: task, viewCode: 'Gantt', objectId: open.ObjectId, progress: 100 });
    const projects = await query(project);
    const done = (i: number) => TASKS.filter((t) => t[0] === i && isDone(t[5])).length + (i === 0 ? 1 : 0);
    expect(Object.fromEntries(projects.map((p) => [p.ProjectName, [Number(p.TaskCount), Number(p.DoneCount)]]))).toEqual(
      Object.fromEntries(PROJECTS.map((p, i) => [p.name, [TASKS.filter((t) => t[0] === i).length, done(i)]])),
    );
    const data = await boardData(e.a, built.project!.boards.project!);
    expect(Object.fromEntries(data['任务完成情况（按项目）']!.map((r) => [r[0], [Number(r[1]), Number(r[2])]]))).toEqual(
      Object.fromEntries(PROJECTS.map((p, i) => [p.name, [TASKS.filter((t) => t[0] === i).length, done(i)]])),
    );
    const statuses = TASKS.map((t) => (t[1] === '兼容性测试' ? '已完成' : taskStatus(t[5])));
    expect(byGroup(data['任务数（按状态）']!)).toEqual(sumBy(statuses, (s) => s, () => 1));
  });
});
