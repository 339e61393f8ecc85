import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { registerPerson, type TestApp } from '../../../test/helpers.ts';
import { FunctionNodeType, addInvitedMember, createRole, grant, nodeClient, type InvitedMember, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, engineSql, publish, tableRef } from '../../../test/form-helpers.ts';
import { companyIdOf } from '../../../test/org-helpers.ts';

// test-databases: both — instance locks under concurrent actions (docs/testing.md "Runs on both databases").

// The workflow engine through its calls (docs/decisions/0014) on PGlite and PostgreSQL: templates versioned and
// validated, the record's status following the flow, participants from the organisation and the form, condition
// branches, every instance action, engines kept apart, and two approvers acting at once.

let t: TestApp, admin: Person, a: OrgClient, appCode: string;
let adminId: string;
const members: { person: InvitedMember; c: OrgClient }[] = [];
let formCode: string;

const FORM = definition([
  { type: 'textBox', code: 'Title' },
  { type: 'number', code: 'Amount', options: { decimalPlaces: 2 } },
  { type: 'user', code: 'Approver' },
]);

const S = { type: 'Start', code: 'Start', name: '发起' };
const E = { type: 'End', code: 'End', name: '结束' };
const users = (...ids: string[]) => ({ sources: [{ type: 'users', ids }] });
const line = (...nodes: Record<string, unknown>[]) => {
  const activities = [S, ...nodes, E] as { code: string }[];
  return { activities, routes: activities.slice(1).map((n, i) => ({ from: activities[i].code, to: n.code })) };
};

beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
  for (let i = 0; i < 5; i++) {
    const person = await addInvitedMember(t, admin, { name: `成员${i}` });
    members.push({ person, c: nodeClient(t.app, person) });
  }
  formCode = (await createForm(a, appCode, { displayName: '报销单' }, FunctionNodeType.WorkflowModule)).code;
  await publish(a, formCode, FORM);
  adminId = (await a.post('/v1/form/loaddata', { schemaCode: formCode })).system.CreatedBy;
});
afterAll(() => t.close());

const m = (i: number) => members[i];
const uid = (i: number) => members[i].person.userId;

async function publishTemplate(template: unknown, schemaCode = formCode): Promise<number> {
  await a.post('/v1/workflow/template/save', { schemaCode, template });
  return (await a.post('/v1/workflow/template/publish', { schemaCode })).version;
}

async function newRecord(values: Record<string, unknown> = {}, client: OrgClient = a, schemaCode = formCode): Promise<string> {
  return (await client.post('/v1/form/action/execute', { schemaCode, actionCode: 'Save', values: { Title: '差旅', ...values } })).objectId;
}

async function startFlow(values: Record<string, unknown> = {}, client: OrgClient = a) {
  const objectId = await newRecord(values, client);
  const instance = await client.post('/v1/workflow/instance/start', { schemaCode: formCode, objectId, opinion: { text: '请审批' } });
  return { objectId, instance, id: instance.instanceId as string };
}

const info = (c: OrgClient, instanceId: string) => c.get('/v1/workflow/instance/info', { instanceId });
async function myItem(c: OrgClient, instanceId: string): Promise<string> {
  const r = await info(c, instanceId);
  if (!r.myItems.length) throw new Error('no open item');
  return r.myItems[0].workItemId;
}
const submit = async (c: OrgClient, instanceId: string, text = '同意') => c.post('/v1/workflow/instance/submit', { workItemId: await myItem(c, instanceId), opinion: { text } });
const reject = async (c: OrgClient, instanceId: string) => c.post('/v1/workflow/instance/reject', { workItemId: await myItem(c, instanceId), opinion: { text: '不同意' } });

async function recordOf(objectId: string, schemaCode = formCode) {
  const rows = await engineSql<{ Status: number; WorkflowInstanceId: string | null }>(
    t,
    sql`select "Status", "WorkflowInstanceId" from ${tableRef(admin.engineCode, `i_${schemaCode.toLowerCase()}`)} where "ObjectId" = ${objectId}`,
  );
  return rows[0];
}

