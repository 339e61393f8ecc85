import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './browser.ts';
import { api as callAs, appWithForms, engineWithAdmin, memberPage, pageOf, publish as publishAs, until, type Admin } from './fixtures.ts';

/**
 * Automations (issue 21; docs/decisions/0041) in the browser against the server: the administrator builds "when an
 * order becomes effective, insert a delivery and notify the owner" in the designer, an order is submitted, the
 * server's job runner runs it, and the run log shows what each step did; a smart-action button is shown to the
 * members of its role only and runs for the record it is pressed on.
 */
let page: Page;
let admin: Admin;
const api = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => callAs<T>(admin, method, path, body);
type Row = Record<string, unknown>;
const rows = async (schemaCode: string) => (await api<{ list: Row[] }>('POST', '/v1/bizdata/query', { schemaCode, pageIndex: 0, pageSize: 50 })).list;

beforeAll(async () => {
  admin = await engineWithAdmin({ userName: '林岚', engineName: '岚山贸易有限公司' });
  await appWithForms(admin, { code: 'sales', displayName: '销售管理' }, [{ code: 'order', displayName: '销售订单' }, { code: 'delivery', displayName: '发货单' }]);
  await publishAs(admin, 'order', {
    attributes: { displayName: '销售订单' },
    controls: [{ type: 'textBox', code: 'Customer', options: { displayName: '客户' } }, { type: 'number', code: 'Amount', options: { displayName: '金额' } }],
  });
  await publishAs(admin, 'delivery', {
    attributes: { displayName: '发货单' },
    controls: [{ type: 'textBox', code: 'OrderNo', options: { displayName: '订单号' } }, { type: 'textBox', code: 'Customer', options: { displayName: '客户' } }],
  });
  page = await pageOf(admin, { width: 1440, height: 900 });
});

describe('automations in the browser', () => {
  it('builds an automation in the designer, runs it on an effective order, and reads its log', async () => {
    await page.goto('/form/automation/order');
    await page.getByRole('button', { name: /新建自动化/ }).first().click();
    const drawer = page.getByRole('dialog');
    await drawer.getByLabel('自动化名称').fill('订单生效后发货');
    await drawer.getByRole('button', { name: /添加动作/ }).click();
    await page.getByText('新增数据', { exact: true }).click();
    const insert = drawer.getByRole('group', { name: '1. 新增数据' });
    await insert.getByLabel('目标表单').click();
    await page.getByTitle('发货单（delivery）').click();
    await insert.getByRole('button', { name: /添加映射/ }).click();
    await expect.poll(() => insert.getByTitle('订单号').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await drawer.getByRole('button', { name: /添加动作/ }).click();
    await page.getByText('发送通知', { exact: true }).click();
    const notify = drawer.getByRole('group', { name: '2. 发送通知' });
    await notify.getByLabel('标题', { exact: true }).fill('订单已生效：');
    await notify.getByRole('button', { name: '在「标题」中插入字段' }).click();
    await page.getByRole('menuitem', { name: '客户' }).click();
    await screenshot(page, 'automation-designer');
    await drawer.getByRole('button', { name: /保存/ }).click();
    await expect.poll(() => page.getByText('已保存').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    const saved = (await api<{ automations: { id: string; name: string; steps: { type: string }[] }[] }>('POST', '/v1/automatic/list', { schemaCode: 'order' })).automations;
    expect(saved.map((a) => [a.name, a.steps.map((s) => s.type)])).toEqual([['订单生效后发货', ['insert', 'notification']]]);

    // The order becomes effective: the server's job runner runs the automation.
    const order = (await api<{ objectId: string }>('POST', '/v1/form/action/execute', { schemaCode: 'order', actionCode: 'Submit', values: { Customer: '青山物流', Amount: 880 } })).objectId;
    await until('the run to succeed', () => api<{ runs: { state: string }[] }>('POST', '/v1/automatic/logs', { schemaCode: 'order' }), (log) => log.runs[0]?.state === 'Succeeded');
    expect((await rows('delivery')).map((r) => r.OrderNo)).toEqual([order]);
    const messages = await api<{ list: { title: string }[] }>('POST', '/v1/toolkit/internalmessage/list', { category: 'automation' });
    expect(messages.list.map((m) => m.title)).toContain('订单已生效：青山物流');

    await page.keyboard.press('Escape');
    await page.goto('/form/automation/order');
    await page.getByRole('button', { name: /运行日志/ }).first().click();
    const log = page.getByRole('dialog');
    await expect.poll(() => log.getByText('成功').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await log.getByRole('button', { name: /详情/ }).first().click();
    await expect.poll(() => page.getByText('各步骤').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await screenshot(page, 'automation-run-log');
  });

  it('shows a smart-action button to the members of its role only, and runs it for the record', async () => {
    const { member: clerk, page: clerkPage } = await memberPage(admin, '赵催单');
    const { member: other, page: otherPage } = await memberPage(admin, '钱旁观');
    for (const m of [clerk, other]) await api('POST', '/v1/functionnode/auth/set', { code: 'sales', unitId: m.userId, permission: 'access' });
    const group = await api<{ id: string }>('POST', '/v1/org/rolegroup/create', { name: '销售角色' });
    const role = await api<{ id: string }>('POST', '/v1/org/role/create', { groupId: group.id, name: '催单员' });
    await api('POST', '/v1/org/role/member/add', { roleId: role.id, userIds: [clerk.userId] });
    await api('POST', '/v1/automatic/save', {
      schemaCode: 'order',
      automation: {
        name: '催发货',
        trigger: { type: 'button', label: '催发货', locations: ['form', 'list'], roleIds: [role.id], confirmText: '确定催促仓库发货吗？', resultMessage: '已通知仓库' },
        steps: [{ id: 'S1', type: 'insert', targetSchemaCode: 'delivery', mappings: [{ field: 'OrderNo', value: { type: 'field', code: 'ObjectId' } }, { field: 'Customer', value: { type: 'constant', value: '催单' } }] }],
      },
    });
    const order = (await api<{ objectId: string }>('POST', '/v1/form/action/execute', { schemaCode: 'order', actionCode: 'Submit', values: { Customer: '白鹭酒店', Amount: 120 } })).objectId;

    await otherPage.goto(`/form/open/order/${order}`);
    await expect.poll(() => otherPage.getByText('白鹭酒店').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await otherPage.getByRole('button', { name: '催发货' }).count()).toBe(0);

    await clerkPage.goto(`/form/open/order/${order}`);
    const button = clerkPage.getByRole('button', { name: '催发货' });
    await expect.poll(() => button.count(), { timeout: 20_000 }).toBe(1);
    await button.click();
    await expect.poll(() => clerkPage.getByText('确定催促仓库发货吗？').count(), { timeout: 10_000 }).toBe(1);
    await clerkPage.getByRole('button', { name: /执\s*行/ }).last().click();
    await expect.poll(() => clerkPage.getByText('已通知仓库').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    await screenshot(clerkPage, 'smart-action-button');
    await until('the button run to insert', () => rows('delivery'), (list) => list.some((r) => r.OrderNo === order && r.Customer === '催单'));
    await otherPage.close();
    await clerkPage.close();
  });
});
