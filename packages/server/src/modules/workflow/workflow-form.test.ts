import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { TestApp } from '../../../test/helpers.ts';
import { FunctionNodeType, addInvitedMember, grant, nodeClient, type InvitedMember, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, engineSql, publish, tableRef } from '../../../test/form-helpers.ts';

// A workflow form in the form runtime (docs/decisions/0022) on PGlite and PostgreSQL: the form's Submit starts the
// flow in the same transaction as the save; a handler's Submit carries edits of the fields its node makes editable,
// the node's required fields must be filled, other fields keep their stored values whatever the client sends.

let t: TestApp, admin: Person, a: OrgClient, appCode: string, formCode: string;
const members: { person: InvitedMember; c: OrgClient }[] = [];

const FORM = definition([
  { type: 'textBox', code: 'Title' },
  { type: 'number', code: 'Amount', options: { decimalPlaces: 2 } },
  { type: 'textBox', code: 'Remark' },
]);

beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
  for (let i = 0; i < 3; i++) {
    const person = await addInvitedMember(t, admin, { name: `经手人${i}` });
    members.push({ person, c: nodeClient(t.app, person) });
  }
  formCode = (await createForm(a, appCode, { displayName: '采购申请' }, FunctionNodeType.WorkflowModule)).code;
  await publish(a, formCode, FORM);
  for (let i = 0; i < 3; i++) await grant(a, formCode, uid(i), 'create');
  // Start → 审批 (member 0: Amount editable and required, Remark editable) → Condition Amount > 5000 → 复核 (member 1) / else → End.
  const template = {
    activities: [
      { type: 'Start', code: 'Start', name: '发起' },
      {
        type: 'Approve', code: 'A', name: '审批', participants: { sources: [{ type: 'users', ids: [uid(0)] }] },
        permittedActions: ['sendBack'],
        fieldPermissions: { Amount: { visible: true, editable: true, required: true }, Remark: { visible: true, editable: true, required: false } },
      },
      { type: 'Condition', code: 'C', name: '金额' },
      { type: 'Approve', code: 'B', name: '复核', participants: { sources: [{ type: 'users', ids: [uid(1)] }] } },
      { type: 'End', code: 'End', name: '结束' },
    ],
    routes: [
      { from: 'Start', to: 'A' },
      { from: 'A', to: 'C' },
      { from: 'C', to: 'B', condition: { rules: [{ field: 'Amount', operator: 'gt', value: 5000 }] } },
      { from: 'C', to: 'End', isElse: true },
      { from: 'B', to: 'End' },
    ],
  };
  await a.post('/v1/workflow/template/save', { schemaCode: formCode, template });
  await a.post('/v1/workflow/template/publish', { schemaCode: formCode });
});
afterAll(() => t.close());

const m = (i: number) => members[i];
const uid = (i: number) => members[i].person.userId;

async function row(objectId: string) {
  const rows = await engineSql<{ Title: string; Amount: string | null; Remark: string | null; Status: number; WorkflowInstanceId: string | null }>(
    t,
    sql`select "Title", "Amount", "Remark", "Status", "WorkflowInstanceId" from ${tableRef(admin.engineCode, `i_${formCode.toLowerCase()}`)} where "ObjectId" = ${objectId}`,
  );
  return rows[0];
}

const info = (c: OrgClient, objectId: string) => c.get('/v1/workflow/instance/info', { schemaCode: formCode, objectId });
const submitForm = (c: OrgClient, values: Record<string, unknown>, objectId?: string) =>
  c.raw('POST', '/v1/form/action/execute', { schemaCode: formCode, actionCode: 'Submit', values, ...(objectId ? { objectId } : {}) });

async function started(values: Record<string, unknown> = { Title: '笔记本电脑', Amount: 3000 }) {
  const r = await submitForm(m(2).c, values);
  expect(r.body).toMatchObject({ successful: true });
  return r.body.data.objectId as string;
}