describe('templates', () => {
  it('save answers the validator\'s issues; publish refuses an invalid design and publishes versions', async () => {
    const bad = { activities: [S, { type: 'Approve', code: 'A', name: '审批', participants: { sources: [] } }], routes: [{ from: 'Start', to: 'A' }, { from: 'A', to: 'Amount' }] };
    const saved = await a.post('/v1/workflow/template/save', { schemaCode: formCode, template: bad });
    expect(saved.issues.map((i: { rule: string }) => i.rule)).toEqual(expect.arrayContaining(['oneEnd', 'participantsMissing', 'routeUnknownNode']));
    const refused = await a.raw('POST', '/v1/workflow/template/publish', { schemaCode: formCode });
    expect(refused.body).toMatchObject({ successful: false, errorCode: 280002 });
    expect(refused.body.detail.issues.map((i: { rule: string }) => i.rule)).toContain('oneEnd');

    const cond = line({ type: 'Approve', code: 'A', name: '审批', participants: users(uid(0)) });
    const withUnknownField = {
      activities: [S, { type: 'Condition', code: 'C', name: '条件' }, { type: 'Approve', code: 'A', name: '审批', participants: users(uid(0)) }, E],
      routes: [
        { from: 'Start', to: 'C' },
        { from: 'C', to: 'A', condition: { rules: [{ field: 'Nope', operator: 'gt', value: 1 }] } },
        { from: 'C', to: 'End', isElse: true },
        { from: 'A', to: 'End' },
      ],
    };
    expect((await a.post('/v1/workflow/template/save', { schemaCode: formCode, template: withUnknownField })).issues).toEqual([expect.objectContaining({ rule: 'unknownField' })]);

    const v1 = await publishTemplate(cond);
    const v2 = await publishTemplate(cond);
    expect(v2).toBe(v1 + 1);
    const loaded = await a.get('/v1/workflow/template/load', { schemaCode: formCode });
    expect(loaded.publishedVersion).toBe(v2);
  });

  it('only app administrators design; only workflow forms have a workflow', async () => {
    const r = await m(0).c.raw('POST', '/v1/workflow/template/save', { schemaCode: formCode, template: line() });
    expect([r.body.errorCode, r.status]).toSatisfy(([code, status]: number[]) => code === 280008 || status === 404);
    const dataForm = (await createForm(a, appCode, {}, FunctionNodeType.FormModule)).code;
    await publish(a, dataForm, FORM);
    const d = await a.raw('POST', '/v1/workflow/template/save', { schemaCode: dataForm, template: line() });
    expect(d.body.errorCode).toBe(280001);
  });

  it('a running instance keeps the version it started on', async () => {
    const v1 = await publishTemplate(line({ type: 'Approve', code: 'A', name: '一审', participants: users(uid(0)) }));
    const first = await startFlow();
    const v2 = await publishTemplate(line({ type: 'Approve', code: 'A', name: '一审', participants: users(uid(0)) }, { type: 'Approve', code: 'B', name: '二审', participants: users(uid(1)) }));
    expect(first.instance.version).toBe(v1);
    await submit(m(0).c, first.id);
    expect((await info(a, first.id)).instance).toMatchObject({ state: 'Finished', version: v1 });
    const second = await startFlow();
    expect(second.instance.version).toBe(v2);
  });
});

