import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot } from './browser.ts';
import { E2E_CODE } from './global-setup.ts';

/**
 * Issue "Form designer and schema publishing", must show: design a form with one control of every type, a
 * sub-table and a tab, publish it, change it and publish again; a screenshot of every designer panel.
 */
let browser: Browser;
let page: Page;
let admin: { token: string; engineCode: string };
const baseUrl = () => inject('baseUrl');
const stamp = String(Date.now()).slice(-7);
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });

async function api<T>(method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl()}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(admin ? { Authorization: `Bearer ${admin.token}`, EngineCode: admin.engineCode } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { successful: boolean; data: T };
  expect(json.successful, `${method} ${path}`).toBe(true);
  return json.data;
}
type Schema = { properties: { name: string; typeKey?: string }[]; childSchemas: { properties: { name: string; typeKey?: string }[] }[] };
const schema = () => api<Schema>('GET', '/v1/schema?schemaCode=order');

const palette = () => page.getByRole('navigation', { name: '控件库' });
const canvas = () => page.getByRole('region', { name: '画布' });
/** Clicking the canvas margin selects nothing, so the next palette click appends to the form itself. */
const deselect = () => canvas().click({ position: { x: 6, y: 6 } });

beforeAll(async () => {
  browser = await launchBrowser();
  const mobile = `1391${stamp}`;
  await fetch(`${baseUrl()}/v1/captcha/verifycode/send`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ mobile, scene: 'register' }) });
  const registered = await api<{ accessToken: string; engineCode: string }>('POST', '/v1/register/engine', { mobile, code: E2E_CODE, password: 'Hetang2026', userName: '许晴', engineName: '荷塘物流有限公司', scale: '21-50' });
  admin = { token: registered.accessToken, engineCode: registered.engineCode };
  await api('POST', '/v1/functionnode', { nodeType: 190, code: 'sales', displayName: '销售管理' });
  await api('POST', '/v1/functionnode', { nodeType: 200, code: 'order', appCode: 'sales', displayName: '销售订单' });
  page = await newPage(browser, baseUrl(), { width: 1440, height: 900 });
  await page.context().addCookies([
    { name: 'access-token', value: admin.token, url: baseUrl() },
    { name: 'engine', value: admin.engineCode, url: baseUrl() },
  ]);
});
afterAll(() => browser?.close());

describe('the form designer', () => {
  it('opens from the form node of the workbench', async () => {
    await page.goto('/workbench/app/sales/order');
    await page.getByRole('button', { name: /设计表单/ }).click();
    await page.waitForURL('**/form/designer?schemaCode=order');
    await palette().waitFor();
    expect(await page.getByText('从左侧控件库点击或拖入控件，开始设计表单').count()).toBe(1);
  });

  it('adds one control of every type, a column to the sub-table and a control to the tab', async () => {
    const items = palette().getByRole('button');
    const count = await items.count();
    expect(count).toBeGreaterThanOrEqual(43);
    for (let i = 0; i < count; i++) {
      const name = (await items.nth(i).innerText()).trim();
      await deselect();
      await items.nth(i).click();
      // A new sub-table or tab is selected: the next click goes inside it.
      if (name === '子表') await palette().getByRole('button', { name: '单行文本', exact: true }).click();
      if (name === '标签页') await palette().getByRole('button', { name: '数值', exact: true }).click();
    }
    await deselect();
    expect(await page.getByText('已被阻止').count()).toBe(0);
    await screenshot(page, 'designer-canvas');
    // The properties of one control, and of the form.
    await canvas().getByRole('listitem', { name: '数值' }).first().click();
    await page.getByRole('complementary', { name: '属性' }).getByText('控件类型').waitFor();
    await screenshot(page, 'designer-control-properties');
    await page.getByRole('tab', { name: '表单属性' }).click();
    await screenshot(page, 'designer-form-properties');
  });

  it('previews at PC and phone widths', async () => {
    await page.getByRole('button', { name: '预览' }).click();
    const preview = page.getByRole('dialog');
    await preview.waitFor();
    await screenshot(page, 'designer-preview-pc');
    await preview.getByText(/手机/).first().click();
    await screenshot(page, 'designer-preview-phone');
    await page.keyboard.press('Escape');
    await eventually(() => page.getByRole('dialog').count()).toBe(0);
  });

  it('publishes: the table gets a column per data control and a child table for the sub-table', async () => {
    await page.getByRole('button', { name: '发布' }).click();
    // Controls still missing required settings (an association's form, a formula's expression, a rollup's source) are
    // not published (docs/decisions/0029): the refusal names one of them; removed, the rest publishes.
    await eventually(() => page.getByText(/缺少必要的设置/).count()).toBeGreaterThan(0);
    for (const name of ['关联属性', '关联表单多选', '关联表单', '公式型控件', '汇总']) {
      await canvas().getByRole('listitem', { name, exact: true }).first().click();
      await canvas().getByRole('listitem', { name, exact: true }).first().getByRole('button', { name: `删除「${name}」` }).click();
      await page.getByRole('dialog').getByRole('button', { name: /删除|确定/ }).last().click();
      await eventually(() => canvas().getByRole('listitem', { name, exact: true }).count()).toBe(0);
    }
    await page.getByRole('button', { name: '发布' }).click();
    await eventually(() => page.getByText(/已发布/).count()).toBeGreaterThan(0);
    const published = await eventually(async () => (await schema()).properties.length).toBeGreaterThan(25).then(schema);
    expect(published.childSchemas).toHaveLength(1);
    // The sub-table's column (codes count within the sub-table) and the tab's number on the main table.
    expect(published.childSchemas[0].properties.some((p) => p.typeKey === 'textBox')).toBe(true);
    expect(published.properties.filter((p) => p.typeKey === 'number')).toHaveLength(2);
  });

  it('changes the form and publishes again', async () => {
    const before = (await schema()).properties.map((p) => p.name);
    await canvas().getByRole('listitem', { name: '单行文本' }).first().click();
    const card = canvas().getByRole('listitem', { name: '单行文本' }).first();
    await card.getByRole('button', { name: '删除「单行文本」' }).click();
    const confirm = page.getByRole('dialog');
    await confirm.getByRole('button', { name: /删除|确定/ }).last().click();
    await deselect();
    await palette().getByRole('button', { name: '多行文本', exact: true }).click();
    await page.getByRole('button', { name: '发布' }).click();
    await eventually(async () => (await schema()).properties.map((p) => p.name).join(',')).not.toBe(before.join(','));
    await screenshot(page, 'designer-republished');
  });
});
