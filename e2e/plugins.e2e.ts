import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { screenshot } from './browser.ts';
import { api, appWithPublishedForm, engineWithAdmin, memberPage, pageOf, type Admin } from './fixtures.ts';

/**
 * Issue 44 (docs/decisions/0123), the engine's own plugin through the screens: on 插件管理 → 自建插件 the administrator
 * adds a plugin that calls a connector of a fake credit bureau (a bearer token it checks), submits it (审核中), sends it
 * back with a reason (预发布), submits again, approves it (已发布) and installs it; in the form designer the plugin
 * control is given the plugin; a member presses its button and sees the bureau's answer, kept as the control's value.
 */
const TOKEN = 'bureau-token-51c2';

function bureauFake() {
  const calls: string[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://bureau');
    calls.push(`${req.method} ${url.pathname}`);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (req.headers.authorization !== `Bearer ${TOKEN}`) return send(401, { message: 'unauthorized' });
    const found = /^\/v1\/credit\/([^/]+)$/.exec(url.pathname);
    if (!found) return send(404, { message: 'not found' });
    return send(200, { result: { company: decodeURIComponent(found[1]!), rating: 'AA', limit: 120000 } });
  });
  let port = 0;
  return {
    calls,
    get url() {
      return `http://127.0.0.1:${port}`;
    },
    start: () => new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => { port = (server.address() as AddressInfo).port; resolve(); })),
    stop: () => new Promise<void>((resolve) => { server.close(() => resolve()); server.closeAllConnections(); }),
  };
}

const bureau = bureauFake();
let admin: Admin;
let page: Page;
let memberFormPage: Page;
const APP = { code: 'sales', displayName: '销售管理' };
const FORM = { code: 'credit_apply', displayName: '授信申请' };

beforeAll(async () => {
  await bureau.start();
  admin = await engineWithAdmin({ userName: '顾远', engineName: '远航贸易有限公司' });
  // The connector the plugin calls, set up through the API (the connectors scenario shows those screens).
  await api(admin, 'POST', '/v1/plugin/install', { code: 'connector' });
  await api(admin, 'POST', '/v1/connectors/connection/save', { code: 'Bureau', name: '征信平台', baseUrl: bureau.url, authKind: 'bearer', secret: TOKEN });
  await api(admin, 'POST', '/v1/connectors/connector/save', {
    code: 'CreditOf', name: '查询授信', connectionCode: 'Bureau', method: 'GET', path: '/v1/credit/{{Company}}',
    outputs: [{ name: 'rating', path: 'result.rating' }, { name: 'limit', path: 'result.limit' }, { name: 'company', path: 'result.company' }],
  });
  await appWithPublishedForm(admin, {
    app: APP,
    form: FORM,
    controls: [
      { type: 'textBox', code: 'Company', options: { displayName: '公司名称' } },
      { type: 'plugin', code: 'Credit', options: { displayName: '授信结果' } },
    ],
  });
  page = await pageOf(admin);
  const { member, page: p } = await memberPage(admin, '沈雁');
  await api(admin, 'POST', '/v1/functionnode/auth/set', { code: APP.code, unitId: member.userId, permission: 'access' });
  memberFormPage = p;
});
afterAll(() => bureau.stop());

const dropdownOption = (p: Page, text: string) => p.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first();
async function pick(p: Page, select: Locator, text: string) {
  await select.click();
  await dropdownOption(p, text).click();
}
const messagesGone = (p: Page) => expect.poll(() => p.locator('.ant-message-notice').count(), { timeout: 10_000 }).toBe(0);
const row = () => page.getByRole('row').filter({ hasText: '授信查询' });
const publication = () => row().getByTestId('publication-CreditCheck').textContent();

