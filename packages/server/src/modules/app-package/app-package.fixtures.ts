import type { FastifyInstance } from 'fastify';
import type { TestApp } from '../../../test/helpers.ts';
import { FunctionNodeType, createApp, createNode, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { companyIdOf } from '../../../test/org-helpers.ts';
import { createForm, definition, everyDataControl, publish } from '../../../test/form-helpers.ts';

/** The bytes of the sample order's attachment. */
export const CONTRACT = Buffer.concat([Buffer.from('%PDF-1.4 合同\n'), Buffer.alloc(30_000, 7)]);

// An app with something of every kind for the package tests (docs/decisions/0130): a customer form in a group, an
// order workflow form with every data control type (associations to the customers), a view, a flow, an automation
// writing to the customers, a print template, a permission group of a role and a department (matched by name), a
// server script, a dashboard over the orders, and sample records.

/** Every data control type (a sub-table too); the associations refer to `refCode`. */
export const controls = (refCode: string) => [
  ...everyDataControl(refCode),
  { type: 'photo', code: 'Photos' },
  { type: 'formula', code: 'Double', options: { expression: '{Amount}*2' } },
  { type: 'gridView', code: 'Items', controls: [{ type: 'textBox', code: 'ItemName' }, { type: 'number', code: 'Qty', options: { decimalPlaces: 2 } }, { type: 'checkbox', code: 'ItemOk' }] },
];

export async function upload(app: FastifyInstance, who: Person, name: string, bytes: Buffer) {
  const r = await app.inject({
    method: 'POST', url: '/v1/file/upload', query: { scene: 'attachment', fileName: name },
    headers: { authorization: `Bearer ${who.token}`, enginecode: who.engineCode, 'content-type': 'application/octet-stream' }, payload: bytes,
  });
  return r.json().data as { fileId: string; name: string; size: number; contentType: string };
}

export const SCRIPT = `export async function onSubmit(ctx: ScriptContext) {\n  if (Number(ctx.record.Amount) > 100000) ctx.refuse('金额超限');\n}\n`;

export interface SourceApp {
  a: OrgClient;
  appCode: string;
  customer: string;
  order: string;
  dashboard: string;
  customerIds: string[];
}

export const constant = (value: unknown) => ({ type: 'constant', value });

/** The widgets of the dashboard: orders counted by city, and the sum of their amounts. */
export const boardOf = (order: string) => ({
  refreshSeconds: 0,
  widgets: [
    { id: 'byCity', type: 'bar', layout: { x: 0, y: 0, w: 6, h: 6 }, source: { schemaCode: order }, dimensions: [{ field: 'City' }], measures: [{ aggregate: 'count' }] },
    { id: 'total', type: 'table', layout: { x: 6, y: 0, w: 6, h: 6 }, source: { schemaCode: order }, dimensions: [], measures: [{ aggregate: 'sum', field: 'Amount' }] },
  ],
  filters: [],
});

/** A role and a department of the given names in the person's engine (what a package's groups are matched with). */
export async function roleAndDepartment(t: TestApp, who: Person, names: { role: string; department: string }) {
  const c = nodeClient(t.app, who);
  const department = (await c.post('/v1/org/department/create', { parentId: await companyIdOf(t, who.engineCode), name: names.department })).id as string;
  const group = await c.post('/v1/org/rolegroup/create', { name: `${names.role}组` });
  const role = (await c.post('/v1/org/role/create', { groupId: group.id, name: names.role })).id as string;
  return { role, department };
}

export async function buildSourceApp(t: TestApp, admin: Person, options: { records?: number } = {}): Promise<SourceApp> {
  const a = nodeClient(t.app, admin);
  const units = await roleAndDepartment(t, admin, { role: '销售', department: '销售部' });
  const appCode = (await createApp(a, { displayName: '订单管理', icon: 'icon-order' })).code as string;
  const group = await createNode(a, appCode, FunctionNodeType.GroupModule, { displayName: '基础资料' });
  const customer = (await createForm(a, appCode, { displayName: '客户', parentCode: group.code })).code as string;
  await publish(a, customer, definition([{ type: 'textBox', code: 'Title' }, { type: 'dropDown', code: 'City', options: { defaultItems: ['北京', '上海'] } }], { displayName: '客户' }));
  const order = (await createForm(a, appCode, { displayName: '订单' }, FunctionNodeType.WorkflowModule)).code as string;
  await publish(a, order, definition(controls(customer), { displayName: '订单' }));
  // A view with chosen columns, a flow approved by the originator's manager chain (or the originator), a script.
  const designed = await a.get('/v1/view/designer/load', { schemaCode: order });
  await a.post('/v1/view/designer/save', { schemaCode: order, views: [{ ...designed.views[0], columns: [{ field: 'Title' }, { field: 'Amount' }, { field: 'City' }, { field: 'Ref' }] }] });
  const S = { type: 'Start', code: 'Start', name: '发起' };
  const A = { type: 'Approve', code: 'A', name: '经理审批', participants: { sources: [{ type: 'roles', ids: [units.role] }, { type: 'originator' }] } };
  const E = { type: 'End', code: 'End', name: '结束' };
  await a.post('/v1/workflow/template/save', { schemaCode: order, template: { activities: [S, A, E], routes: [{ from: 'Start', to: 'A' }, { from: 'A', to: 'End' }] } });
  await a.post('/v1/workflow/template/publish', { schemaCode: order });
  await a.post('/v1/toolkit/print/template/save', { schemaCode: order, name: '订单打印', isDefault: true, layout: { page: { size: 'A5', orientation: 'landscape' }, elements: [{ id: 'f1', type: 'field', field: 'Title', x: 0, y: 0, width: 60, height: 8 }] } });
  await a.post('/v1/form/permission/group/save', { schemaCode: customer, group: { name: '销售看客户', members: { roles: [units.role], departments: [units.department] }, actions: ['view', 'create'], viewScope: 'all', editScope: 'own', fieldRights: { City: 'readonly' } } });
  await a.post('/v1/codeeditor/save', { appCode, schemaCode: order, part: 'form-server', language: 'ts', source: SCRIPT, baseVersion: 0 });
  await a.post('/v1/formconfig/customindex/save', { schemaCode: order, fields: ['Title'] });
  const dashboard = (await createNode(a, appCode, FunctionNodeType.DashBoardModule, { displayName: '订单看板' })).code as string;
  await a.post('/v1/dashboard/save', { code: dashboard, definition: boardOf(order) });
  // Sample records: customers, then orders referring to them (Effective: the flow finished as an import does).
  const customerIds: string[] = [];
  for (const [i, city] of ['北京', '上海', '上海'].entries()) {
    customerIds.push((await a.post('/v1/form/action/execute', { schemaCode: customer, actionCode: 'Submit', values: { Title: `客户${i}`, City: city } })).objectId);
  }
  const count = options.records ?? 5;
  const file = await upload(t.app, admin, '合同.pdf', CONTRACT);
  for (let i = 0; i < count; i++) {
    const files = i === 0 ? { Files: [{ id: file.fileId, name: file.name, size: file.size, contentType: file.contentType }] } : {};
    const saved = await a.post('/v1/form/action/execute', {
      schemaCode: order, actionCode: 'Save',
      values: { Title: `订单${i}`, Amount: 100 + i * 10.5, City: i % 2 ? '北京' : '上海', When: '2024-03-05T02:30:00.000Z', Tags: ['红'], Done: i % 2 === 0, Ref: customerIds[i % 3], Refs: [customerIds[0]], ...files },
      children: { Items: [{ ItemName: `件${i}`, Qty: i + 1 }] },
    });
    const started = await a.post('/v1/workflow/instance/start', { schemaCode: order, objectId: saved.objectId, opinion: { text: '请审批' } });
    // Approved by the originator: the orders are Effective, as the dashboard counts them.
    const item = (await a.get('/v1/workflow/instance/info', { instanceId: started.instanceId })).myItems[0].workItemId;
    await a.post('/v1/workflow/instance/submit', { workItemId: item, opinion: { text: '同意' } });
  }
  // The automation comes after the records (it would have written customers for them).
  await a.post('/v1/automatic/save', { schemaCode: order, automation: { name: '订单生效写客户', trigger: { type: 'effective' }, steps: [{ id: 's', type: 'insert', targetSchemaCode: customer, mappings: [{ field: 'Title', value: constant('来自订单') }] }] } });
  return { a, appCode, customer, order, dashboard, customerIds };
}

/** POSTs a package file as the upload call takes it (raw bytes). */
export async function uploadPackage(app: FastifyInstance, who: Person, bytes: Buffer) {
  const r = await app.inject({ method: 'POST', url: '/v1/app-package/upload', headers: { authorization: `Bearer ${who.token}`, enginecode: who.engineCode, 'content-type': 'application/gzip' }, payload: bytes });
  return { status: r.statusCode, body: r.json() as any };
}

export async function downloadPackage(app: FastifyInstance, who: Person, packageId: string): Promise<Buffer> {
  const r = await app.inject({ method: 'GET', url: '/v1/app-package/download', query: { packageId }, headers: { authorization: `Bearer ${who.token}`, enginecode: who.engineCode } });
  if (r.statusCode !== 200) throw new Error(`download: ${r.statusCode} ${r.body}`);
  return r.rawPayload;
}

/** Runs due jobs until none is left (as the job runner would). */
export async function drainJobs(t: TestApp): Promise<void> {
  while (await t.app.extras.jobs.runOnce());
}