describe('start, approve and the record status', () => {
  it('start makes the record Running, approvals move todos, End makes it Effective; the trace keeps every opinion', async () => {
    await publishTemplate(line({ type: 'Approve', code: 'A', name: '主管审批', participants: users(uid(0), uid(1)) }));
    const before = await m(0).c.get('/v1/workflow/todos/count');
    const { objectId, instance, id } = await startFlow();
    expect(instance).toMatchObject({ state: 'Running', approval: -1, runningActivities: ['A'], originator: adminId });
    expect(await recordOf(objectId)).toEqual({ Status: 2, WorkflowInstanceId: id });
    expect((await m(0).c.get('/v1/workflow/todos/count')).todo).toBe(before.todo + 1);
    expect((await a.get('/v1/workflow/todos/unfinished/count')).count).toBeGreaterThanOrEqual(1);

    const mine = await info(m(0).c, id);
    expect(mine.myItems).toEqual([expect.objectContaining({ activityCode: 'A', activityName: '主管审批', itemType: 'approve', actions: ['Submit', 'Reject'] })]);
    await submit(m(0).c, id, '同意一');
    expect(await recordOf(objectId)).toMatchObject({ Status: 2 });
    await submit(m(1).c, id, '同意二');
    expect(await recordOf(objectId)).toMatchObject({ Status: 1 });
    expect((await m(0).c.get('/v1/workflow/todos/count')).todo).toBe(before.todo);

    const detail = await a.get('/v1/workflow/instance/detail', { instanceId: id });
    expect(detail.instance).toMatchObject({ state: 'Finished', approval: 1 });
    expect(detail.tokens.map((x: { activityCode: string; state: string }) => `${x.activityCode}:${x.state}`)).toEqual(['Start:Finished', 'A:Finished', 'End:Finished']);
    expect(detail.comments.map((c: { action: string; text: string }) => `${c.action}:${c.text}`)).toEqual(['start:请审批', 'submit:', 'submit:同意一', 'submit:同意二']);
    const acts = await a.get('/v1/workflow/instance/activity/list', { instanceId: id });
    expect(acts.activities.map((x: { code: string; status: string }) => `${x.code}:${x.status}`)).toEqual(['Start:Finished', 'A:Finished', 'End:Finished']);
    const people = await a.get('/v1/workflow/instance/participant/list', { instanceId: id, activityCode: 'A' });
    expect(people).toMatchObject({ source: 'activated', participants: [{ userId: uid(0), name: '成员0' }, { userId: uid(1), name: '成员1' }] });
    // by record
    expect((await a.get('/v1/workflow/instance/info', { schemaCode: formCode, objectId })).instance.instanceId).toBe(id);
  });

  it('start needs a Draft record of the caller, once; submit:false leaves the instance Starting', async () => {
    await publishTemplate(line({ type: 'Approve', code: 'A', name: '审批', participants: users(uid(0)) }));
    const { objectId } = await startFlow();
    const again = await a.raw('POST', '/v1/workflow/instance/start', { schemaCode: formCode, objectId });
    expect(again.body.errorCode).toBe(280005);
    const draft = await newRecord();
    const starting = await a.post('/v1/workflow/instance/start', { schemaCode: formCode, objectId: draft, submit: false });
    expect(starting.state).toBe('Starting');
    expect(await recordOf(draft)).toMatchObject({ Status: 0 });
    await submit(a, starting.instanceId);
    expect(await recordOf(draft)).toMatchObject({ Status: 2 });
  });
});

