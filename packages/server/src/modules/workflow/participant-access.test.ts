import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers.ts';
import { FunctionNodeType, addInvitedMember, grant, nodeClient, type InvitedMember, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';

// test-databases: both — the participant's way in is a query of the flow tables beside the form's own (docs/testing.md "Runs on both databases").
// A member who approves a record but was never given its app (decision 0037: a participant of a record's flow reads
// it whatever the groups and function nodes say): the to-do opens the form, its record, its flow and its comments;
// nothing else of the form, and no record outside their flows, is theirs.

let t: TestApp, admin: Person, a: OrgClient, appCode: string, formCode: string, groupedCode: string;
let approver: InvitedMember, ap: OrgClient, outsider: InvitedMember, out: OrgClient;

const FORM = definition([
  { type: 'textBox', code: 'Title' },
  { type: 'number', code: 'Amount', options: { decimalPlaces: 2 } },
], { enableFormSNS: true });

async function workflowForm(name: string, approverId: string): Promise<string> {
  const code = (await createForm(a, appCode, { displayName: name }, FunctionNodeType.WorkflowModule)).code as string;
  await publish(a, code, FORM);
  const template = {
    activities: [
      { type: 'Start', code: 'Start', name: '发起' },
      { type: 'Approve', code: 'A', name: '审批', participants: { sources: [{ type: 'users', ids: [approverId] }] } },
      { type: 'End', code: 'End', name: '结束' },
    ],
    routes: [{ from: 'Start', to: 'A' }, { from: 'A', to: 'End' }],
  };
  await a.post('/v1/workflow/template/save', { schemaCode: code, template });
  await a.post('/v1/workflow/template/publish', { schemaCode: code });
  return code;
}

async function submitted(schemaCode: string, values: Record<string, unknown>): Promise<string> {
  const r = await a.raw('POST', '/v1/form/action/execute', { schemaCode, actionCode: 'Submit', values });
  expect(r.body).toMatchObject({ successful: true });
  return r.body.data.objectId as string;
}

async function todoOf(c: OrgClient, objectId: string): Promise<{ workItemId: string; instanceId: string }> {
  const list = (await c.post('/v1/workflow/todos/list', { tab: 'todo', pageIndex: 0, pageSize: 20 })).list as { objectId: string; workItemId: string; instanceId: string }[];
  const found = list.find((i) => i.objectId === objectId);
  if (!found) throw new Error(`no to-do for ${objectId}: ${JSON.stringify(list)} ${JSON.stringify((await a.raw('GET', `/v1/workflow/instance/info?schemaCode=${formCode}&objectId=${objectId}`)).body)}`);
  return found;
}

beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
  approver = await addInvitedMember(t, admin, { name: '审批人' });
  outsider = await addInvitedMember(t, admin, { name: '旁人' });
  ap = nodeClient(t.app, approver);
  out = nodeClient(t.app, outsider);
  formCode = await workflowForm('费用报销', approver.userId);
  groupedCode = await workflowForm('采购申请', approver.userId);
  // A form with a permission group that names someone else: the approver is in no group of it.
  await a.post('/v1/form/permission/group/save', { schemaCode: groupedCode, group: { name: '财务', members: { users: [outsider.userId] }, actions: ['view'], viewScope: 'all', editScope: 'own', fieldRights: {} } });
});
afterAll(() => t.close());

