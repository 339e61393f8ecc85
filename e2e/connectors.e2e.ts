import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { screenshot } from './browser.ts';
import { api, appWithPublishedForm, engineWithAdmin, memberPage, pageOf, type Admin } from './fixtures.ts';

/**
 * Issue 44 (docs/decisions/0120), must show, through the screens: the administrator adds a connection to a fake ERP
 * (an API key in a header) on the admin console's 连接器 page and 测试连接 shows it 正常; the ERP is stopped and the
 * test shows 异常; started again, 正常. A connector (GET /customers/{{Code}}, the customer's name and credit as
 * outputs) is added; in the form designer an advanced button is given the connector with its outputs mapped to two
 * fields; a member fills the customer code, presses the button and the two fields are filled from the ERP.
 * Around it (docs/decisions/0123): the connectors page first asks for the connector plugin, which the administrator
 * installs on 插件管理; at the end the plugin is uninstalled, the page saying the data stays.
 */
const API_KEY = 'erp-key-7f3a9c';
const CUSTOMERS: Record<string, { name: string; credit: number }> = { C1024: { name: '杭州明远五金有限公司', credit: 80000 } };

/** The fake ERP: checks the key in X-Api-Key, answers /health and /customers/<code>; stops and starts on one port. */
function erpFake() {
  const calls: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://erp');
    calls.push(`${req.method} ${url.pathname}`);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers['x-api-key'] !== API_KEY) return send(401, { message: 'unauthorized' });
    if (url.pathname === '/api/health') return send(200, { status: 'UP' });
    const found = /^\/api\/customers\/([^/]+)$/.exec(url.pathname);
    const customer = found ? CUSTOMERS[decodeURIComponent(found[1]!)] : undefined;
    if (!customer) return send(404, { message: 'not found' });
    return send(200, { code: 0, data: { customer: { no: found![1], ...customer } } });
  });
  let port = 0;
  return {
    calls,
    get url() {
      return `http://127.0.0.1:${port}/api`;
    },
    start: () =>
      new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, '127.0.0.1', () => {
          port = (server.address() as AddressInfo).port;
          resolve();
        });
      }),
    /** Stops listening and drops the platform's kept-alive sockets: the next call meets a refused connection. */
    stop: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

const erp = erpFake();
let admin: Admin;
let page: Page;
let memberFormPage: Page;

const APP = { code: 'crm', displayName: '客户管理' };
const FORM = { code: 'credit_check', displayName: '信用审核' };
const CONNECTION = { code: 'KingErp', name: '金蝶 ERP' };

beforeAll(async () => {
  await erp.start();
  admin = await engineWithAdmin({ userName: '陆清', engineName: '明川机械有限公司' });
  await appWithPublishedForm(admin, {
    app: APP,
    form: FORM,
    controls: [
      { type: 'textBox', code: 'Code', options: { displayName: '客户编码' } },
      { type: 'advancedButton', code: 'Lookup', options: { displayName: '查询客户' } },
      { type: 'textBox', code: 'CustomerName', options: { displayName: '客户名称' } },
      { type: 'number', code: 'Credit', options: { displayName: '信用额度', decimalPlaces: 0 } },
    ],
  });
  page = await pageOf(admin);
  const { member, page: memberFormPageOf } = await memberPage(admin, '秦朗');
  await api(admin, 'POST', '/v1/functionnode/auth/set', { code: APP.code, unitId: member.userId, permission: 'access' });
  memberFormPage = memberFormPageOf;
});
afterAll(() => erp.stop());

const dropdownOption = (p: Page, text: string) => p.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first();
/** The messages have gone (they would cover the page's title in a screenshot). */
const messagesGone = (p: Page) => expect.poll(() => p.locator('.ant-message-notice').count(), { timeout: 10_000 }).toBe(0);
const connectionRow = () => page.getByRole('row').filter({ hasText: CONNECTION.name });
const statusOf = () => connectionRow().getByTestId(`status-${CONNECTION.code}`).textContent();
async function pick(p: Page, select: Locator, text: string) {
  await select.click();
  await dropdownOption(p, text).click();
}