describe('participants', () => {
  it('roles, the originator\'s manager chain, department managers and a user field', async () => {
    const company = await companyIdOf(t, admin.engineCode);
    const org = nodeClient(t.app, admin);
    const top = await org.post('/v1/org/department/create', { parentId: company, name: `总部${Date.now() % 100000}`, managerId: uid(3) });
    const team = await org.post('/v1/org/department/create', { parentId: top.id, name: '小组', managerId: uid(2) });
    const originator = await addInvitedMember(t, admin, { name: '发起人', departmentIds: [team.id] });
    await grant(a, formCode, originator.userId, 'create');
    const oc = nodeClient(t.app, originator);
    const role = await createRole(t, admin, [uid(4)]);
    await publishTemplate(
      line(
        { type: 'Approve', code: 'R', name: '角色', participants: { sources: [{ type: 'roles', ids: [role] }] } },
        { type: 'Approve', code: 'M', name: '主管链', participateMethod: 'serial', participants: { sources: [{ type: 'originatorManager', levels: 2 }] } },
        { type: 'Approve', code: 'D', name: '部门主管', participants: { sources: [{ type: 'departments', ids: [top.id], pick: 'manager' }] } },
        { type: 'Approve', code: 'F', name: '字段', participants: { sources: [{ type: 'field', code: 'Approver' }] } },
      ),
    );
    const { id } = await startFlow({ Approver: uid(1) }, oc);
    const who = async (code: string) => (await a.get('/v1/workflow/instance/participant/list', { instanceId: id, activityCode: code })).participants.map((p: { userId: string }) => p.userId);
    expect(await who('R')).toEqual([uid(4)]);
    expect(await who('M')).toEqual([uid(2), uid(3)]);
    expect(await who('D')).toEqual([uid(3)]);
    expect(await who('F')).toEqual([uid(1)]);
    await submit(m(4).c, id);
    expect((await info(m(2).c, id)).myItems).toHaveLength(1);
    // Not a participant yet and no grant on the form: the instance is not theirs to read.
    expect((await m(3).c.raw('GET', '/v1/workflow/instance/info', { instanceId: id })).body.errorCode).toBe(280004);
    await submit(m(2).c, id);
    await submit(m(3).c, id);
    await submit(m(3).c, id);
    await submit(m(1).c, id);
    expect((await info(oc, id)).instance.state).toBe('Finished');
  });

  it('nobody found: to the administrator, or passed automatically', async () => {
    await publishTemplate(
      line(
        { type: 'Approve', code: 'Auto', name: '自动', participants: { sources: [{ type: 'field', code: 'Approver' }], whenEmpty: 'autoPass' } },
        { type: 'Approve', code: 'Adm', name: '管理员', participants: { sources: [{ type: 'field', code: 'Approver' }] } },
      ),
    );
    const { id } = await startFlow({ Approver: null });
    const detail = await a.get('/v1/workflow/instance/detail', { instanceId: id });
    expect(detail.tokens.find((x: { activityCode: string }) => x.activityCode === 'Auto')).toMatchObject({ state: 'Finished', skipped: true, actionEvent: 'automatic' });
    expect((await info(a, id)).myItems).toEqual([expect.objectContaining({ activityCode: 'Adm' })]);
  });
});

