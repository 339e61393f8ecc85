import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { ERP, ERP_ORDERS, startErpFake, type ErpFake } from '../packages/server/test/erp-fake.ts';
import { signDelivery } from '../packages/server/test/inbound-sender.ts';
import { screenshot } from './browser.ts';
import { api, appWithPublishedForm, baseUrl, engineWithAdmin, memberPage, pageOf, uniqueMobile, until, type Admin } from './fixtures.ts';
import { E2E_CODE } from './global-setup.ts';
import { call } from './session.ts';

/**
 * Issue 44 (docs/decisions/0123), through the screens: with the connector plugin installed and a connector listing the
 * fake ERP's orders (paging and filters as query parameters), an app creator adds a 数据源 node to their app and sets
 * it up in its drawer (connector, column titles, a filter, the paging places and the total); a member opens it,
 * turns to page 3 and filters by status — the fake ERP sees the page and the filter. The automation designer shows
 * a connector-triggered automation's delivery URL and signing secret.
 */
let erp: ErpFake;
let admin: Admin;
let creatorPage: Page;
let creator: { token: string; engineCode: string };
let member: { userId: string };
let memberView: Page;
let adminPage: Page;
const APP = { code: 'erpview', displayName: 'ERP 看板' };
let nodePath = '';

const dropdownOption = (p: Page, text: string) => p.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first();
async function pick(p: Page, select: Locator, text: string) {
  await select.click();
  await dropdownOption(p, text).click();
}
const messagesGone = (p: Page) => expect.poll(() => p.locator('.ant-message-notice').count(), { timeout: 10_000 }).toBe(0);

beforeAll(async () => {
  erp = await startErpFake();
  admin = await engineWithAdmin({ userName: '陆清', engineName: '明川机械有限公司' });
  await api(admin, 'POST', '/v1/plugin/install', { code: 'connector', settings: {}, secrets: {} });
  await api(admin, 'POST', '/v1/connectors/connection/save', { code: 'Erp', name: '金蝶 ERP', baseUrl: `${erp.url}/key`, authKind: 'apiKey', auth: { apiKeyName: 'X-Api-Key', apiKeyIn: 'header' }, secret: ERP.apiKey, healthPath: '/health' });
  await api(admin, 'POST', '/v1/connectors/connector/save', {
    code: 'ListOrders',
    name: '销售订单列表',
    connectionCode: 'Erp',
    method: 'GET',
    path: '/orders',
    params: [
      { name: 'page', in: 'query', value: '{{Page}}' },
      { name: 'size', in: 'query', value: '{{Size}}' },
      { name: 'status', in: 'query', value: '{{Status}}' },
    ],
    outputs: [
      { name: 'orders', path: 'data.items', itemFields: { no: 'id', customer: 'customer.name', amount: 'amount', status: 'status' } },
      { name: 'total', path: 'data.total' },
    ],
  });
  // An AppCreator (authType 6) signs in by code and makes their own app.
  const mobile = uniqueMobile();
  const company = await api<{ id: string }>(admin, 'GET', '/v1/org/department');
  await api(admin, 'POST', '/v1/org/user/create', { name: '韩初', mobile, departmentIds: [company.id], authType: 6 });
  await fetch(`${baseUrl()}/v1/captcha/verifycode/send`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ mobile, scene: 'login' }) });
  const signedIn = await call<{ accessToken: string; engineCode: string }>(baseUrl(), null, 'GET', `/v1/login/mobile/verifycode?mobile=${mobile}&code=${E2E_CODE}`);
  creator = { token: signedIn.accessToken, engineCode: signedIn.engineCode };
  await api(creator as Admin, 'POST', '/v1/functionnode', { code: APP.code, displayName: APP.displayName, nodeType: 190 });
  creatorPage = await pageOf(creator as Admin);
  const m = await memberPage(admin, '秦朗');
  member = m.member;
  memberView = m.page;
  await api(admin, 'POST', '/v1/functionnode/auth/set', { code: APP.code, unitId: member.userId, permission: 'access' });
  adminPage = await pageOf(admin);
});
afterAll(() => erp?.close());

const ordersCalls = () => erp.calls.filter((c) => c.url.startsWith('/key/orders')).map((c) => new URL(c.url, 'http://erp').searchParams);