describe('an engine authors its own plugin', () => {
  it('adds it in pre-publish on 自建插件', async () => {
    await page.goto('/admin/plugins');
    await page.getByRole('tab', { name: '自建插件' }).click();
    await page.getByRole('button', { name: /新建插件/ }).click();
    const dialog = page.getByRole('dialog', { name: '新建插件' });
    await dialog.getByLabel('名称').fill('授信查询');
    await dialog.getByLabel('编码').fill('CreditCheck');
    await dialog.getByLabel('说明').fill('按公司名称查询征信平台的评级和额度');
    await pick(page, dialog.getByLabel('连接器'), '征信平台 / 查询授信');
    await dialog.getByLabel('按钮文字').fill('查询授信');
    await pick(page, dialog.getByLabel('显示的输出'), 'rating');
    // A multiple select stays open after a pick.
    await dropdownOption(page, 'limit').click();
    await dialog.getByLabel('按钮文字').click();
    await screenshot(page, 'plugins-1-custom-form');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await expect.poll(() => dialog.count()).toBe(0);
    await expect.poll(publication).toBe('预发布');
  });

  it('goes through review: 审核中, sent back to 预发布 with the reason, then 已发布', async () => {
    await row().getByRole('button', { name: '提交审核' }).click();
    await expect.poll(publication).toBe('审核中');
    await messagesGone(page);
    await screenshot(page, 'plugins-2-under-review');
    await row().getByRole('button', { name: /退\s*回/ }).click();
    const reject = page.getByRole('dialog', { name: '退回“授信查询”' });
    await reject.getByLabel('退回原因').fill('请说明额度的单位');
    await reject.getByRole('button', { name: /退\s*回/ }).click();
    await expect.poll(publication).toBe('预发布');
    await expect.poll(() => row().getByText('退回原因：请说明额度的单位').count()).toBe(1);
    await row().getByRole('button', { name: '提交审核' }).click();
    await expect.poll(publication).toBe('审核中');
    await row().getByRole('button', { name: '审核通过' }).click();
    await expect.poll(publication).toBe('已发布');
    await row().getByRole('button', { name: /安\s*装/ }).click();
    await expect.poll(() => row().getByText('已安装').count()).toBe(1);
    await messagesGone(page);
    await screenshot(page, 'plugins-3-published-installed');
  });

  it('is chosen for the plugin control in the form designer', async () => {
    await page.goto(`/form/designer?schemaCode=${FORM.code}`);
    const canvas = page.getByRole('region', { name: '画布' });
    await canvas.getByRole('listitem', { name: '授信结果' }).first().click();
    const properties = page.getByRole('complementary', { name: '属性' });
    await pick(page, properties.getByLabel('插件', { exact: true }), '授信查询');
    await screenshot(page, 'plugins-4-designer-panel');
    await page.getByRole('button', { name: '发布' }).click();
    await expect.poll(() => page.getByText(/已发布/).count()).toBeGreaterThan(0);
    const schema = await api(admin, 'POST', '/v1/formdesign/load', { schemaCode: FORM.code });
    expect(JSON.stringify(schema)).toContain('"pluginCode":"CreditCheck"');
  });

  it('a member presses the plugin’s button and sees the answer it keeps', async () => {
    const p = memberFormPage;
    await p.goto(`/form/open/${FORM.code}`);
    await p.getByRole('group', { name: '公司名称', exact: true }).getByRole('textbox').fill('远航贸易');
    const before = bureau.calls.length;
    await p.getByRole('button', { name: '授信结果：查询授信' }).click();
    const field = p.getByRole('group', { name: '授信结果', exact: true });
    await expect.poll(() => field.getByText('AA', { exact: true }).count()).toBe(1);
    await expect.poll(() => field.getByText('120000', { exact: true }).count()).toBe(1);
    // Only the outputs the plugin shows are kept.
    expect(await field.getByText('company').count()).toBe(0);
    expect(bureau.calls.slice(before)).toEqual([`GET /v1/credit/${encodeURIComponent('远航贸易')}`]);
    await messagesGone(p);
    await screenshot(p, 'plugins-5-member-result');
  });
});
