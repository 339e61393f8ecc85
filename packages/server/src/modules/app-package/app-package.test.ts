import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { engineDb } from '../../db/database.ts';
import { remapSchemaCodes } from '../function-node/code-remap.ts';
import { CONTRACT, SCRIPT, buildSourceApp, downloadPackage, drainJobs, roleAndDepartment, uploadPackage, type SourceApp } from './app-package.fixtures.ts';
import { UserAuthType } from '@tritium/shared/constants/org';
import { clearSampleData, sampleDataOf } from './index.ts';

// test-databases: both — publishing many forms' DDL through the designers' services, the install's final transaction
// and the set-wise sample write (docs/testing.md "Runs on both databases").

// An app with something of every kind goes into a package file, the file into a second organisation; the installed app
// has new codes and the same definitions, its flow runs and its dashboard shows the sample data's numbers.

let t: TestApp;
let adminA: Person, adminB: Person;
let a: OrgClient, b: OrgClient;
let source: SourceApp;
let bytes: Buffer;

beforeAll(async () => {
  t = await createTestApp();
  adminA = await registerPerson(t.app, { engineName: '甲公司' });
  adminB = await registerPerson(t.app, { engineName: '乙公司' });
  a = nodeClient(t.app, adminA);
  b = nodeClient(t.app, adminB);
  source = await buildSourceApp(t, adminA);
  const exported = await a.post('/v1/app-package/export', { appCode: source.appCode, sampleData: true });
  expect(exported.summary).toMatchObject({ name: '订单管理', formCount: 2, sampleRecordCount: 8, roles: ['销售'], departments: ['销售部'] });
  bytes = await downloadPackage(t.app, adminA, exported.packageId);
}, 120_000);
afterAll(() => t.close());

const edbOf = (who: Person) => engineDb(t.database.db, who.engineCode);
const featureCodes = async (c: OrgClient, appCode: string) => {
  const list = (await c.get(`/v1/functionNode/app/feature/list?appCode=${appCode}`)).list as { code: string; displayName: string; nodeType: number }[];
  return (name: string) => list.find((n) => n.displayName === name)!.code;
};

async function install(c: OrgClient, packageId: string, body: Record<string, unknown> = {}) {
  const { actionId } = await c.post('/v1/app-package/install', { packageId, sampleData: true, ...body });
  await drainJobs(t);
  return c.get('/v1/app-package/install/progress', { actionId });
}