describe('the data-source node', () => {
  it('an app creator adds one to their app and sets it up over the ERP connector', async () => {
    const p = creatorPage;
    await p.goto(`/workbench/app/${APP.code}`);
    await p.getByRole('button', { name: '新建功能' }).click();
    await p.getByRole('menuitem', { name: '数据源', exact: true }).click();
    const dialog = p.getByRole('dialog', { name: '新建数据源' });
    await dialog.getByLabel('名称').fill('ERP 订单');
    await dialog.getByRole('button', { name: '确定' }).click();
    await p.waitForURL(`**/workbench/app/${APP.code}/*`);
    nodePath = new URL(p.url()).pathname;
    await expect.poll(() => p.getByText('数据源尚未设置').count()).toBe(1);
    await p.getByRole('button', { name: /设置数据源/ }).click();
    const drawer = p.getByRole('dialog', { name: '设置数据源' });
    await pick(p, drawer.getByLabel('连接器', { exact: true }), '金蝶 ERP / 销售订单列表');
    await drawer.getByLabel('列标题 no').fill('订单号');
    await drawer.getByLabel('列标题 customer').fill('客户');
    await drawer.getByLabel('列标题 amount').fill('金额');
    await drawer.getByLabel('列标题 status').fill('状态');
    await drawer.getByRole('button', { name: /添加筛选条件/ }).click();
    await pick(p, drawer.getByLabel('连接器参数 1'), '{{Status}}');
    await drawer.getByLabel('显示名称 1').fill('订单状态');
    await drawer.getByRole('switch', { name: '由外部系统分页' }).click();
    await pick(p, drawer.getByLabel('页码参数'), '{{Page}}');
    await pick(p, drawer.getByLabel('每页条数参数'), '{{Size}}');
    await pick(p, drawer.getByLabel('总数输出'), 'total');
    await screenshot(p, 'data-source-1-designer');
    await drawer.getByRole('button', { name: /保\s*存/ }).click();
    await expect.poll(() => drawer.count()).toBe(0);
    const table = p.getByRole('table');
    await expect.poll(() => table.getByRole('cell', { name: 'SO-001', exact: true }).count(), { timeout: 15_000 }).toBe(1);
    await expect.poll(() => p.getByText(`共 ${ERP_ORDERS.length} 条`).count()).toBe(1);
    await messagesGone(p);
    await screenshot(p, 'data-source-2-creator-view');
  });

  it('a member opens it, turns pages and filters; the ERP sees the page and the filter', async () => {
    const p = memberView;
    await p.goto(nodePath);
    await expect.poll(() => p.getByRole('cell', { name: 'SO-001', exact: true }).count(), { timeout: 15_000 }).toBe(1);
    expect(await p.getByRole('button', { name: /设置数据源/ }).count()).toBe(0);
    expect(await p.getByRole('columnheader', { name: '订单号' }).count()).toBe(1);
    await p.locator('.ant-pagination-item-2').click();
    await expect.poll(() => p.getByRole('cell', { name: 'SO-021', exact: true }).count(), { timeout: 15_000 }).toBe(1);
    expect(ordersCalls().at(-1)!.get('page')).toBe('2');
    expect(ordersCalls().at(-1)!.get('size')).toBe('20');
    await p.getByLabel('订单状态').fill('open');
    await p.getByRole('button', { name: /查\s*询/ }).click();
    const open = ERP_ORDERS.filter((o) => o.status === 'open');
    await expect.poll(() => p.getByText(`共 ${open.length} 条`).count(), { timeout: 15_000 }).toBe(1);
    expect(ordersCalls().at(-1)!.get('status')).toBe('open');
    expect(ordersCalls().at(-1)!.get('page')).toBe('1');
    await expect.poll(() => p.getByRole('cell', { name: open[1]!.id, exact: true }).count()).toBe(1);
    expect(await p.getByRole('cell', { name: 'SO-002', exact: true }).count()).toBe(0);
    await screenshot(p, 'data-source-3-member-filtered');
  });
});

describe('the inbound connector trigger', () => {
  it('the automation designer shows its delivery URL and signing secret', async () => {
    await appWithPublishedForm(admin, { app: { code: 'sales', displayName: '销售管理' }, form: { code: 'erp_order', displayName: 'ERP 订单同步' }, controls: [{ type: 'textBox', code: 'OrderNo', options: { displayName: '订单号' } }] });
    const saved = (await api<{ automation: { id: string; webhookUrl: string } }>(admin, 'POST', '/v1/automatic/save', {
      schemaCode: 'erp_order',
      automation: { name: 'ERP 推送订单', trigger: { type: 'connector' }, steps: [{ id: 'i', type: 'insert', targetSchemaCode: 'erp_order', mappings: [{ field: 'OrderNo', value: { type: 'field', code: 'orderNo' } }] }] },
    })).automation;
    const secret = await api<{ secret: string; url: string }>(admin, 'POST', '/v1/connectors/inbound/secret', { id: saved.id });
    const p = adminPage;
    await p.goto('/form/automation/erp_order');
    await p.getByText('ERP 推送订单').first().click();
    const drawer = p.getByRole('dialog');
    await expect.poll(() => drawer.getByLabel('签名密钥').textContent(), { timeout: 15_000 }).toBe(secret.secret);
    expect(await drawer.getByLabel('投递地址').textContent()).toBe(`${baseUrl()}${secret.url}`);
    await expect.poll(() => drawer.getByText(/X-Delivery-Id/).count()).toBeGreaterThan(0);
    await screenshot(p, 'data-source-4-inbound-trigger');
  });

  it('the ERP delivers one order three times with one delivery id, and once forged: one record', async () => {
    const { secret, url } = await api<{ secret: string; url: string }>(admin, 'POST', '/v1/connectors/inbound/secret', { id: (await api<{ automations: { id: string }[] }>(admin, 'POST', '/v1/automatic/list', { schemaCode: 'erp_order' })).automations[0]!.id });
    const send = async (key: string) => {
      const delivery = signDelivery(key, { orderNo: 'SO-7001' }, { deliveryId: 'erp-7001' });
      const res = await fetch(`${baseUrl()}${url}`, { method: 'POST', headers: delivery.headers, body: delivery.body });
      return { status: res.status, body: (await res.json()) as { successful: boolean; data?: { runId: string }; errorCode?: number } };
    };
    const answers = [await send(secret), await send(secret), await send(secret)];
    expect(answers.map((a) => a.status)).toEqual([200, 200, 200]);
    expect(new Set(answers.map((a) => a.body.data?.runId)).size).toBe(1);
    expect(await send('forged-secret')).toMatchObject({ status: 401, body: { successful: false, errorCode: 420016 } });
    const rows = () => api<{ list: { OrderNo: string }[] }>(admin, 'POST', '/v1/bizdata/query', { schemaCode: 'erp_order', pageIndex: 0, pageSize: 10 });
    await until('the delivery to make its record', rows, (r) => r.list.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect((await rows()).list.map((r) => r.OrderNo)).toEqual(['SO-7001']);
  });
});