describe('an approver who was never given the app', () => {
  it('opens the record from the to-do: the form, the record, its flow, its trace and its comments', async () => {
    const objectId = await submitted(formCode, { Title: '差旅', Amount: 2380.5 });
    const { workItemId, instanceId } = await todoOf(ap, objectId);
    const setting = await ap.raw('POST', '/v1/form/loadsetting', { schemaCode: formCode });
    expect(setting.body).toMatchObject({ successful: true, data: { schema: { schemaCode: formCode } } });
    const loaded = await ap.raw('POST', '/v1/form/loaddata', { schemaCode: formCode, objectId });
    expect(loaded.body).toMatchObject({ successful: true, data: { values: { Title: '差旅', Amount: 2380.5 } } });
    // Nothing to do with the record itself beyond reading it: the flow's buttons are the way.
    expect(loaded.body.data.actions).not.toContain('Save');
    expect(loaded.body.data.actions).not.toContain('Remove');
    const info = await ap.raw('GET', `/v1/workflow/instance/info?instanceId=${instanceId}`);
    expect(info.body.data.myItems.map((i: { workItemId: string }) => i.workItemId)).toEqual([workItemId]);
    for (const path of [`/v1/workflow/instance/detail?instanceId=${instanceId}`, `/v1/workflow/handsign/config?workItemId=${workItemId}`]) {
      expect((await ap.raw('GET', path)).body).toMatchObject({ successful: true });
    }
    for (const [path, body] of [
      ['/v1/form/datalog/list', { schemaCode: formCode, objectId }],
      ['/v1/toolkit/sns/list', { schemaCode: formCode, objectId, pageIndex: 0, pageSize: 20 }],
    ] as const) expect({ path, ...(await ap.raw('POST', path, body)).body }).toMatchObject({ path, successful: true });
    const approved = await ap.raw('POST', '/v1/workflow/instance/submit', { workItemId, opinion: { text: '同意' } });
    expect(approved.body).toMatchObject({ successful: true });
    // Still theirs to read once handled (已办).
    expect((await ap.raw('POST', '/v1/form/loaddata', { schemaCode: formCode, objectId })).body).toMatchObject({ successful: true });
  });

  it('the same on a form whose permission groups leave them out', async () => {
    const objectId = await submitted(groupedCode, { Title: '电脑', Amount: 6999 });
    await todoOf(ap, objectId);
    expect((await ap.raw('POST', '/v1/form/loaddata', { schemaCode: groupedCode, objectId })).body).toMatchObject({ successful: true, data: { values: { Title: '电脑' } } });
  });

  it('reads no other record of the form, creates none, and lists none', async () => {
    await submitted(formCode, { Title: '看得见的', Amount: 1 });
    const draft = await a.post('/v1/form/action/execute', { schemaCode: formCode, actionCode: 'Save', values: { Title: '别人的草稿', Amount: 2 } });
    const other = await ap.raw('POST', '/v1/form/loaddata', { schemaCode: formCode, objectId: draft.objectId });
    expect(other.body).toMatchObject({ successful: false, errorCode: 250001 });
    const fresh = await ap.raw('POST', '/v1/form/loaddata', { schemaCode: formCode });
    expect(fresh.body.data?.actions ?? []).not.toContain('Submit');
    const created = await ap.raw('POST', '/v1/form/action/execute', { schemaCode: formCode, actionCode: 'Save', values: { Title: '偷偷建的' } });
    expect(created.body.successful).toBe(false);
    const listed = await ap.raw('POST', '/v1/bizdata/query', { schemaCode: formCode, pageIndex: 0, pageSize: 50 });
    const titles = listed.body.successful ? (listed.body.data.list as { Title: string }[]).map((r) => r.Title) : [];
    expect(titles).not.toContain('别人的草稿');
    // The app stays out of their workbench: it was never given to them.
    const apps = (await ap.get('/v1/functionnode/app/list')) as { code: string }[] | { list: { code: string }[] };
    const codes = (Array.isArray(apps) ? apps : apps.list).map((x) => x.code);
    expect(codes).not.toContain(appCode);
  });

  it('a member of no flow of the form still finds neither the form nor its records', async () => {
    const objectId = await submitted(formCode, { Title: '与旁人无关', Amount: 3 });
    expect((await out.raw('POST', '/v1/form/loadsetting', { schemaCode: formCode })).body).toMatchObject({ successful: false, errorCode: 230001 });
    expect((await out.raw('POST', '/v1/form/loaddata', { schemaCode: formCode, objectId })).body).toMatchObject({ successful: false, errorCode: 230001 });
  });
});

describe('publishing a flow whose participants cannot open its form', () => {
  it('says who they are, and publishes all the same', async () => {
    const code = (await createForm(a, appCode, { displayName: '请假' }, FunctionNodeType.WorkflowModule)).code as string;
    await publish(a, code, FORM);
    const template = {
      activities: [
        { type: 'Start', code: 'Start', name: '发起' },
        { type: 'Approve', code: 'A', name: '审批', participants: { sources: [{ type: 'users', ids: [outsider.userId] }] } },
        { type: 'End', code: 'End', name: '结束' },
      ],
      routes: [{ from: 'Start', to: 'A' }, { from: 'A', to: 'End' }],
    };
    await a.post('/v1/workflow/template/save', { schemaCode: code, template });
    const published = await a.post('/v1/workflow/template/publish', { schemaCode: code });
    expect(published.notices).toEqual([expect.objectContaining({ activityCode: 'A', userNames: ['旁人'] })]);
    await grant(a, code, outsider.userId, 'access');
    const again = await a.post('/v1/workflow/template/publish', { schemaCode: code });
    expect(again.notices ?? []).toEqual([]);
  });
});
