import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './browser.ts';
import { api as callAs, appWithForms, engineWithAdmin, pageOf, publish as publishAs, type Admin } from './fixtures.ts';

/**
 * Rollups and business rules (docs/decisions/0015) in the browser: the designer's 业务规则 tab adds a rule, the rollup's
 * own panel chooses another form's records; an order's lines roll up on the order as they are typed, and the
 * customer shows the total of its orders after they are submitted, changed and removed.
 */
let page: Page;
let admin: Admin;
const api = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => callAs<T>(admin, method, path, body);

const publish = (schemaCode: string, definition: unknown) => publishAs(admin, schemaCode, definition);

const ORDER = {
  attributes: { displayName: '销售订单' },
  controls: [
    { type: 'associationQuery', code: 'Customer', options: { displayName: '客户', schemaCode: 'customer' } },
    { type: 'gridView', code: 'Lines', options: { displayName: '明细' }, controls: [{ type: 'number', code: 'Qty', options: { displayName: '数量' } }, { type: 'number', code: 'Price', options: { displayName: '单价', decimalPlaces: 2 } }, { type: 'formula', code: 'Amount', options: { displayName: '金额', expression: '{Lines.Qty}*{Lines.Price}', decimalPlaces: 2 } }] },
    { type: 'rollup', code: 'Total', options: { displayName: '订单金额', sourceCode: 'Lines', sourceField: 'Amount', decimalPlaces: 2 } },
  ],
};

beforeAll(async () => {
  admin = await engineWithAdmin({ userName: '周岚', engineName: '岚山商贸有限公司' });
  await appWithForms(admin, { code: 'crm', displayName: '客户管理' }, [{ code: 'customer', displayName: '客户' }, { code: 'order', displayName: '销售订单' }, { code: 'ledger', displayName: '往来台账' }]);
  await publish('customer', { attributes: { displayName: '客户' }, controls: [{ type: 'textBox', code: 'CName', options: { displayName: '客户名称' } }] });
  await publish('order', ORDER);
  await publish('ledger', { attributes: { displayName: '往来台账' }, controls: [{ type: 'textBox', code: 'Ref', options: { displayName: '单据' } }, { type: 'number', code: 'Amount', options: { displayName: '金额', decimalPlaces: 2 } }] });
  await publish('customer', {
    attributes: { displayName: '客户' },
    controls: [{ type: 'textBox', code: 'CName', options: { displayName: '客户名称' } }, { type: 'rollup', code: 'OrderTotal', options: { displayName: '订单总额', sourceSchemaCode: 'order', sourceCode: 'Customer', sourceField: 'Total', decimalPlaces: 2 } }],
  });
  page = await pageOf(admin, { width: 1440, height: 900 });
});

describe('rollups and business rules', () => {
  it('the designer: a rollup over another form\'s records, and a business rule in the 业务规则 tab', async () => {
    await page.goto('/form/designer?schemaCode=customer');
    await page.getByText('订单总额').first().click();
    await expect.poll(() => page.getByText('其他表单的数据').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await screenshot(page, 'rollup-designer');
    await page.goto('/form/designer?schemaCode=order');
    await page.getByRole('tab', { name: '业务规则' }).click();
    await page.getByRole('button', { name: '添加规则' }).click();
    await page.getByLabel('规则名称').fill('记入往来台账');
    await page.locator('#rule-target').click();
    await page.locator('.ant-select-dropdown:visible').getByText('往来台账（ledger）').click();
    await page.getByRole('button', { name: '添加映射' }).click();
    await expect.poll(() => page.getByRole('dialog').getByText('单据').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await screenshot(page, 'business-rule-editor');
    await page.getByRole('button', { name: '确定' }).click();
    await expect.poll(async () => (await api<{ draft: { name: string }[] }>('POST', '/v1/form/businessrule/load', { schemaCode: 'order' })).draft.map((r) => r.name), { timeout: 15_000 }).toEqual(['记入往来台账']);
    await screenshot(page, 'business-rules-tab');
  });

  it('the runtime: the order total follows its lines, the customer the total of its submitted orders', async () => {
    const customer = (await api<{ objectId: string }>('POST', '/v1/form/action/execute', { schemaCode: 'customer', actionCode: 'Submit', values: { CName: '青山物流' } })).objectId;
    const submit = (lines: { Qty: number; Price: number }[]) => api<{ objectId: string }>('POST', '/v1/form/action/execute', { schemaCode: 'order', actionCode: 'Submit', values: { Customer: customer }, children: { Lines: lines } });
    const one = (await submit([{ Qty: 2, Price: 30 }, { Qty: 1, Price: 15 }])).objectId;
    await submit([{ Qty: 4, Price: 10 }]);
    await page.goto(`/form/open/order/${one}?mode=Edit`);
    const total = page.getByRole('group', { name: '订单金额', exact: true });
    await expect.poll(() => total.innerText(), { timeout: 20_000 }).toContain('75');
    await page.getByRole('spinbutton').first().fill('3');
    await expect.poll(() => total.innerText(), { timeout: 10_000 }).toContain('105');
    await screenshot(page, 'rollup-runtime-order');
    await api('POST', '/v1/form/action/execute', { schemaCode: 'order', actionCode: 'Save', objectId: one, children: { Lines: [{ Qty: 3, Price: 30 }, { Qty: 1, Price: 15 }] } });
    await page.goto(`/form/open/customer/${customer}`);
    await expect.poll(() => page.getByRole('group', { name: '订单总额', exact: true }).innerText(), { timeout: 20_000 }).toContain('145');
    await api('POST', '/v1/form/action/execute', { schemaCode: 'order', actionCode: 'Remove', objectId: one });
    await page.reload();
    await expect.poll(() => page.getByRole('group', { name: '订单总额', exact: true }).innerText(), { timeout: 20_000 }).toContain('40');
    await screenshot(page, 'rollup-runtime-customer');
  });
});
