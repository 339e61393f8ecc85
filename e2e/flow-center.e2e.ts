import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './browser.ts';
import { call, memberSession, registerEngine, signedInPage, type Admin } from './session.ts';

/**
 * Issue "Workflow", the flow center and reminders (docs/decisions/0019): flows started through the API; the approver
 * sees the todo badge in the workbench top bar, opens the flow center, gets an urge as a reminder with an unread
 * badge, and agrees two flows at once; the originator watches the 我发起的 tab follow. Each person in their own
 * browser context.
 */
let browser: Browser;
let admin: Admin;
const people: Record<'applicant' | 'approver', Admin & { userId: string; page?: Page }> = {} as never;
const baseUrl = () => inject('baseUrl');
const stamp = String(Date.now()).slice(-7);
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });
const api = <T>(method: 'GET' | 'POST', path: string, body?: unknown, who: Admin = admin) => call<T>(baseUrl(), who, method, path, body);
const instances: Record<string, string> = {};

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await registerEngine(baseUrl(), `1381${stamp}`, '钱主管', '远山贸易有限公司');
  await api('POST', '/v1/functionnode', { nodeType: 190, code: 'buy', displayName: '采购管理' });
  await api('POST', '/v1/functionnode', { nodeType: 210, code: 'purchase', appCode: 'buy', displayName: '采购申请' });
  const loaded = await api<{ draft: { version: number } }>('POST', '/v1/formdesign/load', { schemaCode: 'purchase' });
  const definition = {
    attributes: { displayName: '采购申请', nameSchema: '{Title}' },
    controls: [
      { type: 'textBox', code: 'Title', options: { displayName: '采购事项', required: true } },
      { type: 'number', code: 'Amount', options: { displayName: '金额', decimalPlaces: 2 } },
    ],
  };
  const saved = await api<{ version: number }>('POST', '/v1/formdesign/save', { schemaCode: 'purchase', baseVersion: loaded.draft.version, definition });
  await api('POST', '/v1/formdesign/publish', { schemaCode: 'purchase', version: saved.version, confirm: [] });
  const names = { applicant: '郑申请', approver: '吴审批' } as const;
  let n = 0;
  for (const [key, name] of Object.entries(names) as [keyof typeof names, string][]) {
    people[key] = await memberSession(baseUrl(), admin, name, `1382${stamp.slice(1)}${n++}`);
    await api('POST', '/v1/functionnode/auth/set', { code: 'purchase', unitId: people[key].userId, permission: 'create' });
  }
  const template = {
    activities: [
      { type: 'Start', code: 'Start', name: '发起' },
      { type: 'Approve', code: 'Check', name: '部门审批', participants: { sources: [{ type: 'users', ids: [people.approver.userId] }] } },
      { type: 'End', code: 'End', name: '结束' },
    ],
    routes: [
      { from: 'Start', to: 'Check' },
      { from: 'Check', to: 'End' },
    ],
  };
  await api('POST', '/v1/workflow/template/save', { schemaCode: 'purchase', template });
  await api('POST', '/v1/workflow/template/publish', { schemaCode: 'purchase' });
  for (const [title, amount] of [['办公椅 20 把', 6000], ['打印机硒鼓', 800], ['会议室投影仪', 4200]] as const) {
    const record = await api<{ objectId: string }>('POST', '/v1/form/action/execute', { schemaCode: 'purchase', actionCode: 'Save', values: { Title: title, Amount: amount } }, people.applicant);
    instances[title] = (await api<{ instanceId: string }>('POST', '/v1/workflow/instance/start', { schemaCode: 'purchase', objectId: record.objectId }, people.applicant)).instanceId;
  }
  for (const key of Object.keys(people) as (keyof typeof people)[]) people[key].page = await signedInPage(browser, baseUrl(), people[key], { width: 1366, height: 860 });
});
afterAll(() => browser?.close());

const pageOf = (key: keyof typeof people) => people[key].page!;
const rowOf = (page: Page, name: string) => page.locator('tr', { hasText: name });

