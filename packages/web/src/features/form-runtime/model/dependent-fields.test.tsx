import { describe, expect, it } from 'vitest';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderPage } from '../../../test/render.tsx';
import { ok, stubFetch, type RecordedCall } from '../../../test/fetch-stub.ts';
import { FormPage } from '../pages/form-page.tsx';

// Live association fill, associated properties, data links (per sub-table row too) and submit rules in the runtime
// (docs/decisions/0016), against a fake server that answers as the real one does.

const C1 = '0192aaaa-0000-7000-8000-0000000000c1';
const C2 = '0192aaaa-0000-7000-8000-0000000000c2';
const CUSTOMERS: Record<string, { Name: string; Phone: string; Level: string; Credit: number }> = {
  [C1]: { Name: '甲公司', Phone: '13800000001', Level: 'VIP', Credit: 100 },
  [C2]: { Name: '乙公司', Phone: '13800000002', Level: '普通', Credit: 5 },
};
const PRICES: Record<string, number> = { 苹果: 3, 香蕉: 2 };

const definition = {
  attributes: {
    displayName: '订单', enableDataLog: false, enableFormSNS: false, enableTask: false, titleWidth: 120, modalWidth: 820, modalHeight: 500,
    submitRules: [{ condition: '{Qty} < 0', action: 'hideButton', message: '' }, { condition: '{Qty} > 10', action: 'error', message: '数量不能超过10' }],
  },
  controls: [
    { type: 'associationQuery', code: 'Customer', options: { displayName: '客户', schemaCode: 'f_customer', associationFilter: '', mappingControls: { Phone: 'Phone' } } },
    { type: 'textBox', code: 'Phone', options: { displayName: '电话' } },
    { type: 'associatedProperty', code: 'Credit', options: { displayName: '信用', associationCode: 'Customer', sourcePropertySchema: { schemaCode: 'f_customer', propertyCode: 'Credit', controlType: 'number' } } },
    { type: 'number', code: 'Qty', options: { displayName: '数量' } },
    { type: 'gridView', code: 'Lines', options: { displayName: '明细' }, controls: [
      { type: 'textBox', code: 'Goods', options: { displayName: '商品' } },
      { type: 'number', code: 'Price', options: { displayName: '单价', dataLink: { schemaCode: 'f_goods', conditions: [{ field: 'Goods', sourceField: 'GoodsName' }], resultField: 'Price' } } },
    ] },
  ],
};

function stub(linkAnswered: Promise<void> = Promise.resolve()) {
  return stubFetch({
    'POST /v1/form/loadsetting': () => ok({ notModified: false, timestamp: 1, schema: { schemaCode: 'f_order', appCode: 'crm', displayName: '订单', nodeType: 200, version: 1, properties: [], childSchemas: [] }, definition }),
    'POST /v1/form/loaddata': () => ok({
      schemaCode: 'f_order', version: 1, isNew: true, isWorkflow: false, values: { Customer: null, Phone: '', Qty: null, Credit: null }, children: { Lines: [] }, status: 0, actions: ['Save', 'Submit', 'Close'],
      system: { ObjectId: null, Name: '', Status: 0, CreatedBy: 'u1', ModifiedBy: null, OwnerId: 'u1', OwnerDeptId: null, CreatedTime: null, ModifiedTime: null, SeqNo: null, WorkflowInstanceId: null },
    }),
    'POST /v1/form/association/list': () => ok({ list: Object.entries(CUSTOMERS).map(([ObjectId, c]) => ({ ObjectId, Name: c.Name })), total: 2, hasMore: false }),
    'POST /v1/form/association/fill': (call: RecordedCall) => {
      const c = CUSTOMERS[(call.body as { objectIds: string[] }).objectIds[0]];
      return ok({ values: { Phone: c?.Phone ?? null }, properties: { Credit: c?.Credit ?? null }, names: {} });
    },
    'POST /v1/form/loaddatalink/batch': async (call: RecordedCall) => {
      await linkAnswered;
      const items = (call.body as { items: { controlCode: string; values: { Goods: string } }[] }).items;
      return ok({ list: items.map((item) => ({ controlCode: item.controlCode, value: PRICES[item.values.Goods.trim()] ?? null, objectId: null })) });
    },
    'POST /v1/form/action/execute': () => ok({ objectId: '0192aaaa-0000-7000-8000-000000000001', status: 1, seqNo: null, name: '单' }),
    'POST /v1/org/unit/batch': () => ok({ list: [] }),
  });
}