describe('branches over HTTP', () => {
  it('a condition on the amount with an else; a parallel split joined once', async () => {
    await publishTemplate({
      activities: [
        S,
        { type: 'Condition', code: 'C', name: '金额' },
        { type: 'Parallel', code: 'P', name: '会签' },
        { type: 'Approve', code: 'X', name: '财务', participants: users(uid(0)) },
        { type: 'Approve', code: 'Y', name: '法务', participants: users(uid(1)) },
        { type: 'Join', code: 'J', name: '汇聚' },
        { type: 'Approve', code: 'Small', name: '主管', participants: users(uid(2)) },
        E,
      ],
      routes: [
        { from: 'Start', to: 'C' },
        { from: 'C', to: 'P', condition: { rules: [{ field: 'Amount', operator: 'gte', value: 1000 }] } },
        { from: 'C', to: 'Small', isElse: true },
        { from: 'P', to: 'X' },
        { from: 'P', to: 'Y' },
        { from: 'X', to: 'J' },
        { from: 'Y', to: 'J' },
        { from: 'J', to: 'End' },
        { from: 'Small', to: 'End' },
      ],
    });
    const small = await startFlow({ Amount: 999.99 });
    expect(small.instance.runningActivities).toEqual(['Small']);
    const big = await startFlow({ Amount: 1000 });
    expect([...big.instance.runningActivities].sort()).toEqual(['X', 'Y']);
    await submit(m(0).c, big.id);
    expect((await info(a, big.id)).instance.state).toBe('Running');
    await submit(m(1).c, big.id);
    const detail = await a.get('/v1/workflow/instance/detail', { instanceId: big.id });
    expect(detail.tokens.filter((x: { activityCode: string }) => x.activityCode === 'J')).toHaveLength(1);
    expect(detail.instance.state).toBe('Finished');
  });

  it('a formula condition routes on the record\'s values; publish refuses a formula over a field the form lacks', async () => {
    const template = (formula: string) => ({
      activities: [S, { type: 'Condition', code: 'C', name: '判断' }, { type: 'Approve', code: 'Boss', name: '总经理', participants: users(uid(3)) }, { type: 'Approve', code: 'Lead', name: '主管', participants: users(uid(2)) }, E],
      routes: [
        { from: 'Start', to: 'C' },
        { from: 'C', to: 'Boss', formula },
        { from: 'C', to: 'Lead', isElse: true },
        { from: 'Boss', to: 'End' },
        { from: 'Lead', to: 'End' },
      ],
    });
    const saved = await a.post('/v1/workflow/template/save', { schemaCode: formCode, template: template('{Amont} > 5000') });
    expect(saved.issues).toEqual([expect.objectContaining({ rule: 'unknownField', activity: 'C' })]);
    expect((await a.raw('POST', '/v1/workflow/template/publish', { schemaCode: formCode })).body).toMatchObject({ successful: false, errorCode: 280002 });
    expect((await a.post('/v1/workflow/template/save', { schemaCode: formCode, template: template('{Amount} >') })).issues).toEqual([expect.objectContaining({ rule: 'formulaInvalid' })]);
    await publishTemplate(template('OR({Amount} > 5000, CONTAINS({Title}, "紧急"))'));
    expect((await startFlow({ Amount: 6000 })).instance.runningActivities).toEqual(['Boss']);
    expect((await startFlow({ Amount: 10, Title: '紧急采购' })).instance.runningActivities).toEqual(['Boss']);
    expect((await startFlow({ Amount: 10, Title: '采购' })).instance.runningActivities).toEqual(['Lead']);
  });
});