describe('Submit on a workflow form', () => {
  it('saves the record and starts its flow in one call: Running, the first approver has an item', async () => {
    const objectId = await started();
    const saved = await row(objectId);
    expect(saved).toMatchObject({ Title: '笔记本电脑', Status: 2 });
    expect(saved.WorkflowInstanceId).toBeTruthy();
    const mine = await info(m(0).c, objectId);
    expect(mine.myItems.map((i: { activityCode: string }) => i.activityCode)).toEqual(['A']);
    expect(mine.myItems[0].fieldPermissions.Amount).toEqual({ visible: true, editable: true, required: true });
    expect(mine.myItems[0].defaultFieldPermission).toEqual({ visible: true, editable: false, required: false });
    const loaded = await m(2).c.post('/v1/form/loaddata', { schemaCode: formCode, objectId });
    expect(loaded).toMatchObject({ isWorkflow: true, status: 2 });
    expect(loaded.actions).not.toContain('Submit');
  });

  it('starts the flow of a Draft saved earlier; a record already in its flow is not submitted again', async () => {
    const draft = await m(2).c.post('/v1/form/action/execute', { schemaCode: formCode, actionCode: 'Save', values: { Title: '打印机' } });
    expect((await m(2).c.post('/v1/form/loaddata', { schemaCode: formCode, objectId: draft.objectId })).actions).toContain('Submit');
    const r = await submitForm(m(2).c, { Amount: 800 }, draft.objectId);
    expect(r.body.data.status).toBe(2);
    const again = await submitForm(m(2).c, { Title: '改了' }, draft.objectId);
    expect(again.body.errorCode).toBe(250002);
    expect(await row(draft.objectId)).toMatchObject({ Title: '打印机', Status: 2 });
  });

  it('a refused value saves nothing and starts nothing', async () => {
    const r = await submitForm(m(2).c, { Title: '显示器', Amount: 'many' });
    expect(r.body.errorCode).toBe(777);
    expect((await a.post('/v1/bizdata/query', { schemaCode: formCode, filter: { field: 'Title', operator: 'Equal', value: '显示器' } })).total).toBe(0);
  });
});

describe('a handler\'s Submit with edits', () => {
  it('stores the node\'s editable fields, keeps the others whatever the client sends, and routes on the new values', async () => {
    const objectId = await started({ Title: '服务器', Amount: 3000 });
    const item = (await info(m(0).c, objectId)).myItems[0].workItemId;
    await m(0).c.post('/v1/workflow/instance/submit', { workItemId: item, values: { Title: '篡改的标题', Amount: 9000, Remark: '数量加倍' }, opinion: { text: '同意' } });
    expect(await row(objectId)).toMatchObject({ Title: '服务器', Amount: expect.stringMatching(/^9000/), Remark: '数量加倍', Status: 2 });
    // 9000 > 5000: the condition read the edited amount, so 复核 runs.
    const review = (await info(m(1).c, objectId)).myItems;
    expect(review.map((i: { activityCode: string }) => i.activityCode)).toEqual(['B']);
    // 退回 offers the nodes that ran before (the condition passed by itself and is not one).
    const pre = await m(1).c.get('/v1/workflow/instance/activity/pre', { workItemId: review[0].workItemId });
    expect(pre.activities.map((a: { code: string }) => a.code)).toEqual(['Start', 'A']);
    expect((await m(0).c.raw('GET', '/v1/workflow/instance/activity/pre', { workItemId: review[0].workItemId })).body.errorCode).toBe(280006);
  });

  it('refuses a node\'s required field left empty (777 by field): the item stays open and nothing changes', async () => {
    const objectId = await started({ Title: '投影仪', Amount: 1200 });
    const item = (await info(m(0).c, objectId)).myItems[0].workItemId;
    const r = await m(0).c.raw('POST', '/v1/workflow/instance/submit', { workItemId: item, values: { Amount: null, Remark: '清空' } });
    expect(r.body.errorCode).toBe(777);
    expect(r.body.detail.issues.map((i: { path: string }) => i.path)).toEqual(['values.Amount']);
    expect(await row(objectId)).toMatchObject({ Remark: '', Amount: expect.stringMatching(/^1200/) });
    expect((await info(m(0).c, objectId)).myItems).toHaveLength(1);
  });

  it('someone else\'s item saves nothing; a handler may not use the form\'s own Save on a record in its flow', async () => {
    const objectId = await started({ Title: '键盘', Amount: 100 });
    const item = (await info(m(0).c, objectId)).myItems[0].workItemId;
    const other = await m(1).c.raw('POST', '/v1/workflow/instance/submit', { workItemId: item, values: { Remark: '越权' } });
    expect(other.body.successful).toBe(false);
    const save = await m(0).c.raw('POST', '/v1/form/action/execute', { schemaCode: formCode, actionCode: 'Save', objectId, values: { Remark: '越权' } });
    expect(save.body.successful).toBe(false);
    expect((await row(objectId)).Remark).toBe('');
  });

  it('sent back to the start, the originator edits any field and submits again', async () => {
    const objectId = await started({ Title: '椅子', Amount: 600 });
    const item = (await info(m(0).c, objectId)).myItems[0].workItemId;
    await m(0).c.post('/v1/workflow/instance/forback', { workItemId: item, activityCode: 'Start', opinion: { text: '请补充说明' } });
    const back = (await info(m(2).c, objectId)).myItems[0];
    expect(back.activityCode).toBe('Start');
    await m(2).c.post('/v1/workflow/instance/submit', { workItemId: back.workItemId, values: { Title: '人体工学椅', Remark: '腰不好' } });
    expect(await row(objectId)).toMatchObject({ Title: '人体工学椅', Remark: '腰不好', Status: 2 });
    expect((await info(m(0).c, objectId)).myItems.map((i: { activityCode: string }) => i.activityCode)).toEqual(['A']);
  });
});
