import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './browser.ts';
import { api, appWithForms, engineWithAdmin, pageOf, publish, type Admin } from './fixtures.ts';

/**
 * Issue 46, must show: publish an app from engine A as a template, install it into engine B with progress; B's codes
 * differ, its workflow runs, its dashboard shows the sample data's numbers; clear the sample data
 * (docs/decisions/0131). Engine A's app — a claim form with an approval by the department's manager and a dashboard of
 * its sum — is made through the API; the rest happens on the screens.
 */
type Node = { code: string; displayName: string; nodeType: number };
let a: Admin, b: Admin;
let pageA: Page, pageB: Page;
let appB: string;
const appA = 'travel';
const CLAIMS: [string, number][] = [['上海客户拜访', 1539.5], ['深圳展会出差', 3085], ['团队加班餐', 268.4]];
const sampleSum = CLAIMS.reduce((sum, [, amount]) => sum + amount, 0);
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000 });
const featuresOf = async (who: Admin, appCode: string) => (await api<{ list: Node[] }>(who, 'GET', `/v1/functionNode/app/feature/list?appCode=${appCode}`)).list;
const nodeOf = async (who: Admin, appCode: string, nodeType: number) => (await featuresOf(who, appCode)).find((n) => n.nodeType === nodeType)!.code;
const appMenu = (page: Page, name: string) => page.getByRole('navigation', { name: '应用列表' }).getByRole('button', { name: `「${name}」的操作` });

/** Engine A's app: a claim form (a workflow form), its approval by the department's manager, a dashboard of its sum. */
async function makeSourceApp(who: Admin) {
  await appWithForms(who, { code: appA, displayName: '差旅报销' }, []);
  await api(who, 'POST', '/v1/functionnode', { nodeType: 210, code: 'claim', appCode: appA, displayName: '差旅报销单' });
  await publish(who, 'claim', {
    attributes: { displayName: '差旅报销单', nameSchema: '{Title}' },
    controls: [
      { type: 'textBox', code: 'Title', options: { displayName: '报销事由', required: true } },
      { type: 'number', code: 'Amount', options: { displayName: '报销金额', decimalPlaces: 2, required: true } },
    ],
  });
  const template = {
    activities: [
      { type: 'Start', code: 'Start', name: '提交' },
      { type: 'Approve', code: 'Manager', name: '主管审批', participants: { sources: [{ type: 'originatorManager', levels: 1 }] } },
      { type: 'End', code: 'End', name: '结束' },
    ],
    routes: [{ from: 'Start', to: 'Manager' }, { from: 'Manager', to: 'End' }],
  };
  await api(who, 'POST', '/v1/workflow/template/save', { schemaCode: 'claim', template });
  await api(who, 'POST', '/v1/workflow/template/publish', { schemaCode: 'claim' });
  await api(who, 'POST', '/v1/functionnode', { nodeType: 270, code: 'stats', appCode: appA, displayName: '报销统计' });
  await api(who, 'POST', '/v1/dashboard/save', {
    code: 'stats',
    definition: {
      refreshSeconds: 0, filters: [],
      widgets: [
        { id: 'sum', type: 'number', title: '报销总额', layout: { x: 0, y: 0, w: 6, h: 4 }, source: { schemaCode: 'claim' }, measures: [{ aggregate: 'sum', field: 'Amount', format: { decimals: 2, thousands: true, percent: false, unit: '元' } }] },
        { id: 'count', type: 'number', title: '报销单数', layout: { x: 6, y: 0, w: 6, h: 4 }, source: { schemaCode: 'claim' }, measures: [{ aggregate: 'count' }] },
      ],
    },
  });
  for (const [title, amount] of CLAIMS) await api(who, 'POST', '/v1/form/action/execute', { schemaCode: 'claim', actionCode: 'Submit', values: { Title: title, Amount: amount } });
}

beforeAll(async () => {
  a = await engineWithAdmin({ userName: '林澈', engineName: '甲方科技有限公司' });
  b = await engineWithAdmin({ userName: '沈舟', engineName: '乙方贸易有限公司' });
  await makeSourceApp(a);
  pageA = await pageOf(a);
  pageB = await pageOf(b);
});

