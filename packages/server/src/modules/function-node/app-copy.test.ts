import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { FunctionNodeType as T, addMember, createApp, createNode, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { engineDb } from '../../db/database.ts';
import { newId } from '../../lib/ids.ts';
import { copyName } from './app-copy.job.ts';
import { definition, publish, saveDraft } from '../../../test/form-helpers.ts';

// test-databases: both — a copy job writing in batches (docs/testing.md "Runs on both databases").

let t: TestApp;
let admin: Person;
let a: OrgClient;
beforeAll(async () => {
  t = await createTestApp({ config: { copyBatchSize: 7 } });
  admin = await registerPerson(t.app);
  a = nodeClient(t.app, admin);
});
afterAll(() => t.close());

/** An app of `groups` groups of `perGroup` forms each (1 + groups × (1 + perGroup) nodes). */
async function bigApp(groups: number, perGroup: number, name = '大应用') {
  const app = await createApp(a, { displayName: name });
  for (let g = 0; g < groups; g++) {
    const group = await createNode(a, app.code, T.GroupModule, { displayName: `分组${g}` });
    for (let f = 0; f < perGroup; f++) await createNode(a, app.code, T.FormModule, { parentCode: group.code, displayName: `表单${g}-${f}` });
  }
  return app;
}

const edb = () => engineDb(t.database.db, admin.engineCode);
const progress = (client: OrgClient, actionId: string) => client.raw('GET', '/v1/functionnode/copy/progress', { actionId });
/** The tree of an app as names and types, without codes. */
const shape = (list: any[]): unknown => list.map((n) => [n.displayName, n.nodeType, shape(n.children ?? [])]);

describe('copying an app', () => {
  it('names the copy with -副本 within 32 characters', () => {
    expect(copyName('销售管理')).toBe('销售管理-副本');
    expect(copyName('名'.repeat(32))).toBe(`${'名'.repeat(29)}-副本`);
    expect([...copyName('名'.repeat(32))]).toHaveLength(32);
  });

  it('runs as a job: Waiting, then complete with the new app; every node copied with new codes and the same tree', async () => {
    const source = await bigApp(7, 6); // 50 nodes
    const { actionId } = await a.post('/v1/functionnode/copy', { code: source.code });
    const waiting = (await progress(a, actionId)).body.data;
    expect(waiting).toMatchObject({ isComplete: false, state: 'Waiting', progress: 0, node: null });
    expect(await t.app.extras.jobs.runOnce()).toBe(true);
    const done = (await progress(a, actionId)).body.data;
    expect(done).toMatchObject({ isComplete: true, state: 'Finished', progress: 100, attempts: 1 });
    expect(done.node).toMatchObject({ displayName: '大应用-副本', nodeType: 190, appState: 'Normal', source: 'Own', isAdmin: true });
    expect(done.node.code).not.toBe(source.code);
    const list = (await a.get('/v1/functionnode/app/list')).list;
    const original = list.find((x: { code: string }) => x.code === source.code);
    const copy = list.find((x: { code: string }) => x.code === done.node.code);
    expect(shape(copy.children)).toEqual(shape(original.children));
    expect(list.at(-1).code).toBe(copy.code); // appended at the end of the app list
    const rows = await edb().selectFrom('function_nodes').select(['code', 'app_code', 'copy_job_id']).where('app_code', '=', copy.code).execute();
    expect(rows).toHaveLength(50);
    expect(rows.every((r) => r.copy_job_id === null)).toBe(true);
    const sourceCodes = new Set((await edb().selectFrom('function_nodes').select('code').where('app_code', '=', source.code).execute()).map((r) => r.code));
    expect(rows.some((r) => sourceCodes.has(r.code))).toBe(false);
    expect(copy.defaultSchemaCode).not.toBeNull();
  });

  it('copies the designs of the forms as drafts, with associations between its forms pointing to the copies', async () => {
    const app = await createApp(a, { displayName: '订单应用' });
    const customer = await createNode(a, app.code, T.FormModule, { displayName: '客户' });
    const order = await createNode(a, app.code, T.FormModule, { displayName: '订单' });
    await publish(a, customer.code, definition([{ type: 'textBox', code: 'Name1' }], { displayName: '客户' }));
    await saveDraft(a, order.code, definition([{ type: 'associationQuery', code: 'Customer', options: { schemaCode: customer.code } }, { type: 'number', code: 'Amount' }], { displayName: '订单' }));
    const { actionId } = await a.post('/v1/functionnode/copy', { code: app.code });
    expect(await t.app.extras.jobs.runOnce()).toBe(true);
    const copy = (await progress(a, actionId)).body.data.node;
    const copied = await a.get(`/v1/functionNode/app/feature/list?appCode=${copy.code}`);
    const codeOf = (name: string) => copied.list.find((n: { displayName: string }) => n.displayName === name).code;

    const orderCopy = await a.post('/v1/formdesign/load', { schemaCode: codeOf('订单') });
    expect(orderCopy.published).toBeNull();
    expect(orderCopy.draft.version).toBe(1);
    expect(orderCopy.draft.definition.controls.map((c: { code: string }) => c.code)).toEqual(['Customer', 'Amount']);
    expect(orderCopy.draft.definition.controls[0].options.schemaCode).toBe(codeOf('客户'));
    const customerCopy = await a.post('/v1/formdesign/load', { schemaCode: codeOf('客户') });
    expect(customerCopy.draft.definition.controls.map((c: { code: string }) => c.code)).toEqual(['Name1']);
    // The originals are untouched.
    const original = await a.post('/v1/formdesign/load', { schemaCode: order.code });
    expect(original.draft.definition.controls[0].options.schemaCode).toBe(customer.code);
  });

  it('the copy carries the grants, so a sub-administrator administers the copy of their app', async () => {
    const sub = await addMember(t, admin, { name: '子管理员', authType: 2 });
    const source = await bigApp(1, 2, '子管理员的应用');
    await grant(a, source.code, sub.userId, 'administrator');
    const s = nodeClient(t.app, sub);
    const { actionId } = await s.post('/v1/functionnode/copy', { code: source.code });
    await t.app.extras.jobs.runOnce();
    const done = (await progress(s, actionId)).body.data;
    expect(done.node).toMatchObject({ displayName: '子管理员的应用-副本', isAdmin: true });
    expect((await s.get('/v1/functionnode/app/hascode/list')).codes).toEqual([source.code, done.node.code]);
    // Someone else's job is not theirs to read.
    const other = await addMember(t, admin, { name: '旁人' });
    expect((await progress(nodeClient(t.app, other), actionId)).body).toMatchObject({ errorCode: 230007 });
    const stranger = await registerPerson(t.app);
    expect((await progress(nodeClient(t.app, stranger), actionId)).status).toBe(404);
  });

  it('what a dead attempt left stays invisible, and the retry starts clean: exactly one complete copy', async () => {
    const source = await bigApp(3, 4); // 16 nodes
    const before = (await a.get('/v1/functionnode/app/list')).list.length;
    const { actionId } = await a.post('/v1/functionnode/copy', { code: source.code });
    // A worker claimed the job, wrote part of a copy and died.
    const leftovers = Array.from({ length: 5 }, (_, i) => ({
      code: `Dead_${i}_${actionId.slice(-6)}`,
      object_id: newId(),
      parent_code: i === 0 ? null : `Dead_0_${actionId.slice(-6)}`,
      app_code: `Dead_0_${actionId.slice(-6)}`,
      display_name: i === 0 ? '大应用-副本' : `残留${i}`,
      node_type: i === 0 ? T.AppPackage : T.FormModule,
      copy_job_id: actionId,
    }));
    await edb().insertInto('function_nodes').values(leftovers).execute();
    await t.database.db.updateTable('platform.jobs').set({ state: 'Timeout', attempts: 1, progress: 40 }).where('id', '=', actionId).execute();
    expect((await a.get('/v1/functionnode/app/list')).list.length).toBe(before);
    expect((await a.post('/v1/functionnode/list/bycodes', { codes: [leftovers[0].code] })).list).toEqual([]);
    expect((await progress(a, actionId)).body.data).toMatchObject({ isComplete: false, state: 'Timeout' });

    const retried = await a.post('/v1/functionnode/copy/retry', { actionId });
    expect(retried).toMatchObject({ state: 'Waiting', progress: 0 });
    await t.app.extras.jobs.runOnce();
    const done = (await progress(a, actionId)).body.data;
    expect(done).toMatchObject({ isComplete: true, state: 'Finished', attempts: 2 });
    const list = (await a.get('/v1/functionnode/app/list')).list;
    expect(list.length).toBe(before + 1);
    expect(list.filter((x: { displayName: string }) => x.displayName === '大应用-副本').map((x: { code: string }) => x.code)).toContain(done.node.code);
    expect(await edb().selectFrom('function_nodes').select('code').where('copy_job_id', 'is not', null).execute()).toEqual([]);
    expect(await edb().selectFrom('function_nodes').select('code').where('code', 'like', 'Dead_%').execute()).toEqual([]);
    expect((await edb().selectFrom('function_nodes').select('code').where('app_code', '=', done.node.code).execute()).length).toBe(16);
    expect((await a.raw('POST', '/v1/functionnode/copy/retry', { actionId })).body).toMatchObject({ errorCode: 230008 });
  });

  it('removing the source app before the job runs ends the copy Failed, leaving nothing', async () => {
    const source = await bigApp(1, 1);
    const { actionId } = await a.post('/v1/functionnode/copy', { code: source.code });
    await a.post('/v1/functionnode/remove', { code: source.code });
    await t.app.extras.jobs.runOnce();
    expect((await progress(a, actionId)).body.data).toMatchObject({ isComplete: false, state: 'Failed', node: null });
    expect(await edb().selectFrom('function_nodes').select('code').where('copy_job_id', '=', actionId).execute()).toEqual([]);
  });

  it('answers an unknown action id as not found', async () => {
    expect((await progress(a, newId())).body).toMatchObject({ errorCode: 230007 });
  });
});
