import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, screenshot } from './browser.ts';
import { call, memberSession, registerEngine, signedInPage, type Admin } from './session.ts';

/**
 * Issue "Workflow", must show (the approvals): a three-level expense approval with a condition on the amount,
 * submitted by one person and handled by others, each in their own browser session — approve with an edit, send back,
 * disapprove, resubmit — while the todo counts follow. The flow is published through the API here (the designer's
 * scenario draws it).
 */
let browser: Browser;
let admin: Admin;
const people: Record<'staff' | 'manager' | 'finance' | 'boss', Admin & { userId: string; page?: Page }> = {} as never;
const baseUrl = () => inject('baseUrl');
const stamp = String(Date.now()).slice(-7);
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 15_000 });
const api = <T>(method: 'GET' | 'POST', path: string, body?: unknown, who: Admin = admin) => call<T>(baseUrl(), who, method, path, body);
let objectId = '';

const approve = (code: string, name: string, userId: string, extra: Record<string, unknown> = {}) => ({
  type: 'Approve', code, name, participants: { sources: [{ type: 'users', ids: [userId] }] }, permittedActions: ['sendBack'], ...extra,
});

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await registerEngine(baseUrl(), `1356${stamp}`, '周总务', '清溪科技有限公司');
  await api('POST', '/v1/functionnode', { nodeType: 190, code: 'oa', displayName: '行政办公' });
  await api('POST', '/v1/functionnode', { nodeType: 210, code: 'expense', appCode: 'oa', displayName: '费用报销' });
  const loaded = await api<{ draft: { version: number } }>('POST', '/v1/formdesign/load', { schemaCode: 'expense' });
  const definition = {
    attributes: { displayName: '费用报销', nameSchema: '{Title}' },
    controls: [
      { type: 'textBox', code: 'Title', options: { displayName: '报销事由', required: true } },
      { type: 'number', code: 'Amount', options: { displayName: '报销金额', decimalPlaces: 2, required: true } },
      { type: 'textArea', code: 'Reason', options: { displayName: '说明' } },
    ],
  };
  const saved = await api<{ version: number }>('POST', '/v1/formdesign/save', { schemaCode: 'expense', baseVersion: loaded.draft.version, definition });
  await api('POST', '/v1/formdesign/publish', { schemaCode: 'expense', version: saved.version, confirm: [] });
  const names = { staff: '孙小雨', manager: '王经理', finance: '李财务', boss: '赵总' } as const;
  let n = 0;
  for (const [key, name] of Object.entries(names) as [keyof typeof names, string][]) {
    people[key] = await memberSession(baseUrl(), admin, name, `1357${stamp.slice(1)}${n++}`);
    await api('POST', '/v1/functionnode/auth/set', { code: 'expense', unitId: people[key].userId, permission: 'create' });
  }
  // 发起 → 经理审批 (may correct the amount) → 财务审批 → 金额 > 5000 ? 总经理审批 : 结束.
  const template = {
    activities: [
      { type: 'Start', code: 'Start', name: '发起' },
      approve('Manager', '经理审批', people.manager.userId, { fieldPermissions: { Amount: { visible: true, editable: true, required: true } } }),
      approve('Finance', '财务审批', people.finance.userId),
      { type: 'Condition', code: 'Big', name: '金额判断' },
      approve('Boss', '总经理审批', people.boss.userId),
      { type: 'End', code: 'End', name: '结束' },
    ],
    routes: [
      { from: 'Start', to: 'Manager' },
      { from: 'Manager', to: 'Finance' },
      { from: 'Finance', to: 'Big' },
      { from: 'Big', to: 'Boss', condition: { rules: [{ field: 'Amount', operator: 'gt', value: 5000 }] } },
      { from: 'Big', to: 'End', isElse: true },
      { from: 'Boss', to: 'End' },
    ],
  };
  await api('POST', '/v1/workflow/template/save', { schemaCode: 'expense', template });
  await api('POST', '/v1/workflow/template/publish', { schemaCode: 'expense' });
  for (const key of Object.keys(people) as (keyof typeof people)[]) people[key].page = await signedInPage(browser, baseUrl(), people[key], { width: 1366, height: 860 });
});
afterAll(() => browser?.close());

const todo = async (key: keyof typeof people) => (await api<{ todo: number }>('GET', '/v1/workflow/todos/count', undefined, people[key])).todo;
const pageOf = (key: keyof typeof people) => people[key].page!;

