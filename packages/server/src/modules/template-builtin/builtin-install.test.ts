import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BizObjectStatus } from '@tritium/shared/constants/data-status';
import { approve, departmentWithManager, itemOf, openBuildEngine, statusOf, sumBy, type BuildEngine } from './template-builtin.fixtures.ts';
import { BUILT_IN_TEMPLATES } from './index.ts';
import { LEAVE_SAMPLES, leaveDays } from './leave.ts';
import { EXPENSE_SAMPLES, claimTotal } from './expense.ts';
import { CUSTOMERS, FOLLOW_UPS } from './crm.ts';
import { PRODUCTS, expectedStock } from './inventory.ts';
import { TASKS } from './project.ts';
import { addInvitedMember, engineDb, orgClient, type OrgClient } from '../../../test/org-helpers.ts';
import { registerPerson } from '../../../test/helpers.ts';
import { registerBuiltInTemplates } from '../template/builtin-registry.ts';

// The template files scripts/build-templates.ts wrote into packages/server/templates/ (docs/decisions/0132), as a new
// organisation meets them: offered by the template market, installed with their sample data into a fresh engine, the
// sample numbers as the builders made them, and the main flows running there.

let e: BuildEngine;
const apps: Record<string, string> = {};
const forms: Record<string, Record<string, string>> = {};
/** Installs that did not finish, by template code: each template's tests say so instead of hiding the others. */
const failures: Record<string, string> = {};
/** The installed forms of a template (by name), or the test fails with why the install did not finish. */
const installed = (code: string): Record<string, string> => {
  if (failures[code]) throw new Error(`${code} did not install: ${failures[code]}`);
  return forms[code]!;
};
const query = async (schemaCode: string) => (await e.a.post('/v1/bizdata/query', { schemaCode, pageIndex: 0, pageSize: 200 })).list as any[];

/** Installs a built-in template into the client's engine with its sample data; answers the app, or why it failed. */
async function install(client: OrgClient, code: string): Promise<{ appCode: string } | { failed: string }> {
  const list = await client.get('/v1/template/list', { source: 'builtIn', pageSize: '100' });
  const templateId = list.list.find((t: any) => t.code === code)?.id;
  const { actionId } = await client.post('/v1/template/install', { templateId, withSampleData: true });
  for (let i = 0; i < 20 && (await e.t.app.extras.jobs.runOnce()); i++);
  const done = await client.get('/v1/template/install/progress', { actionId });
  return done.isComplete && done.appCode ? { appCode: done.appCode } : { failed: `${done.state}: ${done.message}` };
}

/** The roles the approval templates' flows name, made in the engine before the install (matched by name). */
const ROLE_NAMES = ['财务', '行政主管', '财务主管'];
const roleIds = new Map<string, string>();

beforeAll(async () => {
  e = await openBuildEngine();
  // A server registers them as it starts listening; the tests' injected app does not listen.
  const registered = await registerBuiltInTemplates({ db: e.t.database.db, store: e.ctx.files.store });
  if (registered.failed.length) throw new Error(`not registered: ${JSON.stringify(registered.failed)}`);
  const group = await e.a.post('/v1/org/rolegroup/create', { name: '岗位角色' });
  for (const name of ROLE_NAMES) roleIds.set(name, (await e.a.post('/v1/org/role/create', { groupId: group.id, name })).id);
  for (const template of BUILT_IN_TEMPLATES) {
    const done = await install(e.a, template.code);
    if ('failed' in done) {
      failures[template.code] = done.failed;
      continue;
    }
    apps[template.code] = done.appCode;
    const nodes = (await e.a.get(`/v1/functionNode/app/feature/list?appCode=${done.appCode}`)).list as { code: string; displayName: string }[];
    forms[template.code] = Object.fromEntries(nodes.map((n) => [n.displayName, n.code]));
  }
}, 300_000);
afterAll(() => e?.t.close());

it('the market offers the six built-in templates with their categories', async () => {
  const list = await e.a.get('/v1/template/list', { source: 'builtIn', pageSize: '100' });
  expect(list.list.map((t: any) => [t.name, t.category, t.builtIn]).sort()).toEqual(BUILT_IN_TEMPLATES.map((t) => [t.name, t.category, true]).sort());
});

