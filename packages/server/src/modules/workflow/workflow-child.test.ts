import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { type TestApp } from '../../../test/helpers.ts';
import { FunctionNodeType, addInvitedMember, nodeClient, type InvitedMember, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, engineSql, publish, tableRef } from '../../../test/form-helpers.ts';

// test-databases: both — locks taken root first (docs/testing.md "Runs on both databases").

// Child flows (子流程), hand signatures and revisions (docs/decisions/0024) through the engine's calls, on PGlite and
// PostgreSQL: a ChildInstance node makes a record of another workflow form from mapped values and starts its flow;
// the parent waits for it (or not), moves on when it is agreed, goes back when it is vetoed, and cancels it when the
// parent stops waiting. A node may require a hand signature on Submit and Reject. An app administrator revises
// (修订) the record of a running or agreed flow without moving it.

let t: TestApp, admin: Person, a: OrgClient, appCode: string;
const members: { person: InvitedMember; c: OrgClient }[] = [];
let parentCode: string, childCode: string;

const S = { type: 'Start', code: 'Start', name: '发起' };
const E = { type: 'End', code: 'End', name: '结束' };
const users = (...ids: string[]) => ({ sources: [{ type: 'users', ids }] });
const line = (...nodes: Record<string, unknown>[]) => {
  const activities = [S, ...nodes, E] as { code: string }[];
  return { activities, routes: activities.slice(1).map((n, i) => ({ from: activities[i].code, to: n.code })) };
};
const m = (i: number) => members[i];
const uid = (i: number) => members[i].person.userId;

beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
  for (let i = 0; i < 3; i++) {
    const person = await addInvitedMember(t, admin, { name: `成员${i}` });
    members.push({ person, c: nodeClient(t.app, person) });
  }
  parentCode = (await createForm(a, appCode, { displayName: '采购申请' }, FunctionNodeType.WorkflowModule)).code;
  await publish(a, parentCode, definition([{ type: 'textBox', code: 'Title' }, { type: 'number', code: 'Amount', options: { decimalPlaces: 2 } }]));
  childCode = (await createForm(a, appCode, { displayName: '付款单' }, FunctionNodeType.WorkflowModule)).code;
  await publish(a, childCode, definition([{ type: 'textBox', code: 'Subject' }, { type: 'number', code: 'Cost', options: { decimalPlaces: 2 } }]));
});
afterAll(() => t.close());

async function publishTemplate(schemaCode: string, template: unknown): Promise<void> {
  await a.post('/v1/workflow/template/save', { schemaCode, template });
  await a.post('/v1/workflow/template/publish', { schemaCode });
}

const child = (extra: Record<string, unknown> = {}) => ({ type: 'ChildInstance', code: 'Pay', name: '付款子流程', childSchemaCode: childCode, dataMaps: [{ from: 'Title', to: 'Subject' }, { from: 'Amount', to: 'Cost' }], ...extra });

async function submitParent(values: Record<string, unknown>) {
  const saved = await a.post('/v1/form/action/execute', { schemaCode: parentCode, actionCode: 'Submit', values });
  const info = await a.get('/v1/workflow/instance/info', { schemaCode: parentCode, objectId: saved.objectId });
  return { objectId: saved.objectId as string, id: info.instance.instanceId as string, info };
}

async function childrenOf(parentId: string) {
  return engineSql<{ id: string; object_id: string; state: string; approval: number; originator: string; parent_token_id: string }>(
    t,
    sql`select id, object_id, state, approval, originator, parent_token_id from ${tableRef(admin.engineCode, 'wf_instances')} where parent_instance_id = ${parentId} order by created_time`,
  );
}
async function recordOf(schemaCode: string, objectId: string) {
  const rows = await engineSql<Record<string, unknown>>(t, sql`select * from ${tableRef(admin.engineCode, `i_${schemaCode.toLowerCase()}`)} where "ObjectId" = ${objectId}`);
  return rows[0];
}
const info = (c: OrgClient, instanceId: string) => c.get('/v1/workflow/instance/info', { instanceId });
async function myItem(c: OrgClient, instanceId: string): Promise<string> {
  const r = await info(c, instanceId);
  if (!r.myItems.length) throw new Error('no open item');
  return r.myItems[0].workItemId;
}

