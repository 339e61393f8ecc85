import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot } from './browser.ts';
import { E2E_CODE } from './global-setup.ts';

/**
 * Issue "Apps, function nodes and the workbench", must show: create two apps with groups and several nodes,
 * reorder the apps, move a node between groups, copy an app while the progress bar runs; PC and phone widths.
 */
let browser: Browser;
let page: Page;
let admin: { token: string; engineCode: string };
const baseUrl = () => inject('baseUrl');
const stamp = String(Date.now()).slice(-7);

type Node = { code: string; displayName: string; parentCode: string | null; nodeType: number; sortKey: number };

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
const appNames = async () => (await api<{ list: Node[] }>('GET', '/v1/functionnode/app/list?withChildren=false')).list.map((app) => app.displayName);
const features = async (appCode: string) => (await api<{ list: Node[] }>('GET', `/v1/functionNode/app/feature/list?appCode=${appCode}`)).list;
const parentNameOf = async (appCode: string, name: string) => {
  const list = await features(appCode);
  const node = list.find((n) => n.displayName === name)!;
  return list.find((n) => n.code === node.parentCode)?.displayName;
};
const eventually = <T>(read: () => T | Promise<T>, timeout = 10_000) => expect.poll(read, { timeout });

const appList = () => page.getByRole('navigation', { name: '应用列表' });
const tree = () => page.getByRole('navigation', { name: '功能菜单' });
const dialog = (name: string) => page.getByRole('dialog', { name });

/** Drags a row by its handle onto another row's handle, in small steps as a hand would (dnd-kit listens to pointer moves). */
async function drag(from: Locator, to: Locator) {
  const a = (await from.boundingBox())!;
  const b = (await to.boundingBox())!;
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2);
  await page.mouse.down();
  await page.mouse.move(a.x + a.width / 2, a.y + a.height / 2 + 6, { steps: 3 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2, { steps: 12 });
  await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2 + 1, { steps: 2 });
  await page.mouse.up();
}

async function createApp(name: string, code: string, icon: string, color: string) {
  await appList().getByRole('button', { name: '新建应用' }).click();
  const d = dialog('新建应用');
  await d.getByLabel('名称').fill(name);
  await d.getByLabel('编码').fill(code);
  await d.getByRole('radiogroup', { name: '图标' }).getByRole('radio', { name: icon }).click();
  await d.getByRole('radiogroup', { name: '颜色' }).getByRole('radio', { name: color }).click();
  await d.getByRole('button', { name: '确定' }).click();
  await page.waitForURL(`**/workbench/app/${code}`);
  await eventually(() => tree().count()).toBe(1);
}

/** 新建 in the app's tree (or in a group's menu), then the dialog. */
async function createNode(type: string, name: string, options: { group?: string; url?: string } = {}) {
  if (options.group) {
    await tree().getByRole('button', { name: `「${options.group}」的操作` }).click();
    await page.getByRole('menuitem', { name: '在分组中新建' }).hover();
  } else {
    await page.getByRole('button', { name: '新建功能' }).click();
  }
  await page.getByRole('menuitem', { name: type, exact: true }).click();
  const d = dialog(`新建${type}`);
  await d.getByLabel('名称').fill(name);
  if (options.url) await d.getByLabel('链接地址').fill(options.url);
  await d.getByRole('button', { name: '确定' }).click();
  await eventually(() => d.count()).toBe(0);
  if (type === '表单' || type === '流程表单') {
    // A new form opens in its designer; the tree is one step back.
    await page.waitForURL('**/form/designer?schemaCode=*');
    await page.goBack();
    await eventually(() => tree().count()).toBe(1);
  }
  if (options.group) {
    const group = tree().getByRole('button', { name: options.group, exact: true });
    if ((await group.getAttribute('aria-expanded')) === 'false') await group.click();
  }
  await eventually(() => tree().getByText(name, { exact: true }).count()).toBe(1);
}

beforeAll(async () => {
  browser = await launchBrowser();
  const mobile = `1390${stamp}`;
  await fetch(`${baseUrl()}/v1/captcha/verifycode/send`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ mobile, scene: 'register' }) });
  const registered = await api<{ accessToken: string; engineCode: string }>('POST', '/v1/register/engine', { mobile, code: E2E_CODE, password: 'Qingshan2026', userName: '周敏', engineName: '青山贸易有限公司', scale: '21-50' });
  admin = { token: registered.accessToken, engineCode: registered.engineCode };
  page = await newPage(browser, baseUrl());
  await page.context().addCookies([
    { name: 'access-token', value: admin.token, url: baseUrl() },
    { name: 'engine', value: admin.engineCode, url: baseUrl() },
  ]);
});
afterAll(() => browser?.close());