describe('the administrator connects the ERP', () => {
  it('installs the connector plugin on 插件管理 first', async () => {
    await page.goto('/admin/connectors');
    await expect.poll(() => page.getByText('连接器插件未安装').count()).toBe(1);
    await screenshot(page, 'connectors-0a-plugin-needed');
    await page.getByRole('button', { name: '前往插件管理' }).click();
    await expect.poll(() => page.url()).toContain('/admin/plugins');
    const card = page.getByTestId('plugin-card-connector');
    await expect.poll(() => card.getByTestId('plugin-status-connector').textContent()).toBe('未安装');
    await screenshot(page, 'connectors-0b-plugins-page');
    // A provider's plugin asks for its settings, the secret as a password input.
    await page.getByTestId('plugin-card-face').getByRole('button', { name: /安\s*装/ }).click();
    const face = page.getByRole('dialog', { name: '安装“人脸识别”' });
    await expect.poll(() => face.getByLabel('SecretKey').count()).toBe(1);
    await face.getByLabel('接口地址').fill('https://iai.tencentcloudapi.com');
    await screenshot(page, 'connectors-0d-plugin-settings-dialog');
    await face.getByRole('button', { name: /取\s*消/ }).click();
    await expect.poll(() => face.count()).toBe(0);
    await card.getByRole('button', { name: /安\s*装/ }).click();
    const dialog = page.getByRole('dialog', { name: '安装“连接器”' });
    await expect.poll(() => dialog.getByText('该插件无需填写设置，确认后即可安装。').count()).toBe(1);
    await dialog.getByRole('button', { name: /安\s*装/ }).click();
    await expect.poll(() => card.getByTestId('plugin-status-connector').textContent()).toBe('已安装');
    await messagesGone(page);
    await screenshot(page, 'connectors-0c-plugin-installed');
  });

  it('adds a connection with an API key; 测试连接 shows 正常', async () => {
    await page.goto('/admin/connectors');
    await page.getByRole('button', { name: /新建连接/ }).click();
    const dialog = page.getByRole('dialog', { name: '新建连接' });
    await dialog.getByLabel('名称').fill(CONNECTION.name);
    await dialog.getByLabel('编码').fill(CONNECTION.code);
    await dialog.getByLabel('基础地址').fill(erp.url);
    await pick(page, dialog.getByLabel('认证方式'), 'API Key');
    await dialog.getByLabel('参数名').fill('X-Api-Key');
    await dialog.getByLabel('API Key', { exact: true }).fill(API_KEY);
    await dialog.getByLabel('健康检查路径').fill('/health');
    await screenshot(page, 'connectors-1-connection-form');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => connectionRow().count()).toBe(1);

    await connectionRow().getByRole('button', { name: '测试连接' }).click();
    await expect.poll(() => page.getByText(/^连接正常（HTTP 200，\d+ 毫秒）$/).count()).toBe(1);
    await expect.poll(statusOf).toBe('正常');
    expect(erp.calls).toContain('GET /api/health');
  });

  it('the ERP stops: 测试连接 shows 异常; started again: 正常', async () => {
    await erp.stop();
    await connectionRow().getByRole('button', { name: '测试连接' }).click();
    await expect.poll(() => page.getByText(/^连接失败：/).count()).toBe(1);
    await expect.poll(statusOf).toBe('异常');
    await messagesGone(page);
    await screenshot(page, 'connectors-2-list-exception');

    await erp.start();
    await connectionRow().getByRole('button', { name: '测试连接' }).click();
    await expect.poll(statusOf).toBe('正常');
    await messagesGone(page);
    await screenshot(page, 'connectors-3-list-normal');
  });

  it('adds a connector reading the customer’s name and credit', async () => {
    await connectionRow().getByRole('button', { name: CONNECTION.name }).click();
    const card = page.locator('.ant-card').filter({ hasText: `“${CONNECTION.name}”的连接器` });
    await card.getByRole('button', { name: /新建连接器/ }).click();
    const dialog = page.getByRole('dialog', { name: '新建连接器' });
    await dialog.getByLabel('名称').fill('查询客户');
    await dialog.getByLabel('编码').fill('GetCustomer');
    await dialog.getByLabel('路径').fill('/customers/{{Code}}');
    await dialog.getByRole('button', { name: /添加输出/ }).click();
    await dialog.getByRole('button', { name: /添加输出/ }).click();
    await dialog.getByLabel('输出名').nth(0).fill('customerName');
    await dialog.getByLabel(/^JSON 路径/).nth(0).fill('data.customer.name');
    await dialog.getByLabel('输出名').nth(1).fill('credit');
    await dialog.getByLabel(/^JSON 路径/).nth(1).fill('data.customer.credit');
    await screenshot(page, 'connectors-4-connector-form');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(() => card.getByText('customerName ← data.customer.name').count()).toBe(1);
    await expect.poll(() => connectionRow().getByRole('cell', { name: '1', exact: true }).count()).toBe(1);
  });
});