/** Opens the record as `key` and presses `button`, with an opinion, in the action's dialog. */
async function act(key: keyof typeof people, button: string, opinion: string, before?: (page: Page) => Promise<void>) {
  const page = pageOf(key);
  await page.goto(`/form/open/expense/${objectId}`);
  await page.getByRole('tab', { name: '审批记录' }).waitFor();
  await before?.(page);
  await page.getByRole('button', { name: button, exact: true }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByRole('textbox', { name: '审批意见' }).fill(opinion);
  return { page, dialog };
}
const ok = async (page: Page) => {
  await page.getByRole('dialog').getByRole('button', { name: /确\s*定/ }).click();
  await page.getByRole('dialog').waitFor({ state: 'hidden' });
};

describe('an expense approval, handled by four people', () => {
  it('the employee fills the form and submits: the flow starts and the manager has a todo', async () => {
    const page = pageOf('staff');
    await page.goto('/form/open/expense');
    const form = page.getByRole('form', { name: '费用报销' });
    await form.getByRole('group', { name: '报销事由', exact: true }).getByRole('textbox').fill('上海客户拜访差旅');
    await form.getByRole('group', { name: '报销金额', exact: true }).getByRole('spinbutton').fill('8000');
    await form.getByRole('group', { name: '说明', exact: true }).getByRole('textbox').fill('往返高铁与两晚住宿');
    await page.getByRole('button', { name: '提交', exact: true }).click();
    await eventually(() => /\/form\/open\/expense\/[0-9a-f-]{36}/.test(page.url())).toBe(true);
    objectId = page.url().split('/').pop()!.split('?')[0];
    await page.getByRole('tab', { name: '审批记录' }).waitFor();
    await eventually(() => page.getByText('待「经理审批」处理：王经理').count()).toBe(1);
    await eventually(() => todo('manager')).toBe(1);
    expect(await todo('finance')).toBe(0);
    await screenshot(page, 'workflow-submitted');
  });

  it('the manager corrects the amount (an editable field at his node) and approves', async () => {
    const { page } = await act('manager', '同意', '金额按标准核减', async (p) => {
      const amount = p.getByRole('form', { name: '费用报销' }).getByRole('group', { name: '报销金额', exact: true }).getByRole('spinbutton');
      await amount.fill('6000');
      await p.getByText('待「经理审批」处理：王经理').waitFor();
      // 报销事由 is read-only at this node.
      expect(await p.getByRole('form', { name: '费用报销' }).getByRole('group', { name: '报销事由', exact: true }).getByRole('textbox').count()).toBe(0);
      await screenshot(p, 'workflow-manager');
    });
    await ok(page);
    await eventually(() => todo('finance')).toBe(1);
    expect(await todo('manager')).toBe(0);
  });

  it('finance sends it back to the manager, who approves again', async () => {
    const { page, dialog } = await act('finance', '退回', '请附上住宿发票说明');
    await dialog.getByRole('combobox').click();
    await page.locator('.ant-select-dropdown:visible').getByText('经理审批', { exact: true }).click();
    await ok(page);
    await eventually(() => todo('manager')).toBe(1);
    const again = await act('manager', '同意', '已补充');
    await ok(again.page);
    await eventually(() => todo('finance')).toBe(1);
    await ok((await act('finance', '同意', '票据齐全')).page);
    // 6000 > 5000: the condition sends it to the general manager.
    await eventually(() => todo('boss')).toBe(1);
  });

  it('the general manager disapproves: it goes back to the employee, who lowers the amount and resubmits', async () => {
    const boss = await act('boss', '不同意', '超出差旅标准，请按4500报销');
    await screenshot(boss.page, 'workflow-opinion-dialog');
    await ok(boss.page);
    await eventually(() => todo('staff')).toBe(1);
    const page = pageOf('staff');
    await page.goto(`/form/open/expense/${objectId}`);
    const form = page.getByRole('form', { name: '费用报销' });
    await form.getByRole('group', { name: '报销金额', exact: true }).getByRole('spinbutton').fill('4500');
    await screenshot(page, 'workflow-sent-back');
    await page.getByRole('button', { name: '提交', exact: true }).click();
    await page.getByRole('dialog').getByRole('textbox', { name: '审批意见' }).fill('已按标准调整');
    await ok(page);
    await eventually(() => todo('manager')).toBe(1);
    await ok((await act('manager', '同意', '同意')).page);
    await ok((await act('finance', '同意', '同意')).page);
    // 4500: no general manager this time; the record is effective.
    const record = await api<{ status: number; values: { Amount: number } }>('POST', '/v1/form/loaddata', { schemaCode: 'expense', objectId });
    await eventually(async () => (await api<{ status: number }>('POST', '/v1/form/loaddata', { schemaCode: 'expense', objectId })).status).toBe(1);
    expect(record.values.Amount).toBe(4500);
    expect(await todo('boss')).toBe(0);
    await page.goto(`/form/open/expense/${objectId}`);
    await page.getByRole('tab', { name: '审批记录' }).waitFor();
    await eventually(() => page.getByText('超出差旅标准，请按4500报销').count()).toBe(1);
    await screenshot(page, 'workflow-trace');
    await page.getByRole('tab', { name: '流程图' }).click();
    await page.getByRole('img', { name: '流程图' }).waitFor();
    await screenshot(page, 'workflow-chart');
  });
});