describe('apps on the workbench', () => {
  it('starts empty and says how to begin', async () => {
    await page.goto('/workbench');
    await eventually(() => appList().getByText('还没有应用。点击「新建应用」创建第一个。').count()).toBe(1);
    expect(await page.getByText('欢迎回到「青山贸易有限公司」的工作台。').count()).toBe(1);
  });

  it('creates two apps with groups, forms, a report and a custom link', async () => {
    await createApp('客户管理', 'crm', 'team', '#13a8a8');
    await createNode('分组', '销售线索');
    await createNode('分组', '合同管理');
    await createNode('表单', '线索登记', { group: '销售线索' });
    await createNode('表单', '跟进记录', { group: '销售线索' });
    await createNode('报表', '合同统计', { group: '合同管理' });
    await createNode('自定义链接', '公司官网', { url: 'https://example.com/' });

    await createApp('项目管理', 'pm', 'project', '#722ed1');
    await createNode('分组', '项目计划');
    await createNode('流程表单', '立项申请', { group: '项目计划' });
    await createNode('仪表盘', '项目看板');

    expect(await appNames()).toEqual(['客户管理', '项目管理']);
    const crm = await features('crm');
    expect(crm.map((n) => n.displayName).sort()).toEqual(['公司官网', '合同管理', '合同统计', '线索登记', '跟进记录', '销售线索'].sort());
    expect(await parentNameOf('crm', '跟进记录')).toBe('销售线索');
  });

  it('opens a node: not-yet-built types say what they will hold; custom links open their address', async () => {
    await page.goto('/workbench/app/crm');
    // The default node of the app: the first form of the first group.
    await eventually(() => page.getByRole('heading', { name: '线索登记' }).count()).toBe(1);
    // An unpublished form says so (a published one lists its records).
    await eventually(() => page.getByText(/表单尚未发布/).count()).toBe(1);
    const link = tree().getByRole('link', { name: /公司官网/ });
    expect(await link.getAttribute('href')).toBe('https://example.com/');
    expect(await link.getAttribute('target')).toBe('_blank');
    await screenshot(page, 'apps-pc-app');
  });

  it('reorders the apps by dragging', async () => {
    await drag(appList().getByRole('button', { name: '拖动「项目管理」排序' }), appList().getByRole('button', { name: '拖动「客户管理」排序' }));
    await eventually(appNames).toEqual(['项目管理', '客户管理']);
    await page.reload();
    await eventually(async () => (await appList().getByRole('link').allTextContents()).map((s) => s.trim())).toEqual(['项目管理', '客户管理']);
  });

  it('moves a node to another group by dragging it onto the group', async () => {
    await page.goto('/workbench/app/crm');
    await tree().getByRole('button', { name: '销售线索', exact: true }).waitFor();
    if ((await tree().getByRole('button', { name: '销售线索', exact: true }).getAttribute('aria-expanded')) === 'false') await tree().getByRole('button', { name: '销售线索', exact: true }).click();
    await drag(tree().getByRole('button', { name: '拖动「跟进记录」' }), tree().getByRole('button', { name: '拖动「合同管理」' }));
    await eventually(() => parentNameOf('crm', '跟进记录')).toBe('合同管理');
    await eventually(() => page.getByText('已移动「跟进记录」').count()).toBe(1);
    await screenshot(page, 'apps-pc-moved');
  });

  it('copies an app while the progress bar runs', async () => {
    await appList().getByRole('button', { name: '「客户管理」的操作' }).click();
    await page.getByRole('menuitem', { name: '复制应用' }).click();
    const d = dialog('复制应用「客户管理」');
    await d.getByRole('progressbar').waitFor();
    // The copy runs in small batches here (global-setup), so the bar is seen part way.
    await eventually(async () => Number(await d.getByRole('progressbar').getAttribute('aria-valuenow'))).toBeGreaterThan(0);
    await screenshot(page, 'apps-pc-copying');
    // A background job of small batches 250 ms apart: on a loaded machine it can take longer than a page's answer.
    await eventually(() => d.getByText(/复制完成，新应用/).count(), 90_000).toBe(1);
    expect(Number(await d.getByRole('progressbar').getAttribute('aria-valuenow'))).toBe(100);
    await d.getByRole('button', { name: '完成' }).click();
    await eventually(appNames).toHaveLength(3);
    const names = await appNames();
    const copy = names.find((name) => !['项目管理', '客户管理'].includes(name))!;
    expect(copy).toContain('客户管理');
    await eventually(() => appList().getByRole('link', { name: copy }).count()).toBe(1);
  });

  it('finds nodes by keyword and lists what was opened lately', async () => {
    await page.goto('/workbench');
    // The top bar's search (issue 20) finds nodes and records; Ctrl+K opens it, nodes come first.
    await page.getByRole('button', { name: '全局搜索' }).click();
    await page.getByRole('combobox', { name: '搜索关键字' }).fill('立项');
    await page.getByRole('option', { name: '立项申请', exact: true }).click();
    await page.waitForURL('**/workbench/app/pm/**');
    await eventually(() => page.getByRole('heading', { name: '立项申请' }).count()).toBe(1);
    await page.goto('/workbench');
    const recent = page.locator('.ant-card').filter({ hasText: '最近访问' });
    await eventually(() => recent.getByRole('link', { name: /立项申请/ }).count()).toBe(1);
    await screenshot(page, 'apps-pc-home');
  });

  it('shows the phone layout: bottom tabs, an icon grid, an app full screen', async () => {
    const phone = await newPage(browser, baseUrl(), { width: 390, height: 844 });
    await phone.context().addCookies([
      { name: 'access-token', value: admin.token, url: baseUrl() },
      { name: 'engine', value: admin.engineCode, url: baseUrl() },
    ]);
    await phone.goto('/workbench');
    const tabs = phone.getByRole('navigation', { name: '底部导航' });
    await tabs.waitFor();
    for (const tab of ['工作台', '消息', '流程', '我的']) expect(await tabs.getByText(tab, { exact: true }).count()).toBe(1);
    await phone.getByRole('list', { name: '应用列表' }).getByRole('link', { name: '客户管理', exact: true }).waitFor();
    await screenshot(phone, 'apps-phone-home');
    await phone.getByRole('list', { name: '应用列表' }).getByRole('link', { name: '客户管理', exact: true }).click();
    await phone.getByText('合同管理', { exact: true }).waitFor();
    await screenshot(phone, 'apps-phone-app');
    await phone.getByText('线索登记', { exact: true }).click();
    await eventually(() => phone.getByRole('heading', { name: '线索登记' }).count()).toBe(1);
    await tabs.count();
    await phone.goto('/workbench/me');
    await phone.getByText('周敏').first().waitFor();
    await screenshot(phone, 'apps-phone-me');
    await phone.context().close();
  });
});