describe('child flows', () => {
  it('publish refuses a child node without a form, a form that is not a workflow form, and mappings of different types', async () => {
    const missing = await a.post('/v1/workflow/template/save', { schemaCode: parentCode, template: line({ type: 'ChildInstance', code: 'Pay', name: '付款' }) });
    expect(missing.issues.map((i: { rule: string }) => i.rule)).toContain('childFormMissing');
    const dataForm = (await createForm(a, appCode, {}, FunctionNodeType.FormModule)).code;
    await publish(a, dataForm, definition([{ type: 'textBox', code: 'X' }]));
    const notWorkflow = await a.post('/v1/workflow/template/save', { schemaCode: parentCode, template: line(child({ childSchemaCode: dataForm })) });
    expect(notWorkflow.issues.map((i: { rule: string }) => i.rule)).toContain('childFormInvalid');
    const badMap = await a.post('/v1/workflow/template/save', { schemaCode: parentCode, template: line(child({ dataMaps: [{ from: 'Title', to: 'Cost' }, { from: 'Nope', to: 'Subject' }] })) });
    expect(badMap.issues.map((i: { rule: string }) => i.rule).sort()).toEqual(['childMapType', 'unknownField']);
    expect((await a.raw('POST', '/v1/workflow/template/publish', { schemaCode: parentCode })).body).toMatchObject({ successful: false, errorCode: 280002 });
  });

  it('the parent waits: the child record carries the mapped values; the child agreed moves the parent on', async () => {
    await publishTemplate(childCode, line({ type: 'Approve', code: 'Cashier', name: '出纳', participants: users(uid(0)), disapproveTarget: { type: 'rejectFlow' } }));
    await publishTemplate(parentCode, line(child(), { type: 'Approve', code: 'Boss', name: '经理', participants: users(uid(1)) }));
    const parent = await submitParent({ Title: '办公电脑', Amount: 8800 });
    expect(parent.info.instance.runningActivities).toEqual(['Pay']);
    const [kid] = await childrenOf(parent.id);
    expect(kid).toMatchObject({ state: 'Running', originator: parent.info.instance.originator });
    expect(await recordOf(childCode, kid.object_id)).toMatchObject({ Subject: '办公电脑', Status: 2 });
    expect(Number((await recordOf(childCode, kid.object_id)).Cost)).toBe(8800);
    // The waiting item is nobody's todo; the cashier has one on the child.
    expect((await a.get('/v1/workflow/todos/count')).todo).toBe(0);
    expect((await m(0).c.get('/v1/workflow/todos/count')).todo).toBe(1);
    await m(0).c.post('/v1/workflow/instance/submit', { workItemId: await myItem(m(0).c, kid.id), opinion: { text: '已付' } });
    expect((await childrenOf(parent.id))[0]).toMatchObject({ state: 'Finished', approval: 1 });
    expect((await info(a, parent.id)).instance.runningActivities).toEqual(['Boss']);
    const detail = await a.get('/v1/workflow/instance/detail', { instanceId: parent.id });
    expect(detail.items.find((i: { itemType: string }) => i.itemType === 'childInstance')).toMatchObject({ state: 'Finished', approval: 1 });
    await m(1).c.post('/v1/workflow/instance/submit', { workItemId: await myItem(m(1).c, parent.id) });
    expect((await info(a, parent.id)).instance.state).toBe('Finished');
    expect((await recordOf(parentCode, parent.objectId)).Status).toBe(1);
  });

  it('the child vetoed sends the parent back to the node before; cancelling the parent cancels the child it waits for', async () => {
    const parent = await submitParent({ Title: '打印机', Amount: 1200 });
    const [kid] = await childrenOf(parent.id);
    await m(0).c.post('/v1/workflow/instance/reject', { workItemId: await myItem(m(0).c, kid.id), opinion: { text: '预算不足' } });
    expect((await childrenOf(parent.id))[0]).toMatchObject({ state: 'Finished', approval: 0 });
    const back = await info(a, parent.id);
    expect(back.instance.runningActivities).toEqual(['Start']);
    expect(back.myItems).toHaveLength(1);
    // Resubmitting starts a second child; cancelling the parent then cancels it and its record.
    await a.post('/v1/workflow/instance/submit', { workItemId: back.myItems[0].workItemId });
    const kids = await childrenOf(parent.id);
    expect(kids.map((k) => k.state)).toEqual(['Finished', 'Running']);
    await a.post('/v1/workflow/instance/cancel', { instanceId: parent.id, opinion: { text: '不买了' } });
    expect((await childrenOf(parent.id)).map((k) => k.state)).toEqual(['Finished', 'Canceled']);
    expect((await recordOf(childCode, kids[1].object_id)).Status).toBe(3);
    expect((await m(0).c.get('/v1/workflow/todos/count')).todo).toBe(0);
  });

  it('a child the parent does not wait for runs on its own; a child that ends at once moves the parent in the same call', async () => {
    await publishTemplate(parentCode, line(child({ wait: false }), { type: 'Approve', code: 'Boss', name: '经理', participants: users(uid(1)) }));
    const parent = await submitParent({ Title: '椅子', Amount: 300 });
    expect(parent.info.instance.runningActivities).toEqual(['Boss']);
    expect((await childrenOf(parent.id))[0].state).toBe('Running');
    // A child form whose flow passes by itself ends inside the parent's call.
    await publishTemplate(childCode, line({ type: 'Approve', code: 'Auto', name: '自动', participants: { sources: [{ type: 'field', code: 'Subject' }], whenEmpty: 'autoPass' } }));
    await publishTemplate(parentCode, line(child(), { type: 'Approve', code: 'Boss', name: '经理', participants: users(uid(1)) }));
    const quick = await submitParent({ Title: '', Amount: 1 });
    expect(quick.info.instance.runningActivities).toEqual(['Boss']);
    expect((await childrenOf(quick.id))[0]).toMatchObject({ state: 'Finished', approval: 1 });
  });

  it.runIf(process.env.TEST_DB_KIND === 'postgres')('a countersign passed by everyone at once starts its child once; the last vote answers the parent as the child left it', async () => {
    await publishTemplate(childCode, line({ type: 'Approve', code: 'Auto', name: '自动', participants: { sources: [{ type: 'field', code: 'Subject' }], whenEmpty: 'autoPass' } }));
    const sign = { type: 'Approve', code: 'Sign', name: '会签', participants: users(uid(0), uid(1), uid(2)), approveExit: { type: 'percentage', value: 100 } };
    await publishTemplate(parentCode, line(sign, child(), { type: 'Approve', code: 'Boss', name: '经理', participants: users(uid(1)) }));
    const parent = await submitParent({ Title: '', Amount: 5 });
    const items = await Promise.all([0, 1, 2].map((i) => myItem(m(i).c, parent.id)));
    const answers = await Promise.all([0, 1, 2].map((i) => m(i).c.raw('POST', '/v1/workflow/instance/submit', { workItemId: items[i], opinion: { text: '同意' } })));
    expect(answers.map((r) => r.body.successful)).toEqual([true, true, true]);
    // Exactly one vote moved the node on: its answer shows the parent already at Boss (the child ended at once).
    const moved = answers.filter((r) => r.body.data.runningActivities?.includes('Boss'));
    expect(moved).toHaveLength(1);
    const children = await childrenOf(parent.id);
    expect(children).toHaveLength(1);
    expect(children[0]).toMatchObject({ state: 'Finished', approval: 1 });
    expect((await info(a, parent.id)).instance.runningActivities).toEqual(['Boss']);
  });

  it('the child\'s start waits in the originator\'s todo when the node does not finish it', async () => {
    await publishTemplate(childCode, line({ type: 'Approve', code: 'Cashier', name: '出纳', participants: users(uid(0)) }));
    await publishTemplate(parentCode, line(child({ finishStart: false })));
    const parent = await submitParent({ Title: '桌子', Amount: 500 });
    const [kid] = await childrenOf(parent.id);
    expect(kid.state).toBe('Starting');
    expect((await a.get('/v1/workflow/todos/count')).todo).toBe(1);
    await a.post('/v1/workflow/instance/submit', { workItemId: await myItem(a, kid.id) });
    expect((await childrenOf(parent.id))[0].state).toBe('Running');
    await m(0).c.post('/v1/workflow/instance/submit', { workItemId: await myItem(m(0).c, kid.id) });
    expect((await info(a, parent.id)).instance.state).toBe('Finished');
  });
});

