import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './browser.ts';
import { api as callAs, appWithForms, engineWithAdmin, pageOf, publish as publishAs, type Admin } from './fixtures.ts';

/**
 * Issue 7, must show (docs/decisions/0016): an order with line items (quantity × price formulas and a total), an
 * association to a customer whose choice fills the customer's phone and level, a data link that prices each line
 * from the goods form, all right after lines are added, changed and removed; a rollup of order totals on the customer.
 */
let page: Page;
let admin: Admin;
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });
const api = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => callAs<T>(admin, method, path, body);

const publish = (schemaCode: string, definition: unknown) => publishAs(admin, schemaCode, definition);

const customerControls = [
  { type: 'textBox', code: 'CustName', options: { displayName: '客户名称' } },
  { type: 'textBox', code: 'Phone', options: { displayName: '联系电话' } },
  { type: 'dropDown', code: 'Level', options: { displayName: '客户等级', defaultItems: ['普通', 'VIP'] } },
];
const ORDER = {
  attributes: { displayName: '销售订单', nameSchema: '{OrderNo}' },
  controls: [
    { type: 'textBox', code: 'OrderNo', options: { displayName: '订单号' } },
    { type: 'associationQuery', code: 'Customer', options: { displayName: '客户', schemaCode: 'customer', mappingControls: { CustPhone: 'Phone', CustLevel: 'Level' } } },
    { type: 'textBox', code: 'CustPhone', options: { displayName: '客户电话' } },
    { type: 'textBox', code: 'CustLevel', options: { displayName: '客户等级' } },
    { type: 'gridView', code: 'Lines', options: { displayName: '订单明细' }, controls: [
      { type: 'textBox', code: 'Goods', options: { displayName: '商品' } },
      { type: 'number', code: 'Price', options: { displayName: '单价', decimalPlaces: 2, dataLink: { schemaCode: 'goods', conditions: [{ field: 'Goods', sourceField: 'GoodsName' }], resultField: 'UnitPrice' } } },
      { type: 'number', code: 'Qty', options: { displayName: '数量' } },
      { type: 'formula', code: 'Amount', options: { displayName: '金额', expression: '{Lines.Qty}*{Lines.Price}', decimalPlaces: 2 } },
    ] },
    { type: 'formula', code: 'Total', options: { displayName: '订单总额', expression: 'SUM({Lines.Amount})', decimalPlaces: 2 } },
    { type: 'formula', code: 'Capital', options: { displayName: '大写金额', expression: 'UPPERMONEY({Total})', bindType: 'string' } },
  ],
};

beforeAll(async () => {
  admin = await engineWithAdmin({ userName: '陈立', engineName: '立信商贸有限公司' });
  await appWithForms(admin, { code: 'sales', displayName: '销售管理' }, [{ code: 'customer', displayName: '客户' }, { code: 'goods', displayName: '商品' }, { code: 'order', displayName: '销售订单' }]);
  await publish('goods', { attributes: { displayName: '商品' }, controls: [{ type: 'textBox', code: 'GoodsName', options: { displayName: '商品名称' } }, { type: 'number', code: 'UnitPrice', options: { displayName: '单价', decimalPlaces: 2 } }] });
  for (const [GoodsName, UnitPrice] of [['钢管', 12.5], ['水泥', 5]] as const) await api('POST', '/v1/form/action/execute', { schemaCode: 'goods', actionCode: 'Submit', values: { GoodsName, UnitPrice } });
  await publish('customer', { attributes: { displayName: '客户', nameSchema: '{CustName}' }, controls: customerControls });
  for (const [CustName, Phone, Level] of [['星河科技', '13900000001', 'VIP'], ['远山建材', '13900000002', '普通']]) await api('POST', '/v1/form/action/execute', { schemaCode: 'customer', actionCode: 'Submit', values: { CustName, Phone, Level } });
  await publish('order', ORDER);
  // The customer rolls up the totals of its effective orders (another helper's rollup control, docs/decisions/0015).
  await publish('customer', { attributes: { displayName: '客户', nameSchema: '{CustName}' }, controls: [...customerControls, { type: 'rollup', code: 'OrderTotal', options: { displayName: '订单总额', rollupType: 'sum', sourceSchemaCode: 'order', sourceCode: 'Customer', sourceField: 'Total', decimalPlaces: 2 } }] });
  page = await pageOf(admin, { width: 1440, height: 900 });
});

const form = () => page.getByRole('form', { name: '销售订单' });
const field = (name: string) => form().getByRole('group', { name, exact: true });
const pick = (text: string) => page.locator('.ant-select-dropdown:visible').getByText(text, { exact: true }).click();
const lines = () => field('订单明细');
const cellText = (name: string) => field(name).innerText();