describe('an app of one organisation as a template of another', () => {
  it('A publishes its app as a template and shares it with B', async () => {
    await pageA.goto('/workbench');
    await appMenu(pageA, '差旅报销').click();
    await pageA.getByRole('menuitem', { name: '发布为模板' }).click();
    const dialog = pageA.getByRole('dialog', { name: '发布“差旅报销”为模板' });
    await dialog.getByLabel('模板名称').fill('甲方报销流程');
    await dialog.getByLabel('简介').fill('报销单、主管审批与报销统计');
    await dialog.getByRole('checkbox', { name: '包含示例数据（应用中现有的数据）' }).check();
    await expect.poll(() => dialog.getByRole('button', { name: '发布' }).isEnabled(), { timeout: 20_000 }).toBe(true);
    await screenshot(pageA, 'templates-publish');
    await dialog.getByRole('button', { name: '发布' }).click();
    await eventually(() => pageA.getByText('已发布为模板（第 1 版）').count()).toBeGreaterThan(0);
    // Publishing packs the app with its records: the dialog closes once the server has answered.
    await eventually(() => dialog.count()).toBe(0);

    await appMenu(pageA, '差旅报销').click();
    await pageA.getByRole('menuitem', { name: '共享给其他组织' }).click();
    const share = pageA.getByRole('dialog', { name: '共享“差旅报销”' });
    await share.getByRole('combobox', { name: '组织编码' }).fill(b.engineCode);
    await share.getByRole('combobox', { name: '组织编码' }).press('Enter');
    await share.getByRole('checkbox', { name: '包含示例数据' }).check();
    await screenshot(pageA, 'templates-share');
    await share.getByRole('button', { name: '共享' }).click();
    await eventually(() => pageA.getByText('已共享给：乙方贸易有限公司').count()).toBeGreaterThan(0);
    await eventually(() => share.count()).toBe(0);
  });

  it('B, a new organisation, is offered templates on its empty workbench', async () => {
    await pageB.goto('/workbench');
    const offer = pageB.locator('.ant-card').filter({ hasText: '从模板开始' });
    await eventually(() => offer.getByRole('button').filter({ hasText: '内置' }).count()).toBeGreaterThan(0);
    await screenshot(pageB, 'templates-empty-workbench');
    await offer.getByRole('button', { name: '去模板中心' }).click();
    await pageB.waitForURL('**/templates');
    await eventually(() => pageB.getByRole('list', { name: '模板中心' }).getByRole('button').count()).toBeGreaterThan(1);
    await screenshot(pageB, 'templates-market');
  });

  it('B installs it from 共享给我的 with a progress bar; the new app has codes of its own', async () => {
    await pageB.goto('/templates');
    await pageB.getByText('共享给我的', { exact: true }).click();
    await pageB.getByRole('button', { name: '甲方报销流程' }).click();
    const drawer = pageB.getByRole('dialog', { name: '甲方报销流程' });
    await eventually(() => drawer.getByRole('listitem').filter({ hasText: '差旅报销单' }).count()).toBe(1);
    await expect.poll(() => drawer.getByRole('checkbox', { name: '同时安装示例数据' }).isChecked()).toBe(true);
    await screenshot(pageB, 'templates-detail');
    await drawer.getByRole('button', { name: '安装' }).click();
    const progress = pageB.getByRole('dialog', { name: '安装“甲方报销流程”' });
    await eventually(() => progress.getByRole('progressbar', { name: '安装进度' }).count()).toBeGreaterThan(0);
    await progress.getByRole('button', { name: '打开应用' }).waitFor({ timeout: 60_000 });
    await screenshot(pageB, 'templates-installed');
    await progress.getByRole('button', { name: '打开应用' }).click();
    await pageB.waitForURL('**/workbench/app/**');
    appB = decodeURIComponent(new URL(pageB.url()).pathname.split('/')[3]!);
    expect(appB).not.toBe(appA);
    const [formB, boardB] = [await nodeOf(b, appB, 210), await nodeOf(b, appB, 270)];
    expect([formB, boardB]).not.toContain('claim');
    expect(boardB).not.toBe('stats');
  });

  it('in B, the dashboard shows the sample data’s numbers and the workflow runs', async () => {
    const board = await nodeOf(b, appB, 270);
    await pageB.goto(`/workbench/app/${appB}/${board}`);
    const total = sampleSum.toLocaleString('zh-CN', { minimumFractionDigits: 2, maximumFractionDigits: 2 });
    await eventually(() => pageB.getByText(total).count()).toBeGreaterThan(0);
    await screenshot(pageB, 'templates-dashboard');

    // A new claim starts its approval (nobody heads B's departments: the flow gives the step to the administrator).
    const form = await nodeOf(b, appB, 210);
    const running = () => api<{ total: number }>(b, 'POST', '/v1/bizdata/count', { schemaCode: form, status: [2] });
    const before = (await running()).total;
    await api(b, 'POST', '/v1/form/action/execute', { schemaCode: form, actionCode: 'Submit', values: { Title: '乙方首笔报销', Amount: 88 } });
    await eventually(async () => (await running()).total).toBe(before + 1);
  });

  it('B clears the sample data; its own claim stays', async () => {
    await pageB.goto(`/workbench/app/${appB}`);
    await appMenu(pageB, '差旅报销').click();
    await pageB.getByRole('menuitem', { name: '示例数据' }).click();
    const dialog = pageB.getByRole('dialog', { name: '“差旅报销”的示例数据' });
    await eventually(() => dialog.getByText('共 3 条示例数据', { exact: false }).count()).toBeGreaterThan(0);
    await screenshot(pageB, 'templates-sample-data');
    await dialog.getByRole('button', { name: '清除示例数据' }).click();
    await pageB.getByRole('dialog', { name: '清除示例数据' }).getByRole('button', { name: /确\s*定/ }).click();
    await eventually(() => pageB.getByText('已清除 3 条示例数据').count()).toBeGreaterThan(0);
    expect((await api<{ total: number }>(b, 'POST', '/v1/template/checksampledata', { appCode: appB })).total).toBe(0);
    expect((await api<{ total: number }>(b, 'POST', '/v1/bizdata/count', { schemaCode: await nodeOf(b, appB, 210) })).total).toBe(1);
  });
});