describe('hand signatures', () => {
  it('a node requiring one refuses Submit and Reject without it; the config answers the mode and the last signature', async () => {
    await publishTemplate(parentCode, line({ type: 'Approve', code: 'Boss', name: '经理', participants: users(uid(2)), handSign: 'required' }, { type: 'Approve', code: 'Lead', name: '主管', participants: users(uid(2)), handSign: 'none' }));
    const parent = await submitParent({ Title: '投影仪', Amount: 6000 });
    const item = await myItem(m(2).c, parent.id);
    expect(await m(2).c.get('/v1/workflow/handsign/config', { workItemId: item })).toEqual({ mode: 'required', lastSignature: null });
    for (const path of ['/v1/workflow/instance/submit', '/v1/workflow/instance/reject']) {
      const refused = await m(2).c.raw('POST', path, { workItemId: item, opinion: { text: '同意' } });
      expect(refused.body).toMatchObject({ successful: false, errorCode: 280015 });
    }
    expect((await info(a, parent.id)).instance.runningActivities).toEqual(['Boss']);
    const signature = 'data:image/png;base64,iVBORw0KGgo=';
    await m(2).c.post('/v1/workflow/instance/submit', { workItemId: item, opinion: { text: '同意', signature } });
    const next = await myItem(m(2).c, parent.id);
    expect(await m(2).c.get('/v1/workflow/handsign/config', { workItemId: next })).toEqual({ mode: 'none', lastSignature: signature });
    // Not the caller's item: not found.
    expect((await m(1).c.raw('GET', `/v1/workflow/handsign/config?workItemId=${next}`)).body).toMatchObject({ successful: false, errorCode: 280006 });
  });
});