describe('instance actions over HTTP', () => {
  const flow = () =>
    publishTemplate(
      line(
        { type: 'Approve', code: 'A', name: '一审', participants: users(uid(0)), permittedActions: ['forward', 'addSigner', 'consult', 'sendBack'] },
        { type: 'Approve', code: 'B', name: '二审', participants: users(uid(1)), permittedActions: ['sendBack'], disapproveTarget: { type: 'rejectFlow' } },
      ),
    );

  it('reject the flow: Finished with approval 0 and the record Canceled; reactivate makes it Running again', async () => {
    await flow();
    const { id, objectId } = await startFlow();
    await submit(m(0).c, id);
    await reject(m(1).c, id);
    expect((await info(a, id)).instance).toMatchObject({ state: 'Finished', approval: 0 });
    expect(await recordOf(objectId)).toMatchObject({ Status: 3 });
    const refused = await m(0).c.raw('POST', '/v1/workflow/instance/reactivate', { instanceId: id, activityCode: 'B', userIds: [uid(2)] });
    expect(refused.body.errorCode).toBe(280008);
    const unknown = await a.raw('POST', '/v1/workflow/instance/reactivate', { instanceId: id, activityCode: 'B', userIds: ['nobody'] });
    expect(unknown.body.errorCode).toBe(280012);
    const back = await a.post('/v1/workflow/instance/reactivate', { instanceId: id, activityCode: 'B', userIds: [uid(2)], opinion: { text: '重新审批' } });
    expect(back).toMatchObject({ state: 'Running', runningActivities: ['B'] });
    expect(await recordOf(objectId)).toMatchObject({ Status: 2 });
    await submit(m(2).c, id);
    expect(await recordOf(objectId)).toMatchObject({ Status: 1 });
  });

  it('cancel (record Canceled) and finish (record Effective) by an administrator; urge flags every open item', async () => {
    await flow();
    const one = await startFlow();
    expect((await info(a, one.id)).instanceActions).toEqual(expect.arrayContaining(['CancelInstance', 'FinishInstance', 'Urge']));
    await a.post('/v1/workflow/instance/urge', { instanceId: one.id, content: '请今天处理' });
    const urged = await a.get('/v1/workflow/instance/detail', { instanceId: one.id });
    expect(urged.items.filter((i: { state: string }) => i.state === 'Waiting').every((i: { urged: boolean }) => i.urged)).toBe(true);
    expect(urged.comments.at(-1)).toMatchObject({ action: 'urge', text: '请今天处理', receivers: [uid(0)] });
    await a.post('/v1/workflow/instance/cancel', { instanceId: one.id });
    expect(await recordOf(one.objectId)).toMatchObject({ Status: 3 });
    expect((await m(0).c.raw('POST', '/v1/workflow/instance/cancel', { instanceId: one.id })).body.errorCode).toBe(280009);
    const two = await startFlow();
    await a.post('/v1/workflow/instance/finish', { instanceId: two.id, opinion: { text: '直接通过' } });
    expect(await recordOf(two.objectId)).toMatchObject({ Status: 1 });
  });

  it('forward, add a signer after, send back, withdraw allowed and refused, consult', async () => {
    await flow();
    const { id } = await startFlow();
    // withdraw while A has not acted
    await a.post('/v1/workflow/instance/retrieve', { instanceId: id, opinion: { text: '撤回' } });
    expect((await info(a, id)).instance.runningActivities).toEqual(['Start']);
    await submit(a, id);
    await m(0).c.post('/v1/workflow/instance/consult', { workItemId: await myItem(m(0).c, id), userIds: [uid(3)] });
    await submit(m(3).c, id, '建议同意');
    await m(0).c.post('/v1/workflow/instance/forward', { workItemId: await myItem(m(0).c, id), userId: uid(2) });
    const forwarded = await info(m(2).c, id);
    expect(forwarded.myItems[0]).toMatchObject({ delegant: uid(0), actions: expect.arrayContaining(['Forward', 'TempAddition', 'ForComment', 'ForBack']) });
    // refused: A acted (forwarded)
    expect((await a.raw('POST', '/v1/workflow/instance/retrieve', { instanceId: id })).body.errorCode).toBe(280010);
    await m(2).c.post('/v1/workflow/instance/addsign', { workItemId: forwarded.myItems[0].workItemId, position: 'after', userIds: [uid(4)] });
    expect((await info(a, id)).instance.runningActivities).toEqual(['A']);
    await submit(m(4).c, id);
    expect((await info(a, id)).instance.runningActivities).toEqual(['B']);
    await m(1).c.post('/v1/workflow/instance/forback', { workItemId: await myItem(m(1).c, id), activityCode: 'A', opinion: { text: '退回补充' } });
    const back = await info(a, id);
    expect(back.instance.runningActivities).toEqual(['A']);
    // back to A's previous participant: who finished it (the receiver of the forward)
    expect((await info(m(2).c, id)).myItems).toHaveLength(1);
  });

  it('add signers before: the original is suspended until both agree, then decides; countersign by percentage', async () => {
    await publishTemplate(
      line({ type: 'Approve', code: 'A', name: '会签', participants: users(uid(0), uid(1), uid(2)), approveExit: { type: 'percentage', value: 60 }, permittedActions: ['addSigner'] }),
    );
    const { id, objectId } = await startFlow();
    const original = await myItem(m(0).c, id);
    await m(0).c.post('/v1/workflow/instance/addsign', { workItemId: original, position: 'before', userIds: [uid(3), uid(4)], opinion: { text: '请先看' } });
    expect((await m(0).c.raw('POST', '/v1/workflow/instance/submit', { workItemId: original })).body.errorCode).toBe(280013);
    expect((await info(m(0).c, id)).myItems[0].actions).toEqual([]);
    await submit(m(3).c, id);
    await submit(m(4).c, id);
    expect((await info(m(0).c, id)).myItems[0]).toMatchObject({ state: 'Working', actions: expect.arrayContaining(['Submit', 'Reject', 'TempAddition']) });
    await submit(m(0).c, id);
    // 60 % of 3 = 2 agrees: the added signers do not count, the second participant passes the node.
    expect((await info(a, id)).instance.state).toBe('Running');
    await submit(m(1).c, id);
    expect(await recordOf(objectId)).toMatchObject({ Status: 1 });
    const detail = await a.get('/v1/workflow/instance/detail', { instanceId: id });
    expect(detail.items.find((i: { participant: string }) => i.participant === uid(2)).state).toBe('Canceled');
  });

  it('circulate and mark read; to-read counts', async () => {
    await publishTemplate(line({ type: 'Approve', code: 'A', name: '审批', participants: users(uid(0)), permittedActions: ['circulate'] }));
    const { id } = await startFlow();
    const before = (await m(4).c.get('/v1/workflow/todos/count')).toRead;
    await m(0).c.post('/v1/workflow/instance/circulate', { instanceId: id, workItemId: await myItem(m(0).c, id), userIds: [uid(4)] });
    expect((await m(4).c.get('/v1/workflow/todos/count')).toRead).toBe(before + 1);
    expect((await info(m(4).c, id)).myItems[0]).toMatchObject({ itemType: 'circulate', actions: ['Read'] });
    await m(4).c.post('/v1/workflow/instance/read', { instanceId: id });
    expect((await m(4).c.get('/v1/workflow/todos/count')).toRead).toBe(before);
  });
});