describe('an order with line items, a customer association, a data link and a rollup', () => {
  let objectId = '';

  it('choosing the customer fills its phone and level; lines price themselves and add up as they change', async () => {
    await page.goto('/workbench/app/sales/order');
    await page.getByRole('button', { name: /新增/ }).click();
    await form().waitFor();
    await field('订单号').getByRole('textbox').fill('SO-001');
    await field('客户').getByRole('combobox').click();
    await pick('星河科技');
    await eventually(() => field('客户电话').getByRole('textbox').inputValue()).toBe('13900000001');
    await eventually(() => field('客户等级').getByRole('textbox').inputValue()).toBe('VIP');
    // Two lines: goods typed, the price linked from the goods form, the quantity typed.
    await lines().getByRole('button', { name: /新增行/ }).click();
    await lines().getByRole('button', { name: /新增行/ }).click();
    const goods = lines().getByRole('textbox');
    const numbers = () => lines().getByRole('spinbutton');
    await goods.nth(0).fill('钢管');
    await goods.nth(1).fill('水泥');
    await eventually(() => numbers().nth(0).inputValue()).toBe('12.50');
    await eventually(() => numbers().nth(2).inputValue()).toBe('5.00');
    await numbers().nth(1).fill('4');
    await numbers().nth(3).fill('10');
    await eventually(() => cellText('订单总额')).toContain('100.00');
    await eventually(() => cellText('大写金额')).toContain('壹佰元整');
    await screenshot(page, 'order-customer-two-lines');
    // Change a quantity, then remove the second line.
    await numbers().nth(1).fill('2');
    await eventually(() => cellText('订单总额')).toContain('75.00');
    await lines().getByRole('button', { name: /删除第2行/ }).click();
    await eventually(() => cellText('订单总额')).toContain('25.00');
    await eventually(() => cellText('大写金额')).toContain('贰拾伍元整');
    // Another customer refills the mapped fields.
    await field('客户').getByRole('combobox').click();
    await pick('远山建材');
    await eventually(() => field('客户电话').getByRole('textbox').inputValue()).toBe('13900000002');
    await eventually(() => field('客户等级').getByRole('textbox').inputValue()).toBe('普通');
    await screenshot(page, 'order-customer-edited');
  });

  it('submits; the server stores the same values and the customer rolls up the order total', async () => {
    await page.getByRole('button', { name: '提交', exact: true }).click();
    const orders = () => api<{ list: Record<string, unknown>[] }>('POST', '/v1/bizdata/query', { schemaCode: 'order', pageIndex: 0, pageSize: 10, status: [1] });
    await eventually(async () => (await orders()).list.length).toBe(1);
    const list = await orders();
    objectId = String(list.list[0].ObjectId);
    expect(list.list[0]).toMatchObject({ CustPhone: '13900000002', CustLevel: '普通', Total: 25, Capital: '贰拾伍元整' });
    const customers = await api<{ list: Record<string, unknown>[] }>('POST', '/v1/bizdata/query', { schemaCode: 'customer', pageIndex: 0, pageSize: 10, filters: [{ field: 'CustName', value: '远山建材' }] });
    expect(customers.list[0].OrderTotal).toBe(25);
    await screenshot(page, 'order-customer-submitted');
  });

  it('a second order with more lines adds to the customer\'s rollup; removing a line lowers it again', async () => {
    const second = await api<{ objectId: string }>('POST', '/v1/form/action/execute', {
      schemaCode: 'order', actionCode: 'Submit',
      values: { OrderNo: 'SO-002', Customer: (await api<{ list: { ObjectId: string }[] }>('POST', '/v1/bizdata/query', { schemaCode: 'customer', pageIndex: 0, pageSize: 10, filters: [{ field: 'CustName', value: '远山建材' }] })).list[0].ObjectId },
      children: { Lines: [{ Goods: '水泥', Qty: 3 }, { Goods: '钢管', Qty: 1 }] },
    });
    const rollup = async () => (await api<{ list: Record<string, unknown>[] }>('POST', '/v1/bizdata/query', { schemaCode: 'customer', pageIndex: 0, pageSize: 10, filters: [{ field: 'CustName', value: '远山建材' }] })).list[0].OrderTotal;
    expect(await rollup()).toBe(25 + 15 + 12.5);
    await api('POST', '/v1/form/action/execute', { schemaCode: 'order', actionCode: 'Save', objectId: second.objectId, values: {}, children: { Lines: [{ Goods: '水泥', Qty: 3 }] } });
    expect(await rollup()).toBe(25 + 15);
    // The customer's record shows the rollup in the browser.
    await page.goto('/workbench/app/sales/customer');
    await page.getByText('远山建材').first().click();
    const customer = page.getByRole('form', { name: '客户' });
    await eventually(() => customer.getByRole('group', { name: '订单总额', exact: true }).innerText()).toContain('40.00');
    await screenshot(page, 'order-customer-rollup');
    expect(objectId).not.toBe('');
  });
});