describe('an app package between two organisations', () => {
  let installed: { appCode: string; customer: string; order: string; dashboard: string };

  it('installs with new codes, the same definitions and every part of the app', async () => {
    const unitsB = await roleAndDepartment(t, adminB, { role: '销售', department: '销售部' });
    const uploaded = await uploadPackage(t.app, adminB, bytes);
    expect(uploaded.body.successful).toBe(true);
    const info = await b.post('/v1/app-package/info', { packageId: uploaded.body.data.packageId });
    expect(info.roles).toEqual([{ name: '销售', matched: '销售' }]);
    const done = await install(b, uploaded.body.data.packageId);
    expect(done).toMatchObject({ isComplete: true, state: 'Finished', progress: 100, unmatched: [] });
    const code = await featureCodes(b, done.appCode);
    installed = { appCode: done.appCode, customer: code('客户'), order: code('订单'), dashboard: code('订单看板') };
    expect(installed.appCode).not.toBe(source.appCode);
    expect(installed.order).not.toBe(source.order);

    // The tree: the same names, types and nesting.
    const shape = (list: any[]): unknown => list.map((n) => [n.displayName, n.nodeType, shape(n.children ?? [])]);
    const appOf = async (c: OrgClient, appCode: string) => (await c.get('/v1/functionnode/app/list')).list.find((x: { code: string }) => x.code === appCode);
    expect(shape((await appOf(b, installed.appCode)).children)).toEqual(shape((await appOf(a, source.appCode)).children));
    expect(await appOf(b, installed.appCode)).toMatchObject({ displayName: '订单管理', icon: 'icon-order' });

    // Forms: the published definition, its references pointing to the new customer form.
    const codes = new Map([[source.customer, installed.customer], [source.order, installed.order]]);
    const defA = (await a.post('/v1/formdesign/load', { schemaCode: source.order })).published.definition;
    const defB = (await b.post('/v1/formdesign/load', { schemaCode: installed.order })).published.definition;
    expect(defB).toEqual(remapSchemaCodes(defA, codes));
    expect(JSON.stringify(defB)).toContain(installed.customer);
    expect(JSON.stringify(defB)).not.toContain(source.customer);

    const viewB = await b.get('/v1/view/designer/load', { schemaCode: installed.order });
    expect(viewB.views[0].columns.map((c: { field: string }) => c.field)).toEqual(['Title', 'Amount', 'City', 'Ref']);
    const flowB = await edbOf(adminB).selectFrom('wf_templates').select(['definition']).where('schema_code', '=', installed.order).execute();
    expect(flowB).toHaveLength(1);
    expect((flowB[0]!.definition as any).activities.map((x: { name: string }) => x.name)).toEqual(['发起', '经理审批', '结束']);
    // The approvers' role is B's role of the same name.
    expect((flowB[0]!.definition as any).activities[1].participants.sources).toEqual([{ type: 'roles', ids: [unitsB.role] }, { type: 'originator' }]);
    const autos = await edbOf(adminB).selectFrom('automations').select(['name', 'definition']).where('schema_code', '=', installed.order).execute();
    expect(autos.map((x) => x.name)).toEqual(['订单生效写客户']);
    expect((autos[0]!.definition as any).steps[0].targetSchemaCode).toBe(installed.customer);
    const prints = await edbOf(adminB).selectFrom('print_templates').select(['name', 'is_default']).where('schema_code', '=', installed.order).execute();
    expect(prints).toEqual([{ name: '订单打印', is_default: true }]);
    const groups = await b.post('/v1/form/permission/group/list', { schemaCode: installed.customer });
    const group = groups.list.find((g: { name: string }) => g.name === '销售看客户');
    expect(group).toMatchObject({ members: { roles: [unitsB.role], departments: [unitsB.department], users: [] }, actions: ['view', 'create'], fieldRights: { City: 'readonly' } });
    const script = await edbOf(adminB).selectFrom('custom_codes').select(['source', 'app_code']).where('schema_code', '=', installed.order).execute();
    expect(script).toEqual([{ source: SCRIPT, app_code: installed.appCode }]);
    const indexes = await b.post('/v1/formconfig/customindex/list', { schemaCode: installed.order });
    expect(JSON.stringify(indexes)).toContain('Title');
    const board = await b.get('/v1/dashboard/load', { code: installed.dashboard });
    expect(board.definition.widgets.map((w: any) => w.source.schemaCode)).toEqual([installed.order, installed.order]);
  });

  it('writes the sample records, marked, and the dashboard shows the same numbers', async () => {
    const count = async (who: Person, schemaCode: string) => {
      const { mainTable } = (await edbOf(who).selectFrom('form_tables').select('table_name as mainTable').where('schema_code', '=', schemaCode).where('grid_key', '=', '').executeTakeFirstOrThrow());
      const r = await sql<{ n: number }>`select count(*)::int as n from ${sql.id(`e_${who.engineCode}`, mainTable)}`.execute(t.database.db);
      return r.rows[0]!.n;
    };
    expect(await count(adminB, installed.order)).toBe(5);
    expect(await sampleDataOf(t.database.db, adminB.engineCode, installed.appCode)).toEqual({
      total: 8,
      forms: [{ schemaCode: installed.customer, count: 3 }, { schemaCode: installed.order, count: 5 }].sort((x, y) => x.schemaCode.localeCompare(y.schemaCode)),
    });
    const widgets = async (c: OrgClient, code: string) => {
      const def = (await c.get('/v1/dashboard/load', { code })).definition;
      return Promise.all(def.widgets.map(async (w: unknown) => (await c.post('/v1/report/data', { widget: w })).rows));
    };
    const numbersA = await widgets(a, source.dashboard);
    expect(numbersA[0].length).toBe(2); // 北京 and 上海
    expect(await widgets(b, installed.dashboard)).toEqual(numbersA);
    // References between sample records point to the new customers.
    const order = (await b.post('/v1/report/data', { widget: { id: 'x', type: 'table', layout: { x: 0, y: 0, w: 6, h: 6 }, source: { schemaCode: installed.order }, dimensions: [{ field: 'Title' }], measures: [{ aggregate: 'count' }] } })).rows;
    expect(order).toHaveLength(5);
  });

  it('runs the installed flow: a new order is approved by its originator and becomes effective', async () => {
    const saved = await b.post('/v1/form/action/execute', { schemaCode: installed.order, actionCode: 'Save', values: { Title: '新订单', Amount: 5 } });
    const instance = await b.post('/v1/workflow/instance/start', { schemaCode: installed.order, objectId: saved.objectId, opinion: { text: '请审批' } });
    const info = await b.get('/v1/workflow/instance/info', { instanceId: instance.instanceId });
    expect(info.myItems[0]).toMatchObject({ activityName: '经理审批' });
    await b.post('/v1/workflow/instance/submit', { workItemId: info.myItems[0].workItemId, opinion: { text: '同意' } });
    const record = await b.post('/v1/form/loaddata', { schemaCode: installed.order, objectId: saved.objectId });
    expect(record.system.Status).toBe(1);
  });

  it('carries the sample files: the attachment of the installed order has the same bytes', async () => {
    const files = await edbOf(adminB).selectFrom('files').select(['id', 'name', 'schema_code', 'size']).where('schema_code', '=', installed.order).execute();
    expect(files).toMatchObject([{ name: '合同.pdf', size: CONTRACT.length }]);
    const url = (await b.post('/v1/file/urls/byfileids', { fileIds: [files[0]!.id] })).list[0].url as string;
    const r = await t.app.inject({ method: 'GET', url: url.replace(/^https?:\/\/[^/]+/, '') });
    expect(r.rawPayload.equals(CONTRACT)).toBe(true);
  });

  it('clears exactly the sample records: the order saved since stays', async () => {
    const me = (await b.post('/v1/form/loaddata', { schemaCode: installed.order })).system.CreatedBy as string;
    const ctx = { db: t.database.db, engineCode: adminB.engineCode, userId: me, authType: UserAuthType.Administrator };
    const orders = async () => (await b.post('/v1/report/data', { widget: { id: 'n', type: 'table', layout: { x: 0, y: 0, w: 6, h: 6 }, source: { schemaCode: installed.order }, dimensions: [{ field: 'Title' }], measures: [{ aggregate: 'count' }] } })).rows.map((r: unknown[]) => r[0]);
    expect((await orders()).sort()).toEqual(['新订单', '订单0', '订单1', '订单2', '订单3', '订单4']);
    expect(await clearSampleData(ctx, installed.appCode)).toEqual({ removed: 8 });
    expect(await orders()).toEqual(['新订单']);
    expect((await sampleDataOf(t.database.db, adminB.engineCode, installed.appCode)).total).toBe(0);
    expect(await edbOf(adminB).selectFrom('files').select('id').where('schema_code', '=', installed.order).execute()).toEqual([]);
  });

  it('removing the installed app leaves no row of it behind', async () => {
    await drainJobs(t);
    const before = await tableCounts(adminB);
    const again = await install(b, (await uploadPackage(t.app, adminB, bytes)).body.data.packageId);
    expect(again.state).toBe('Finished');
    await b.post('/v1/functionnode/remove', { code: again.appCode });
    const after = await tableCounts(adminB);
    expect(after).toEqual(before);
  });
});

