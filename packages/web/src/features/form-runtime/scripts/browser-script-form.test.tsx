import { afterEach, describe, expect, it, vi } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '../../../test/render.tsx';
import { ok, stubFetch } from '../../../test/fetch-stub.ts';
import { FormPage } from '../pages/form-page.tsx';
import { inProcessSandboxes } from './in-process-channel.ts';

// The sandbox frame needs a real browser (e2e/browser-script.e2e.ts); here the same runner runs in this process.
const sandboxes = vi.hoisted(() => ({ current: null as null | ReturnType<typeof import('./in-process-channel.ts').inProcessSandboxes> }));
vi.mock('./iframe-channel.ts', () => ({ openIframeChannel: (receive: (data: unknown) => void) => sandboxes.current!.open(receive) }));

const definition = {
  attributes: { displayName: '报价单', enableDataLog: false, enableFormSNS: false, enableTask: false, titleWidth: 120, modalWidth: 820, modalHeight: 500 },
  controls: [
    { type: 'textBox', code: 'Title', options: { displayName: '标题' } },
    { type: 'radioList', code: 'Level', options: { displayName: '等级', defaultItems: ['高', '低'] } },
    { type: 'textBox', code: 'Note', options: { displayName: '备注' } },
    { type: 'textBox', code: 'Secret', options: { displayName: '底价' } },
    { type: 'button', code: 'Fill', options: { displayName: '填入标题', actionName: 'fill' } },
    { type: 'button', code: 'Quote', options: { displayName: '询价', actionName: 'Quote' } },
    { type: 'button', code: 'Nothing', options: { displayName: '空按钮', actionName: '' } },
    { type: 'dynamic', code: 'Contact', options: { displayName: '联系人' } },
    { type: 'dynamic', code: 'Goods', options: { displayName: '商品' } },
    { type: 'dynamic', code: 'Tip', options: { displayName: '提示' } },
  ],
};

const SCRIPT = `var __script = (() => {
  function onChange(form, field, value) {
    if (field === 'Level') { if (value === '高') form.hide('Note'); else form.show('Note'); }
  }
  return {
    onChange,
    afterLoad(form) { form.set('Contact', { 负责人: '张三', 电话: '0571-1234' }); form.show('Secret'); form.unlock('Secret'); },
    validate(form) { if (form.get('Title') === '作废') return '标题不能是作废'; },
    buttons: { fill(form) { form.set('Title', '来自按钮'); } },
  };
})();`;

function open(script: string | null, held: Promise<void> = Promise.resolve()) {
  sandboxes.current = inProcessSandboxes();
  const stub = stubFetch({
    'POST /v1/form/loadsetting': () => ok({ notModified: false, timestamp: 1, schema: { schemaCode: 'f_quote', appCode: 'crm', displayName: '报价单', nodeType: 200, version: 1, properties: [], childSchemas: [] }, definition }),
    'POST /v1/form/loaddata': () =>
      ok({
        schemaCode: 'f_quote', version: 1, isNew: true, status: 0, actions: ['Save', 'Submit', 'Close'], children: {},
        // The server script's onLoad filled two dynamic controls; the person may not see the floor price.
        values: { Title: '', Level: null, Note: '', Goods: [{ 名称: '苹果', 数量: 2 }, { 名称: '梨', 数量: 5 }], Tip: '今日报价有效' },
        fieldRights: { Secret: 'hidden' },
        system: { ObjectId: null, Name: '', Status: 0, CreatedBy: 'u1', ModifiedBy: 'u1', OwnerId: 'u1', OwnerDeptId: null, CreatedTime: null, ModifiedTime: null, SeqNo: null, WorkflowInstanceId: null },
      }),
    'POST /v1/codeeditor/runtime': async () => {
      await held;
      return ok({ script: script === null ? null : { js: script, version: 3 } });
    },
    'POST /v1/codeeditor/action': () => ok({ values: { Note: '九折', Nope: 1 }, message: '已询价' }),
    'POST /v1/form/action/execute': () => ok({ objectId: '0192aaaa-0000-7000-8000-000000000009', status: 1, seqNo: '1', name: '报价' }),
    'POST /v1/org/unit/batch': () => ok({ list: [] }),
  });
  const user = userEvent.setup();
  renderPage('/form/open/:schemaCode/:objectId?', <FormPage />, '/form/open/f_quote');
  return { ...stub, user };
}

const field = (name: string) => screen.getByRole('group', { name });
const textbox = (name: string) => within(field(name)).getByRole('textbox') as HTMLInputElement;

afterEach(() => {
  sandboxes.current = null;
});