const field = (name: string) => screen.getByRole('group', { name });

async function open(linkAnswered?: Promise<void>) {
  const fake = stub(linkAnswered);
  const user = userEvent.setup();
  renderPage('/form/open/:schemaCode/:objectId?', <FormPage />, '/form/open/f_order');
  await screen.findByRole('form', { name: '订单' });
  return { ...fake, user };
}

async function choose(user: ReturnType<typeof userEvent.setup>, name: string) {
  fireEvent.mouseDown(within(field('客户')).getByRole('combobox'));
  await user.click(await screen.findByTitle(name));
}

describe('dependent fields in the runtime', () => {
  it('choosing a customer fills the mapped phone and shows its credit; another choice refills; clearing clears', async () => {
    const { user, callsTo } = await open();
    await choose(user, '甲公司');
    await waitFor(() => expect((within(field('电话')).getByRole('textbox') as HTMLInputElement).value).toBe('13800000001'));
    await waitFor(() => expect(field('信用').textContent).toBe('信用100'));
    expect(callsTo('POST', '/v1/form/association/list')[0].body).toMatchObject({ schemaCode: 'f_order', controlCode: 'Customer' });
    await choose(user, '乙公司');
    await waitFor(() => expect((within(field('电话')).getByRole('textbox') as HTMLInputElement).value).toBe('13800000002'));
    fireEvent.mouseDown(within(field('客户')).getByRole('combobox'));
    await user.click(within(field('客户')).getByLabelText('close-circle'));
    await waitFor(() => expect((within(field('电话')).getByRole('textbox') as HTMLInputElement).value).toBe(''));
    expect(within(field('信用')).getByText('--')).toBeTruthy();
    expect(callsTo('POST', '/v1/form/association/fill').map((c) => (c.body as { objectIds: string[] }).objectIds)).toEqual([[C1], [C2], []]);
  });

  it('links each sub-table row\'s price from its goods, clears it when the goods are emptied', async () => {
    const { user, callsTo } = await open();
    await user.click(screen.getByRole('button', { name: /新增行/ }));
    await user.click(screen.getByRole('button', { name: /新增行/ }));
    const goods = () => within(field('明细')).getAllByRole('textbox');
    const prices = () => within(field('明细')).getAllByRole('spinbutton').map((input) => (input as HTMLInputElement).value);
    await user.type(goods()[0], '苹果');
    await user.type(goods()[1], '香蕉');
    await waitFor(() => expect(prices()).toEqual(['3', '2']));
    expect(callsTo('POST', '/v1/form/loaddatalink/batch').at(-1)!.body).toMatchObject({ schemaCode: 'f_order', items: [{ controlCode: 'Lines.Price' }] });
    await user.clear(goods()[0]);
    await waitFor(() => expect(prices()).toEqual(['', '2']));
  });

  it('an answer that arrives just before a keystroke survives it (every write lands on the values as they are by then)', async () => {
    let answer = () => {};
    const { user } = await open(new Promise<void>((resolve) => (answer = resolve)));
    await user.click(screen.getByRole('button', { name: /新增行/ }));
    await user.type(within(field('明细')).getAllByRole('textbox')[0], '苹果');
    answer();
    // The answer is in React's queue (microtasks only; React renders in a later task) when the person types elsewhere.
    for (let i = 0; i < 50; i += 1) await Promise.resolve();
    fireEvent.change(within(field('数量')).getByRole('spinbutton'), { target: { value: '5' } });
    await waitFor(() => expect(within(field('明细')).getAllByRole('spinbutton').map((input) => (input as HTMLInputElement).value)).toEqual(['3']));
    expect((within(field('数量')).getByRole('spinbutton') as HTMLInputElement).value).toBe('5');
  });

  it('a submit rule hides the Submit button while it holds, another refuses Submit with its message', async () => {
    const { user, callsTo } = await open();
    const qty = within(field('数量')).getByRole('spinbutton');
    await user.type(qty, '-1');
    await waitFor(() => expect(screen.queryByRole('button', { name: '提交' })).toBeNull());
    await user.clear(qty);
    await user.type(qty, '11');
    await user.click(await screen.findByRole('button', { name: '提交' }));
    expect(await screen.findByText('数量不能超过10')).toBeTruthy();
    expect(callsTo('POST', '/v1/form/action/execute')).toHaveLength(0);
  });
});
