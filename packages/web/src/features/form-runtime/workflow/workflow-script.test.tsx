import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '../../../test/render.tsx';
import { ok, stubFetch } from '../../../test/fetch-stub.ts';
import { FormPage } from '../pages/form-page.tsx';
import { orderDefinition } from '../test/runtime-fake.ts';
import { inProcessSandboxes } from '../scripts/in-process-channel.ts';

// A record in a flow with a browser script: 同意 and 提交 run the script's validate and beforeSubmit first, as the
// form's own submit does (a text stops it before its dialog opens), and afterSubmit once the item went through.

const sandboxes = vi.hoisted(() => ({ current: null as null | ReturnType<typeof import('../scripts/in-process-channel.ts').inProcessSandboxes> }));
vi.mock('../scripts/iframe-channel.ts', () => ({ openIframeChannel: (receive: (data: unknown) => void) => sandboxes.current!.open(receive) }));

const OBJECT = '0192aaaa-0000-7000-8000-000000000009';

// afterLoad hides a field (the script is running); validate refuses an amount over 1000; beforeSubmit hears the
// action and stamps a field; afterSubmit says so.
const SCRIPT = `var __script = (() => ({
  afterLoad(form) { form.hide('Mail'); },
  validate(form) { if (Number(form.get('Amount')) > 1000) return '金额超过 1000，请先拆分'; },
  beforeSubmit(form, actionName) { form.set('Title', '已检查：' + actionName); },
  afterSubmit(form, result) { form.message('流程已提交：' + result.actionName, 'info'); },
}))();`;

function open(itemType: 'approve' | 'fill', kind: 'normal' | 'consult' = 'normal') {
  sandboxes.current = inProcessSandboxes();
  const item = {
    workItemId: 'item-1', tokenId: 'tok-2', activityCode: 'Manager', activityName: '经理审批', itemType, kind,
    participant: 'u2', finisher: null, delegant: null, sourceItemId: null, state: 'Working', approval: -1, actionEvent: null, urged: false,
    createdTime: '2026-11-20T03:00:00.000Z', finishedTime: null, dueTime: null,
    actions: ['Submit', 'Reject'],
    fieldPermissions: { Amount: { visible: true, editable: true, required: false }, Title: { visible: true, editable: true, required: false } },
    defaultFieldPermission: { visible: true, editable: false, required: false },
  };
  const stub = stubFetch({
    'POST /v1/form/loadsetting': () =>
      ok({ notModified: false, timestamp: 1, schema: { schemaCode: 'f_order', appCode: 'crm', displayName: '订单', nodeType: 210, version: 1, properties: [], childSchemas: [] }, definition: orderDefinition() }),
    'POST /v1/form/loaddata': () =>
      ok({
        schemaCode: 'f_order', version: 1, isNew: false, isWorkflow: true, status: 2, actions: ['Print', 'Close'],
        values: { Title: '出差报销', Amount: 1500, Level: '高' }, children: { Items: [] },
        system: { ObjectId: OBJECT, Name: '出差报销', Status: 2, CreatedBy: 'u1', ModifiedBy: 'u1', OwnerId: 'u1', OwnerDeptId: null, CreatedTime: '2026-11-20T02:00:00.000Z', ModifiedTime: null, SeqNo: null, WorkflowInstanceId: 'wf-1' },
      }),
    'GET /v1/workflow/instance/info': () =>
      ok({
        instance: { instanceId: 'wf-1', schemaCode: 'f_order', objectId: OBJECT, version: 1, name: '出差报销', originator: 'u1', state: 'Running', approval: -1, runningActivities: ['Manager'], createdTime: '2026-11-20T02:00:00.000Z', finishedTime: null },
        myItems: [item],
        instanceActions: [],
      }),
    'GET /v1/workflow/instance/detail': () => ok({ instance: {}, tokens: [], items: [], comments: [] }),
    'GET /v1/workflow/handsign/config': () => ok({ mode: 'none', lastSignature: null }),
    'POST /v1/workflow/instance/submit': () => ok({ instanceId: 'wf-1' }),
    'POST /v1/codeeditor/runtime': () => ok({ script: { js: SCRIPT, version: 1 } }),
    'POST /v1/org/unit/batch': () => ok({ list: [{ id: 'u1', name: '张三' }, { id: 'u2', name: '李四' }] }),
    'POST /v1/form/datalog/list': () => ok({ list: [] }),
  });
  renderPage('/form/open/:schemaCode/:objectId?', <FormPage />, `/form/open/f_order/${OBJECT}`);
  return { ...stub, user: userEvent.setup() };
}

/** The amount's box, once the script ran its afterLoad (邮箱 hidden). */
async function amountBox() {
  const box = await within(await screen.findByRole('group', { name: '金额' })).findByRole('spinbutton');
  await waitFor(() => expect(screen.queryByRole('group', { name: '邮箱' })).toBeNull());
  return box;
}

afterEach(() => {
  sandboxes.current = null;
});

describe('the flow’s submit and the form’s browser script', () => {
  it('同意 runs validate first: its text stops the approval before the dialog opens', async () => {
    const { user, callsTo } = open('approve');
    await amountBox();
    await user.click(await screen.findByRole('button', { name: '同意' }));
    expect(await screen.findByText('金额超过 1000，请先拆分')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(callsTo('POST', '/v1/workflow/instance/submit')).toHaveLength(0);
  });

  it('once validate passes, beforeSubmit changes the values the approval sends, and afterSubmit hears it went through', async () => {
    const { user, callsTo } = open('approve');
    const amount = await amountBox();
    await user.clear(amount);
    await user.type(amount, '800');
    await user.click(screen.getByRole('button', { name: '同意' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/workflow/instance/submit')).toHaveLength(1));
    const body = callsTo('POST', '/v1/workflow/instance/submit')[0].body as { values: Record<string, unknown> };
    expect(body.values).toMatchObject({ Amount: 800, Title: '已检查：Submit' });
    expect(await screen.findByText('流程已提交：Submit')).toBeTruthy();
  });

  it('a fill node’s 提交 is checked the same way', async () => {
    const { user, callsTo } = open('fill');
    await amountBox();
    await user.click(await screen.findByRole('button', { name: '提交' }));
    expect(await screen.findByText('金额超过 1000，请先拆分')).toBeTruthy();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(callsTo('POST', '/v1/workflow/instance/submit')).toHaveLength(0);
  });

  it('a consultation’s 回复 only answers: the script does not check it', async () => {
    const { user } = open('approve', 'consult');
    await amountBox();
    await user.click(await screen.findByRole('button', { name: '回复' }));
    expect(await screen.findByRole('dialog')).toBeTruthy();
    expect(screen.queryByText('金额超过 1000，请先拆分')).toBeNull();
  });
});