describe('revise (修订)', () => {
  it('an administrator changes a running flow\'s record without moving it; the trace keeps the entry; members are refused', async () => {
    await publishTemplate(parentCode, line({ type: 'Approve', code: 'Boss', name: '经理', participants: users(uid(1)) }));
    const parent = await submitParent({ Title: '显示器', Amount: 2000 });
    expect((await info(a, parent.id)).instanceActions).toContain('Revise');
    expect((await info(m(1).c, parent.id)).instanceActions).not.toContain('Revise');
    const refused = await m(1).c.raw('POST', '/v1/workflow/instance/revise', { instanceId: parent.id, values: { Amount: 1 } });
    expect(refused.body).toMatchObject({ successful: false, errorCode: 280017 });
    const bad = await a.raw('POST', '/v1/workflow/instance/revise', { instanceId: parent.id, values: { Amount: 'abc' } });
    expect(bad.body).toMatchObject({ successful: false, errorCode: 777 });
    await a.post('/v1/workflow/instance/revise', { instanceId: parent.id, values: { Amount: 1800 }, opinion: { text: '按报价单修正金额' } });
    const row = await recordOf(parentCode, parent.objectId);
    expect([Number(row.Amount), row.Status, row.Title]).toEqual([1800, 2, '显示器']);
    expect((await info(a, parent.id)).instance.runningActivities).toEqual(['Boss']);
    const detail = await a.get('/v1/workflow/instance/detail', { instanceId: parent.id });
    expect(detail.comments.find((c: { action: string }) => c.action === 'revise')).toMatchObject({ text: '按报价单修正金额' });
    // An agreed flow stays Effective when revised; a cancelled one is not revised.
    await m(1).c.post('/v1/workflow/instance/submit', { workItemId: await myItem(m(1).c, parent.id) });
    await a.post('/v1/workflow/instance/revise', { instanceId: parent.id, values: { Title: '显示器（两台）' } });
    expect(await recordOf(parentCode, parent.objectId)).toMatchObject({ Title: '显示器（两台）', Status: 1 });
    const other = await submitParent({ Title: '音箱', Amount: 100 });
    await a.post('/v1/workflow/instance/cancel', { instanceId: other.id });
    expect((await a.raw('POST', '/v1/workflow/instance/revise', { instanceId: other.id, values: { Amount: 2 } })).body).toMatchObject({ successful: false, errorCode: 280009 });
  });
});