describe('the flow center, seen by an approver and an applicant', () => {
  it('the approver finds three todos on the top-bar badge and in the flow center', async () => {
    const page = pageOf('approver');
    await page.goto('/workbench');
    const entry = page.getByRole('button', { name: '流程中心 3' });
    await entry.waitFor();
    await entry.click();
    await page.getByRole('tab', { name: /待办/ }).waitFor();
    await eventually(() => page.locator('tbody tr', { hasText: '采购申请' }).count()).toBe(3);
    expect(await rowOf(page, '办公椅 20 把').getByText('郑申请').count()).toBe(1);
    expect(await rowOf(page, '办公椅 20 把').getByText('部门审批').count()).toBeGreaterThan(0);
    // Three new todos arrived as messages.
    await page.getByRole('button', { name: '消息 3' }).waitFor();
    await screenshot(page, 'flow-center-todo');
  });

  it('an urge from the applicant reaches the approver as an unread message, and the row is marked urged', async () => {
    await api('POST', '/v1/workflow/instance/urge', { instanceId: instances['办公椅 20 把'], content: '下周开学前要到货，请尽快审批' }, people.applicant);
    const page = pageOf('approver');
    await page.reload();
    const bell = page.getByRole('button', { name: '消息 4' });
    await bell.waitFor();
    await eventually(() => rowOf(page, '办公椅 20 把').getByText('催办').count()).toBe(1);
    await bell.click();
    await page.getByText('下周开学前要到货，请尽快审批').waitFor();
    expect(await page.getByText('来自 郑申请').count()).toBeGreaterThan(0);
    await screenshot(page, 'flow-center-reminders');
    await page.getByRole('button', { name: '全部已读' }).click();
    await page.getByRole('button', { name: '消息', exact: true }).waitFor();
    await page.keyboard.press('Escape');
  });

  it('the approver agrees two flows at once with rapid approval', async () => {
    const page = pageOf('approver');
    await rowOf(page, '办公椅 20 把').getByRole('checkbox').check();
    await rowOf(page, '打印机硒鼓').getByRole('checkbox').check();
    await page.getByRole('button', { name: '快速审批（2）' }).click();
    const dialog = page.getByRole('dialog', { name: /快速审批/ });
    await dialog.getByRole('textbox', { name: '审批意见' }).fill('同意采购');
    await screenshot(page, 'flow-center-rapid');
    await dialog.getByRole('button', { name: '全部同意' }).click();
    await page.getByText('已同意 2 条').waitFor();
    await eventually(() => page.locator('tbody tr', { hasText: '采购申请' }).count()).toBe(1);
    await page.getByRole('button', { name: '流程中心 1' }).waitFor();
    await page.getByRole('tab', { name: /已办/ }).click();
    await eventually(() => page.locator('tbody tr', { hasText: '采购申请' }).count()).toBe(2);
  });

  it('the applicant sees 我发起的 follow: two finished, one still running', async () => {
    const page = pageOf('applicant');
    await page.goto('/workbench/flow?tab=apply');
    await eventually(() => page.locator('tbody tr', { hasText: '采购申请' }).count()).toBe(3);
    expect(await rowOf(page, '办公椅 20 把').getByText('已完成').count()).toBe(1);
    expect(await rowOf(page, '打印机硒鼓').getByText('已完成').count()).toBe(1);
    expect(await rowOf(page, '会议室投影仪').getByText('进行中').count()).toBe(1);
    await screenshot(page, 'flow-center-apply');
    // The name opens the record in the form page.
    await rowOf(page, '会议室投影仪').getByRole('link', { name: '会议室投影仪' }).click();
    await eventually(() => /\/form\/open\/purchase\/[0-9a-f-]{36}/.test(page.url())).toBe(true);
  });

  it('on a phone the flow tab lists the remaining todo', async () => {
    const phone = await signedInPage(browser, baseUrl(), people.approver, { width: 390, height: 844 });
    await phone.goto('/workbench/flow');
    await phone.getByText('会议室投影仪').waitFor();
    expect(await phone.getByText('办公椅 20 把').count()).toBe(0);
    await screenshot(phone, 'flow-center-phone');
    // 消息 is the reminder list (all read by now).
    await phone.goto('/workbench/messages');
    await phone.getByText('下周开学前要到货，请尽快审批').waitFor();
    await screenshot(phone, 'flow-center-phone-reminders');
    await phone.context().close();
  });
});