describe('a form with a browser script', () => {
  it('shows what scripts computed in the dynamic controls: a record, a table, a text', async () => {
    open(SCRIPT);
    await screen.findByRole('form', { name: '报价单' });
    // afterLoad's form.set, drawn as label–value pairs.
    await waitFor(() => expect(within(field('联系人')).getByText('张三')).toBeTruthy());
    expect(within(field('联系人')).getByText('负责人')).toBeTruthy();
    const table = within(field('商品')).getByRole('table');
    expect(within(table).getByText('梨')).toBeTruthy();
    expect(within(table).getByRole('columnheader', { name: '数量' })).toBeTruthy();
    expect(within(field('提示')).getByText('今日报价有效')).toBeTruthy();
    // The script's show and unlock do not beat the person's rights.
    expect(screen.queryByRole('group', { name: '底价' })).toBeNull();
  });

  it("hides a field when the script's onChange says so, and shows it again", async () => {
    const { user } = open(SCRIPT);
    await screen.findByRole('form', { name: '报价单' });
    await waitFor(() => expect(within(field('联系人')).getByText('张三')).toBeTruthy());
    await user.click(within(field('等级')).getByRole('radio', { name: '高' }));
    await waitFor(() => expect(screen.queryByRole('group', { name: '备注' })).toBeNull());
    await user.click(within(field('等级')).getByRole('radio', { name: '低' }));
    await waitFor(() => expect(screen.getByRole('group', { name: '备注' })).toBeTruthy());
  });

  it("runs a button's browser handler, else the server action, and applies the server's values and message", async () => {
    const { user, callsTo } = open(SCRIPT);
    await screen.findByRole('form', { name: '报价单' });
    await waitFor(() => expect(within(field('联系人')).getByText('张三')).toBeTruthy());
    await user.click(screen.getByRole('button', { name: '填入标题' }));
    await waitFor(() => expect(textbox('标题').value).toBe('来自按钮'));
    expect(callsTo('POST', '/v1/codeeditor/action')).toHaveLength(0);

    await user.click(screen.getByRole('button', { name: '询价' }));
    await waitFor(() => expect(textbox('备注').value).toBe('九折'));
    expect(await screen.findByText('已询价')).toBeTruthy();
    const body = callsTo('POST', '/v1/codeeditor/action')[0].body as { schemaCode: string; actionName: string; values: Record<string, unknown>; params: unknown };
    expect(body).toMatchObject({ schemaCode: 'f_quote', actionName: 'Quote', params: null });
    expect(body.values.Title).toBe('来自按钮');
  });

  it('keeps a button without an action name disabled', async () => {
    open(SCRIPT);
    await screen.findByRole('form', { name: '报价单' });
    expect((screen.getByRole('button', { name: '空按钮' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it("stops a submit with the text validate answers", async () => {
    const { user, callsTo } = open(SCRIPT);
    await screen.findByRole('form', { name: '报价单' });
    await waitFor(() => expect(within(field('联系人')).getByText('张三')).toBeTruthy());
    await user.type(textbox('标题'), '作废');
    await user.click(screen.getByRole('button', { name: '提交' }));
    expect(await screen.findByText('标题不能是作废')).toBeTruthy();
    expect(callsTo('POST', '/v1/form/action/execute')).toHaveLength(0);
    await user.type(textbox('标题'), '单');
    await user.click(screen.getByRole('button', { name: '提交' }));
    await waitFor(() => expect(callsTo('POST', '/v1/form/action/execute')).toHaveLength(1));
  });

  it('lets a submit pressed before the script arrived wait for its checks', async () => {
    let arrive = () => {};
    const { user, callsTo } = open(SCRIPT, new Promise<void>((resolve) => (arrive = resolve)));
    await screen.findByRole('form', { name: '报价单' });
    await user.type(textbox('标题'), '作废');
    await user.click(screen.getByRole('button', { name: '提交' }));
    expect(callsTo('POST', '/v1/form/action/execute')).toHaveLength(0);
    arrive();
    expect(await screen.findByText('标题不能是作废')).toBeTruthy();
    expect(callsTo('POST', '/v1/form/action/execute')).toHaveLength(0);
  });

  it('opens no sandbox for a form without a script, and its buttons call the server', async () => {
    const { user, callsTo } = open(null);
    await screen.findByRole('form', { name: '报价单' });
    await waitFor(() => expect(callsTo('POST', '/v1/codeeditor/runtime')).toHaveLength(1));
    await user.click(screen.getByRole('button', { name: '填入标题' }));
    await waitFor(() => expect(callsTo('POST', '/v1/codeeditor/action')).toHaveLength(1));
    expect(sandboxes.current!.opened()).toBe(0);
  });
});