describe('isolation and concurrency', () => {
  it('a second engine never sees the instances', async () => {
    await publishTemplate(line({ type: 'Approve', code: 'A', name: '审批', participants: users(uid(0)) }));
    const { id } = await startFlow();
    const stranger = await registerPerson(t.app, { engineName: '别的公司' });
    const s = nodeClient(t.app, stranger);
    const r = await s.raw('GET', '/v1/workflow/instance/info', { instanceId: id });
    expect(r.body).toMatchObject({ successful: false, errorCode: 280004 });
    expect(await s.get('/v1/workflow/todos/count')).toEqual({ todo: 0, toRead: 0 });
    const item = await myItem(m(0).c, id);
    expect((await s.raw('POST', '/v1/workflow/instance/submit', { workItemId: item })).body.errorCode).toBe(280006);
  });

  it('two approvers at once on a parallel node advance it exactly once', async () => {
    for (const exit of [{ type: 'count', value: 1 }, { type: 'percentage', value: 100 }]) {
      await publishTemplate(line({ type: 'Approve', code: 'A', name: '会签', participants: users(uid(0), uid(1)), approveExit: exit }, { type: 'Approve', code: 'B', name: '复核', participants: users(uid(2)) }));
      for (let round = 0; round < 3; round++) {
        const { id } = await startFlow();
        const items = await Promise.all([myItem(m(0).c, id), myItem(m(1).c, id)]);
        const answers = await Promise.all([
          m(0).c.raw('POST', '/v1/workflow/instance/submit', { workItemId: items[0] }),
          m(1).c.raw('POST', '/v1/workflow/instance/submit', { workItemId: items[1] }),
        ]);
        const ok = answers.filter((r) => r.body.successful).length;
        if (exit.type === 'count') {
          expect(ok).toBe(1);
          expect(answers.find((r) => !r.body.successful)!.body.errorCode).toBe(280007);
        } else expect(ok).toBe(2);
        const detail = await a.get('/v1/workflow/instance/detail', { instanceId: id });
        expect(detail.tokens.filter((x: { activityCode: string }) => x.activityCode === 'B')).toHaveLength(1);
        expect(detail.tokens.find((x: { activityCode: string }) => x.activityCode === 'A')).toMatchObject({ state: 'Finished', agreeCount: exit.type === 'count' ? 1 : 2 });
      }
    }
  });
});