/** Rows of every table of the engine's schema (the operation log aside: removals are logged), and its table count. */
async function tableCounts(who: Person): Promise<Record<string, number>> {
  const schema = `e_${who.engineCode}`;
  const tables = await sql<{ t: string }>`select relname as t from pg_class where relnamespace = ${schema}::regnamespace and relkind = 'r' and relname not like 'kysely_migration%' and relname not in ('oplog', 'oplog_head') order by 1`.execute(t.database.db);
  const out: Record<string, number> = { '(tables)': tables.rows.length };
  for (const { t: name } of tables.rows) {
    const r = await sql<{ n: number }>`select count(*)::int as n from ${sql.id(schema, name)}`.execute(t.database.db);
    out[name] = r.rows[0]!.n;
  }
  const platform = await sql<{ n: number }>`select count(*)::int as n from platform.automation_schedules where engine_code = ${who.engineCode}`.execute(t.database.db);
  out['platform.automation_schedules'] = platform.rows[0]!.n;
  return out;
}

describe('an app package into another installation', () => {
  it('installs the same app from the file into a fresh platform of its own database', async () => {
    const other = await createTestApp();
    try {
      const admin = await registerPerson(other.app, { engineName: '丙公司' });
      const c = nodeClient(other.app, admin);
      const uploaded = await uploadPackage(other.app, admin, bytes);
      expect(uploaded.body.successful).toBe(true);
      const { actionId } = await c.post('/v1/app-package/install', { packageId: uploaded.body.data.packageId, sampleData: true });
      await drainJobs(other);
      const done = await c.get('/v1/app-package/install/progress', { actionId });
      // No role or department of those names here: the role is made by name, the department reported unmatched.
      expect(done).toMatchObject({ state: 'Finished', unmatched: ['销售部'] });
      const list = (await c.get(`/v1/functionNode/app/feature/list?appCode=${done.appCode}`)).list as { code: string; displayName: string }[];
      const code = (name: string) => list.find((n) => n.displayName === name)!.code;
      const codes = new Map([[source.customer, code('客户')], [source.order, code('订单')]]);
      const defA = (await a.post('/v1/formdesign/load', { schemaCode: source.order })).published.definition;
      expect((await c.post('/v1/formdesign/load', { schemaCode: code('订单') })).published.definition).toEqual(remapSchemaCodes(defA, codes));
      expect((await sampleDataOf(other.database.db, admin.engineCode, done.appCode)).total).toBe(8);
    } finally {
      await other.close();
    }
  }, 120_000);
});