describe('the advanced button', () => {
  it('is given the connector in the form designer, its outputs mapped to two fields', async () => {
    await page.goto(`/form/designer?schemaCode=${FORM.code}`);
    const canvas = page.getByRole('region', { name: '画布' });
    await canvas.getByRole('listitem', { name: '查询客户' }).first().click();
    const properties = page.getByRole('complementary', { name: '属性' });
    await pick(page, properties.getByLabel('连接器', { exact: true }), `${CONNECTION.name} / 查询客户`);
    await pick(page, properties.getByLabel('customerName', { exact: true }), '客户名称（CustomerName）');
    await pick(page, properties.getByLabel('credit', { exact: true }), '信用额度（Credit）');
    await screenshot(page, 'connectors-5-designer-panel');
    await page.getByRole('button', { name: '发布' }).click();
    await expect.poll(() => page.getByText(/已发布/).count()).toBeGreaterThan(0);
    const schema = await api<{ properties: unknown[] }>(admin, 'POST', '/v1/formdesign/load', { schemaCode: FORM.code });
    expect(JSON.stringify(schema)).toContain('"connectorCode":"GetCustomer"');
  });

  it('a member fills the customer code and presses it: the name and credit come from the ERP', async () => {
    const p = memberFormPage;
    const group = (name: string) => p.getByRole('group', { name, exact: true });
    await p.goto(`/form/open/${FORM.code}`);
    await group('客户编码').getByRole('textbox').fill('C1024');
    const before = erp.calls.length;
    await p.getByRole('button', { name: '查询客户', exact: true }).click();
    await expect.poll(() => group('客户名称').getByRole('textbox').inputValue()).toBe('杭州明远五金有限公司');
    await expect.poll(() => group('信用额度').getByRole('spinbutton').inputValue()).toMatch(/^80,?000$/);
    expect(erp.calls.slice(before)).toEqual(['GET /api/customers/C1024']);
    await expect.poll(() => p.getByText('已从外部系统填入 2 个字段').count()).toBe(1);
    await screenshot(p, 'connectors-6-filled-form');
  });

  it('the call log shows the health checks and the button’s call', async () => {
    await page.goto('/admin/connectors');
    await page.getByRole('tab', { name: '调用日志' }).click();
    const rows = page.getByRole('row');
    await expect.poll(() => rows.filter({ hasText: '高级按钮' }).filter({ hasText: 'GetCustomer' }).count()).toBe(1);
    await expect.poll(() => rows.filter({ hasText: '健康检查' }).count()).toBeGreaterThanOrEqual(3);
    await screenshot(page, 'connectors-7-call-log');
  });
});

describe('uninstalling the connector plugin', () => {
  it('says the settings and data stay, and the connectors page asks for the plugin again', async () => {
    await page.goto('/admin/plugins');
    const card = page.getByTestId('plugin-card-connector');
    await card.getByRole('button', { name: /卸\s*载/ }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: '卸载“连接器”？' });
    await expect.poll(() => confirm.getByText(/设置和安装期间写入的数据.*都会保留/).count()).toBe(1);
    await screenshot(page, 'connectors-8-uninstall-confirm');
    await confirm.getByRole('button', { name: /卸\s*载/ }).click();
    await expect.poll(() => card.getByTestId('plugin-status-connector').textContent()).toBe('未安装');
    await expect.poll(() => page.getByText('“连接器”已卸载，设置和数据均已保留').count()).toBe(1);
    await screenshot(page, 'connectors-9-uninstalled');
    await page.goto('/admin/connectors');
    await expect.poll(() => page.getByText('连接器插件未安装').count()).toBe(1);
    // The connection is still there (the database keeps it): installing again brings it back as it was.
    const kept = await api<{ item: { status: string } }>(admin, 'POST', '/v1/plugin/install', { code: 'connector' });
    expect(kept).toMatchObject({ item: { status: 'installed' } });
    const connections = await api<{ items: { code: string }[] }>(admin, 'GET', '/v1/connectors/connection/list');
    expect(connections.items.map((c) => c.code)).toEqual([CONNECTION.code]);
  });
});
