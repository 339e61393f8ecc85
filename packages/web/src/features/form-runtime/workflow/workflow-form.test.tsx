import { afterEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '../../../test/render.tsx';
import { ok, stubFetch, type RecordedCall } from '../../../test/fetch-stub.ts';
import { FormPage } from '../pages/form-page.tsx';
import { orderDefinition, refused } from '../test/runtime-fake.ts';

// A record in a flow, opened from the flow center: the handler's buttons, the node's field permissions, the
// approval trace; the Submit carries the form's values to the work item's call.

const PATH = '/form/open/:schemaCode/:objectId?';
const OBJECT = '0192aaaa-0000-7000-8000-000000000009';
const field = (name: string) => screen.getByRole('group', { name });

const item = {
  workItemId: 'item-1', tokenId: 'tok-2', activityCode: 'Manager', activityName: '经理审批', itemType: 'approve', kind: 'normal',
  participant: 'u2', finisher: null, delegant: null, sourceItemId: null, state: 'Working', approval: -1, actionEvent: null, urged: false,
  createdTime: '2026-11-20T03:00:00.000Z', finishedTime: null, dueTime: '2026-11-20T04:00:00.000Z',
  actions: ['Submit', 'Reject', 'ForBack'],
  fieldPermissions: { Amount: { visible: true, editable: true, required: true }, Mail: { visible: false, editable: false, required: false } },
  defaultFieldPermission: { visible: true, editable: false, required: false },
};

function stubFlow(options: { handler: boolean; submit?: (call: RecordedCall) => Response; handSign?: { mode: string; lastSignature: string | null }; instanceActions?: string[] }) {
  return stubFetch({
    ...(options.handSign ? { 'GET /v1/workflow/handsign/config': () => ok(options.handSign) } : {}),
    'POST /v1/form/loadsetting': () =>
      ok({ notModified: false, timestamp: 1, schema: { schemaCode: 'f_order', appCode: 'crm', displayName: '订单', nodeType: 210, version: 1, properties: [], childSchemas: [] }, definition: orderDefinition() }),
    'POST /v1/form/loaddata': () =>
      ok({
        schemaCode: 'f_order', version: 1, isNew: false, isWorkflow: true, status: 2, actions: ['Copy', 'Print', 'Close'],
        values: { Title: '出差报销', Mail: 'a@b.cn', Amount: 320, Level: '高' }, children: { Items: [] },
        system: { ObjectId: OBJECT, Name: '出差报销', Status: 2, CreatedBy: 'u1', ModifiedBy: 'u1', OwnerId: 'u1', OwnerDeptId: null, CreatedTime: '2026-11-20T02:00:00.000Z', ModifiedTime: null, SeqNo: null, WorkflowInstanceId: 'wf-1' },
      }),
    'GET /v1/workflow/instance/info': () =>
      ok({
        instance: { instanceId: 'wf-1', schemaCode: 'f_order', objectId: OBJECT, version: 1, name: '出差报销', originator: 'u1', state: 'Running', approval: -1, runningActivities: ['Manager'], createdTime: '2026-11-20T02:00:00.000Z', finishedTime: null },
        myItems: options.handler ? [item] : [],
        instanceActions: options.instanceActions ?? (options.handler ? [] : ['Urge']),
      }),
    'GET /v1/workflow/instance/detail': () =>
      ok({
        instance: {},
        tokens: [{ tokenId: 'tok-1', activityCode: 'Start', activityName: '发起' }, { tokenId: 'tok-2', activityCode: 'Manager', activityName: '经理审批' }],
        items: [{ ...item, state: 'Working' }],
        comments: [{ commentId: 'c1', tokenId: 'tok-1', workItemId: null, activityCode: 'Start', userId: 'u1', action: 'start', text: '请审批', approval: 1, signature: null, attachmentIds: [], receivers: [], createdTime: '2026-11-20T02:00:00.000Z' }],
      }),
    'POST /v1/workflow/instance/submit': (call) => options.submit?.(call) ?? ok({ instanceId: 'wf-1' }),
    'POST /v1/workflow/instance/urge': () => ok({ instanceId: 'wf-1' }),
    'POST /v1/workflow/instance/revise': () => ok({ instanceId: 'wf-1' }),
    'POST /v1/org/unit/batch': () => ok({ list: [{ id: 'u1', name: '张三' }, { id: 'u2', name: '李四' }] }),
    'POST /v1/form/datalog/list': () => ok({ list: [] }),
  });
}

const realMatchMedia = window.matchMedia;
afterEach(() => {
  window.matchMedia = realMatchMedia;
});

/** A phone-sized window: the record opens in its phone layout. */
function onPhone() {
  window.matchMedia = ((query: string) => ({
    matches: query.includes('max-width: 767.98px'), media: query, onchange: null, addListener: () => {}, removeListener: () => {}, addEventListener: () => {}, removeEventListener: () => {}, dispatchEvent: () => false,
  })) as unknown as typeof window.matchMedia;
}

const buttonsOf = (element: HTMLElement) => within(element).getAllByRole('button').map((button) => button.textContent?.replace(/\s/g, ''));

async function open(options: Parameters<typeof stubFlow>[0]) {
  const stub = stubFlow(options);
  const user = userEvent.setup();
  renderPage(PATH, <FormPage />, `/form/open/f_order/${OBJECT}`);
  await screen.findByRole('form', { name: '订单' });
  return { ...stub, user };
}

describe('a record in a flow', () => {
  it('the handler edits what the node allows, sees no hidden field, and 同意 sends the values with the opinion', async () => {
    const { user, callsTo } = await open({ handler: true });
    const amount = await within(field('金额')).findByRole('spinbutton');
    expect(within(field('标题')).queryByRole('textbox')).toBeNull();
    expect(within(field('标题')).getByText('出差报销')).toBeTruthy();
    expect(screen.queryByRole('group', { name: '邮箱' })).toBeNull();
    expect(screen.queryByRole('button', { name: '编辑' })).toBeNull();
    // The node's one-hour limit has passed: the bar says so (docs/decisions/0042).
    expect(screen.getByText(/^已超时（期限 /)).toBeTruthy();
    await user.clear(amount);
    await user.type(amount, '480');
    await user.click(screen.getByRole('button', { name: '同意' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: '审批意见' }), '可以');
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/workflow/instance/submit')).toHaveLength(1));
    const body = callsTo('POST', '/v1/workflow/instance/submit')[0].body as { workItemId: string; opinion: { text: string }; values: Record<string, unknown> };
    expect(body.workItemId).toBe('item-1');
    expect(body.opinion).toEqual({ text: '可以' });
    expect(body.values.Amount).toBe(480);
  });

  it('on a phone the bar keeps 同意 and 不同意 and puts the other buttons behind 更多', async () => {
    onPhone();
    const { user, callsTo } = await open({ handler: true, instanceActions: ['Urge', 'CancelInstance'] });
    const bar = screen.getByRole('toolbar', { name: '表单操作' });
    await waitFor(() => expect(buttonsOf(bar)).toEqual(['更多', '同意', '不同意']));
    await user.click(within(bar).getByRole('button', { name: /更\s*多/ }));
    expect((await screen.findAllByRole('menuitem')).map((item) => item.textContent)).toEqual(['退回', '催办', '取消流程', '打印', '关闭']);
    await user.click(screen.getByRole('menuitem', { name: '催办' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: '催办内容' }), '请尽快处理');
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/workflow/instance/urge')).toHaveLength(1));
  });

  it('on a PC every flow button stays in the footer', async () => {
    await open({ handler: true, instanceActions: ['Urge', 'CancelInstance'] });
    await screen.findByRole('button', { name: '同意' });
    expect(screen.queryByRole('toolbar', { name: '表单操作' })).toBeNull();
    for (const name of ['不同意', '退回', '催办', '取消流程', '关闭']) expect(screen.getByRole('button', { name })).toBeTruthy();
  });

  it('a node requiring a hand signature refuses 同意 without one; the last signature can be used again', async () => {
    const last = 'data:image/png;base64,iVBORw0KGgo=';
    const { user, callsTo } = await open({ handler: true, handSign: { mode: 'required', lastSignature: last } });
    await within(field('金额')).findByRole('spinbutton');
    await user.click(screen.getByRole('button', { name: '同意' }));
    const dialog = await screen.findByRole('dialog');
    await within(dialog).findByRole('button', { name: '使用上次的签名' });
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await within(dialog).findByText('该节点要求手写签名')).toBeTruthy();
    expect(callsTo('POST', '/v1/workflow/instance/submit')).toHaveLength(0);
    await user.click(within(dialog).getByRole('button', { name: '使用上次的签名' }));
    expect(within(dialog).getByRole('img', { name: '我的签名' })).toHaveProperty('src', last);
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/workflow/instance/submit')).toHaveLength(1));
    expect((callsTo('POST', '/v1/workflow/instance/submit')[0].body as { opinion: unknown }).opinion).toEqual({ signature: last });
  });

  it('a node without hand signatures offers none', async () => {
    const { user } = await open({ handler: true, handSign: { mode: 'none', lastSignature: null } });
    await within(field('金额')).findByRole('spinbutton');
    await user.click(screen.getByRole('button', { name: '同意' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(within(dialog).queryByRole('button', { name: /签\s*名/ })).toBeNull());
  });

  it('after 同意 succeeds, the handled item is not asked about again (no 待办不存在 after a success)', async () => {
    const { user, callsTo } = await open({ handler: true, handSign: { mode: 'optional', lastSignature: null } });
    await within(field('金额')).findByRole('spinbutton');
    await user.click(screen.getByRole('button', { name: '同意' }));
    const dialog = await screen.findByRole('dialog');
    await waitFor(() => expect(callsTo('GET', '/v1/workflow/handsign/config')).toHaveLength(1));
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/workflow/instance/submit')).toHaveLength(1));
    await waitFor(() => expect(callsTo('GET', '/v1/workflow/instance/info').length).toBeGreaterThan(1));
    expect(callsTo('GET', '/v1/workflow/handsign/config')).toHaveLength(1);
  });

  it("a refusal of the node's required field lands next to it", async () => {
    const { user } = await open({ handler: true, submit: () => refused('values.Amount', '金额不能为空') });
    await within(field('金额')).findByRole('spinbutton');
    await user.click(screen.getByRole('button', { name: '同意' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await within(field('金额')).findByRole('alert')).toHaveProperty('textContent', '金额不能为空');
  });

  it('the approval trace names who acted; a reader without an item reads and may urge with a message', async () => {
    const { user, callsTo } = await open({ handler: false });
    expect(await screen.findByRole('tab', { name: '审批记录' })).toBeTruthy();
    expect(await screen.findByText('请审批')).toBeTruthy();
    expect(await screen.findByText('张三')).toBeTruthy();
    expect(screen.getByText('待「经理审批」处理：李四')).toBeTruthy();
    expect(within(field('金额')).queryByRole('spinbutton')).toBeNull();
    expect(screen.queryByRole('button', { name: '同意' })).toBeNull();
    await user.click(screen.getByRole('button', { name: '催办' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    expect(await within(dialog).findByText('请填写催办内容')).toBeTruthy();
    await user.type(within(dialog).getByRole('textbox', { name: '催办内容' }), '请尽快处理');
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/workflow/instance/urge')).toHaveLength(1));
    expect(callsTo('POST', '/v1/workflow/instance/urge')[0].body).toEqual({ instanceId: 'wf-1', content: '请尽快处理' });
  });

  it('an administrator revises: every field turns editable, 保存修订 sends the values with the opinion, 取消修订 drops the edits', async () => {
    const { user, callsTo } = await open({ handler: false, instanceActions: ['Urge', 'Revise'] });
    expect(within(field('标题')).queryByRole('textbox')).toBeNull();
    await user.click(await screen.findByRole('button', { name: '修订' }));
    const title = await within(field('标题')).findByRole('textbox');
    expect(screen.getByRole('group', { name: '邮箱' })).toBeTruthy();
    expect(screen.queryByRole('button', { name: '催办' })).toBeNull();
    await user.clear(title);
    await user.type(title, '出差报销（修正）');
    await user.click(screen.getByRole('button', { name: '保存修订' }));
    const dialog = await screen.findByRole('dialog');
    await user.type(within(dialog).getByRole('textbox', { name: '审批意见' }), '修正标题');
    await user.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(callsTo('POST', '/v1/workflow/instance/revise')).toHaveLength(1));
    const body = callsTo('POST', '/v1/workflow/instance/revise')[0].body as { instanceId: string; opinion: unknown; values: Record<string, unknown> };
    expect(body).toMatchObject({ instanceId: 'wf-1', opinion: { text: '修正标题' } });
    expect(body.values.Title).toBe('出差报销（修正）');
    await waitFor(() => expect(within(field('标题')).queryByRole('textbox')).toBeNull());
    await user.click(screen.getByRole('button', { name: '修订' }));
    await user.type(await within(field('标题')).findByRole('textbox'), '多余');
    await user.click(screen.getByRole('button', { name: '取消修订' }));
    await waitFor(() => expect(within(field('标题')).queryByRole('textbox')).toBeNull());
    expect(within(field('标题')).getByText('出差报销')).toBeTruthy();
  });
});