describe('installed with sample data', () => {
  it('请假审批: every sample request, its days counted again by the formula', async () => {
    const rows = await query(installed('leave-request')['请假申请']!);
    expect(sumBy(rows, (r) => r.LeaveType, (r) => Number(r.Days))).toEqual(sumBy(LEAVE_SAMPLES, (s) => s.type, leaveDays));
  });

  it('费用报销: every sample claim with its items summed', async () => {
    const rows = await query(installed('expense-claim')['报销单']!);
    expect(Object.fromEntries(rows.map((r) => [r.Name, Number(r.Total)]))).toEqual(Object.fromEntries(EXPENSE_SAMPLES.map((s) => [s.title, claimTotal(s)])));
  });

  it('客户管理: customers with their follow-ups rolled up', async () => {
    const rows = await query(installed('crm')['客户']!);
    expect(Object.fromEntries(rows.map((r) => [r.CustomerName, Number(r.FollowUps)]))).toEqual(Object.fromEntries(CUSTOMERS.map((c, i) => [c.name, FOLLOW_UPS.filter((f) => f[0] === i).length])));
  });

  it('进销存: each product\'s stock as the sample orders leave it (not counted twice)', async () => {
    const rows = await query(installed('inventory')['商品']!);
    const { inQty, outQty } = expectedStock();
    expect(Object.fromEntries(rows.map((r) => [r.ProductCode, [Number(r.InQty), Number(r.OutQty), Number(r.Stock)]]))).toEqual(
      Object.fromEntries(PRODUCTS.map((p, i) => [p[0], [inQty[i], outQty[i], inQty[i]! - outQty[i]!]])),
    );
  });

  it('项目管理: the tasks on the Gantt chart under their parent tasks', async () => {
    const gantt = await e.a.post('/v1/bizdata/view/gantt', { schemaCode: installed('project')['任务']!, viewCode: 'Gantt' });
    const names = new Map(gantt.list.map((r: any) => [r.ObjectId, r.TaskName]));
    const parents = Object.fromEntries(gantt.tasks.map((x: any) => [names.get(x.objectId), x.parentId ? names.get(x.parentId) : null]));
    expect(parents).toEqual(Object.fromEntries(TASKS.map((t) => [t[1], t[2] === null ? null : TASKS[t[2]]![1]])));
  });
});

describe('the flows run in the new engine', () => {
  it('请假审批: the employee\'s manager approves', async () => {
    const code = installed('leave-request')['请假申请']!;
    const dept = await departmentWithManager(e, [apps['leave-request']!], '市场部');
    const saved = await dept.emp.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { LeaveType: '病假', StartDate: '2026-12-01', EndDate: '2026-12-01', Reason: '发烧' } });
    await approve(dept.m, code, saved.objectId);
    expect(await statusOf(dept.emp, code, saved.objectId)).toBe(BizObjectStatus.Effective);
  });

  it('行政采购: from 5,000 yuan on, the members of this engine\'s 行政主管 and 财务主管 (matched by name) countersign', async () => {
    const code = installed('purchase-request')['采购申请']!;
    const dept = await departmentWithManager(e, [apps['purchase-request']!], '行政部');
    const signers = [];
    for (const name of ['行政主管', '财务主管']) {
      const member = await addInvitedMember(e.t, e.admin, { name });
      await e.a.post('/v1/org/role/member/add', { roleId: roleIds.get(name), userIds: [member.userId] });
      await e.a.post('/v1/functionnode/auth/set', { code: apps['purchase-request'], unitId: member.userId, permission: 'create' });
      signers.push(orgClient(e.t.app, member));
    }
    const saved = await dept.emp.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Title: '服务器', Category: '电子设备' }, children: { Lines: [{ Item: '服务器', Qty: 1, Price: 8000 }] } });
    await approve(dept.m, code, saved.objectId);
    for (const signer of signers) expect(await itemOf(signer, code, saved.objectId)).toBeTruthy();
    for (const signer of signers) await approve(signer, code, saved.objectId);
    expect(await statusOf(dept.emp, code, saved.objectId)).toBe(BizObjectStatus.Effective);
  });

  it('进销存: a sale lowers the stock', async () => {
    const { 商品: product, 销售出库单: sale } = installed('inventory');
    const before = (await query(product!)).find((r) => r.ProductCode === 'SP001');
    await e.a.post('/v1/form/action/execute', { schemaCode: sale, actionCode: 'Submit', values: { Customer: '新客户' }, children: { Lines: [{ Product: before.ObjectId, Qty: 5, Price: 69 }] } });
    const after = (await query(product!)).find((r) => r.ProductCode === 'SP001');
    expect(Number(after.Stock)).toBe(Number(before.Stock) - 5);
  });
});

it('installs the approval templates into an organisation without their roles: the roles are made by name', async () => {
  const other = await registerPerson(e.t.app, { userName: '新公司管理员', engineName: '新开业有限公司' });
  const client = orgClient(e.t.app, other);
  for (const code of ['expense-claim', 'purchase-request']) expect(await install(client, code), code).toHaveProperty('appCode');
  const roles = await engineDb(e.t.database.db, other.engineCode).selectFrom('org_units').select('name').where('unit_type', '=', 'Role').execute();
  expect(roles.map((r) => r.name)).toEqual(expect.arrayContaining(ROLE_NAMES));
});
