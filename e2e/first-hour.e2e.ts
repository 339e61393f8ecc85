import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import ExcelJS from 'exceljs';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { newPage, screenshot } from './browser.ts';
import { E2E_CODE } from './global-setup.ts';
import { api, baseUrl, browser, memberPage, publish, uniqueMobile, until, type Admin } from './fixtures.ts';
import { findForeignText } from '../packages/web/src/test/zh-cn-text-check.ts';

/**
 * Issue 47, must show: a new organisation's first hour, start to finish, on a fresh engine. The administrator
 * registers through the screens; builds a customer form (its design is the designer scenario's subject, so it is
 * published through the API here); enters three records by hand, a typed date and a money amount with decimals among
 * them, and edits one; adds a colleague; runs an expense approval whose approver was never given the app; draws a bar
 * chart; imports a spreadsheet; opens a record on a phone. Every step's screen shows no error message, no English
 * word and no date in a foreign format (findForeignText, the same check the unit tests use).
 */
let page: Page;
let admin: Admin;
const mobile = uniqueMobile();
const dir = mkdtempSync(path.join(os.tmpdir(), 'tritium-e2e-first-hour-'));
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });
/** File names shown on the screens of this scenario. */
const ALLOWED = ['pdf', 'xlsx'];

/** The screen as a person sees it: no error message, no foreign words or dates; then its screenshot. */
async function look(p: Page, name: string) {
  expect(await p.locator('.ant-message-error, .ant-notification-notice-error').count(), `${name}: an error message`).toBe(0);
  expect(findForeignText(await p.locator('body').innerText(), ALLOWED), `${name}: foreign text`).toEqual([]);
  await screenshot(p, `first-hour-${name}`);
}

const form = (p: Page, name: string) => p.getByRole('form', { name });
const field = (p: Page, formName: string, name: string) => form(p, formName).getByRole('group', { name, exact: true });
/** The form's own 关闭 in its footer (the dialog's corner button has the same name). */
const closeButton = (p: Page) => p.getByRole('button', { name: '关闭', exact: true }).last();
const pick = (p: Page, text: string) => p.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: text }).first().click();
const sessionOf = async (p: Page): Promise<Admin> => {
  const cookies = Object.fromEntries((await p.context().cookies()).map((c) => [c.name, c.value]));
  return { token: cookies['access-token']!, engineCode: cookies.engine! };
};

beforeAll(async () => {
  page = await newPage(await browser(), baseUrl(), { width: 1440, height: 900 });
});

describe('a new organisation’s first hour', () => {
  it('registers an organisation and lands in an empty workbench', async () => {
    await page.goto('/entry/register');
    await page.getByLabel('手机号').fill(mobile);
    await page.getByRole('button', { name: /获取验证码/ }).click();
    await eventually(() => page.getByRole('button', { name: /重新发送/ }).count()).toBe(1);
    await page.getByLabel('验证码', { exact: true }).fill(E2E_CODE);
    await page.getByLabel('组织名称').fill('云杉商贸有限公司');
    await page.getByRole('button', { name: '注册并创建组织' }).click();
    await page.getByLabel('姓名').fill('陈立');
    await page.getByLabel('密码', { exact: true }).fill('Yunshan2026');
    await page.getByLabel('组织规模').click();
    await page.getByText('21-50人').click();
    await page.getByRole('button', { name: '注册并创建组织' }).click();
    await page.waitForURL('**/entry/register/success**');
    await page.getByRole('button', { name: '进入工作台' }).click();
    await page.waitForURL('**/workbench**');
    await eventually(() => page.getByText('你好，陈立').count()).toBeGreaterThan(0);
    admin = await sessionOf(page);
    await look(page, '01-workbench');
  });

  it('has a customer form with every kind of field a first form has', async () => {
    await api(admin, 'POST', '/v1/functionnode', { nodeType: 190, code: 'crm', displayName: '客户管理' });
    await api(admin, 'POST', '/v1/functionnode', { nodeType: 200, code: 'customer', appCode: 'crm', displayName: '客户' });
    await publish(admin, 'customer', {
      attributes: { displayName: '客户', nameSchema: '{CName}', enableDataLog: true },
      controls: [
        { type: 'textBox', code: 'CName', options: { displayName: '客户名称', required: true } },
        { type: 'number', code: 'Amount', options: { displayName: '合同金额', decimalPlaces: 2 } },
        { type: 'dateTime', code: 'SignDate', options: { displayName: '签约日期' } },
        { type: 'dropDown', code: 'Grade', options: { displayName: '客户等级', defaultItems: ['重要', '普通'] } },
        { type: 'user', code: 'Sales', options: { displayName: '负责人' } },
        { type: 'attachment', code: 'Files', options: { displayName: '合同附件' } },
        {
          type: 'gridView', code: 'Contacts', options: { displayName: '联系人' },
          controls: [{ type: 'textBox', code: 'Person', options: { displayName: '姓名' } }, { type: 'textBox', code: 'Phone', options: { displayName: '电话' } }],
        },
      ],
    });
    await page.goto('/workbench/app/crm/customer');
    await page.getByRole('button', { name: /新增/ }).first().waitFor();
    await look(page, '02-empty-list');
  });

  it('enters a record by hand: a typed date and an amount with decimals are kept as typed', async () => {
    await page.getByRole('button', { name: /新增/ }).first().click();
    await form(page, '客户').waitFor();
    await field(page, '客户', '客户名称').getByRole('textbox').fill('星河科技');
    const amount = field(page, '客户', '合同金额').getByRole('spinbutton');
    await amount.fill('2380.5');
    const date = field(page, '客户', '签约日期').getByRole('textbox').first();
    await date.click();
    await page.keyboard.type('2024-05-20');
    await amount.click();
    // Neither is changed when the field is left: no rounding, no cleared date.
    expect(await amount.inputValue()).toMatch(/^2380\.50?$/);
    await eventually(() => date.inputValue()).toMatch(/^2024-05-20/);
    await field(page, '客户', '客户等级').getByRole('combobox').click();
    await pick(page, '重要');
    await field(page, '客户', '负责人').getByRole('button', { name: '负责人' }).click();
    const picker = page.getByRole('dialog', { name: '选择人员' });
    await picker.getByLabel('搜索', { exact: true }).fill('陈立');
    await picker.getByRole('group', { name: '搜索结果' }).getByRole('checkbox', { name: /^陈立/ }).click();
    await picker.getByRole('button', { name: '确定' }).click();
    await eventually(() => field(page, '客户', '负责人').getByText('陈立').count()).toBeGreaterThan(0);
    await field(page, '客户', '合同附件').locator('input[type=file]').setInputFiles({ name: '合同.pdf', mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 contract') });
    await eventually(() => field(page, '客户', '合同附件').getByText('合同.pdf').count()).toBeGreaterThan(0);
    await field(page, '客户', '联系人').getByRole('button', { name: /新增行/ }).click();
    await field(page, '客户', '联系人').getByRole('textbox').nth(0).fill('林悦');
    await field(page, '客户', '联系人').getByRole('textbox').nth(1).fill('13800001111');
    await look(page, '03-new-record');
    await page.getByRole('button', { name: '提交', exact: true }).click();
    await eventually(() => field(page, '客户', '合同金额').getByText('2,380.50').or(field(page, '客户', '合同金额').getByText('2380.5')).count()).toBeGreaterThan(0);
    await eventually(() => field(page, '客户', '签约日期').getByText(/^2024-05-20/).count()).toBe(1);
    await look(page, '04-record-view');
    const stored = await api<{ list: { CName: string; Amount: number; Status: number }[] }>(admin, 'POST', '/v1/bizdata/query', { schemaCode: 'customer' });
    expect(stored.list[0]).toMatchObject({ CName: '星河科技', Amount: 2380.5, Status: 1 });
    await closeButton(page).click();
    await eventually(() => form(page, '客户').count()).toBe(0);
  });

  it('enters two more, and asks before throwing a filled form away', async () => {
    for (const [name, sum] of [['远山建材', '99.75'], ['青木物流', '12000']] as const) {
      await page.getByRole('button', { name: /新增/ }).first().click();
      await field(page, '客户', '客户名称').getByRole('textbox').fill(name);
      await field(page, '客户', '合同金额').getByRole('spinbutton').fill(sum);
      if (name === '青木物流') {
        // 关闭 on a filled form asks first; 继续编辑 keeps what was typed.
        await closeButton(page).click();
        const ask = page.getByRole('dialog').filter({ hasText: '放弃' });
        await ask.waitFor();
        await look(page, '05-discard-asked');
        await ask.getByRole('button', { name: /继续编辑/ }).click();
        expect(await field(page, '客户', '客户名称').getByRole('textbox').inputValue()).toBe(name);
      }
      await page.getByRole('button', { name: '提交', exact: true }).click();
      await eventually(() => field(page, '客户', '客户名称').getByText(name).count()).toBe(1);
      await closeButton(page).click();
      await eventually(() => form(page, '客户').count()).toBe(0);
    }
    await eventually(() => page.getByText('远山建材').count()).toBeGreaterThan(0);
    await look(page, '06-three-records');
  });

  it('edits one record; its data log says what changed', async () => {
    await page.getByText('远山建材').first().click();
    await form(page, '客户').waitFor();
    await page.getByRole('button', { name: '编辑', exact: true }).click();
    await field(page, '客户', '合同金额').getByRole('spinbutton').fill('1099.75');
    await page.getByRole('button', { name: '保存', exact: true }).click();
    await eventually(() => field(page, '客户', '合同金额').getByRole('spinbutton').count()).toBe(0);
    await page.getByRole('tab', { name: '数据日志' }).click();
    await eventually(() => page.getByText(/合同金额：99\.75 → 1,?099\.75/).count()).toBe(1);
    await look(page, '07-edited');
    await closeButton(page).click();
  });

  let approverPage: Page;
  it('runs an expense approval whose approver was never given the app', async () => {
    const { member, page: theirs } = await memberPage(admin, '吴芳');
    approverPage = theirs;
    await api(admin, 'POST', '/v1/functionnode', { nodeType: 210, code: 'expense', appCode: 'crm', displayName: '费用报销' });
    await publish(admin, 'expense', {
      attributes: { displayName: '费用报销', nameSchema: '{Title}' },
      controls: [
        { type: 'textBox', code: 'Title', options: { displayName: '报销事由', required: true } },
        { type: 'number', code: 'Amount', options: { displayName: '报销金额', decimalPlaces: 2, required: true } },
      ],
    });
    const template = {
      activities: [
        { type: 'Start', code: 'Start', name: '发起' },
        { type: 'Approve', code: 'Check', name: '财务审批', participants: { sources: [{ type: 'users', ids: [member.userId] }] } },
        { type: 'End', code: 'End', name: '结束' },
      ],
      routes: [{ from: 'Start', to: 'Check' }, { from: 'Check', to: 'End' }],
    };
    await api(admin, 'POST', '/v1/workflow/template/save', { schemaCode: 'expense', template });
    const published = await api<{ notices: { userNames: string[] }[] }>(admin, 'POST', '/v1/workflow/template/publish', { schemaCode: 'expense' });
    expect(published.notices.flatMap((n) => n.userNames)).toEqual(['吴芳']);

    await page.goto('/form/open/expense');
    await field(page, '费用报销', '报销事由').getByRole('textbox').fill('客户拜访差旅');
    await field(page, '费用报销', '报销金额').getByRole('spinbutton').fill('2380.5');
    await page.getByRole('button', { name: '提交', exact: true }).click();
    await eventually(() => page.getByText('待「财务审批」处理：吴芳').count()).toBe(1);
    await look(page, '08-expense-submitted');

    await approverPage.goto('/workbench/flow');
    const row = approverPage.getByRole('row').filter({ hasText: '客户拜访差旅' });
    await row.getByRole('link', { name: '客户拜访差旅' }).click();
    await form(approverPage, '费用报销').waitFor();
    await eventually(() => field(approverPage, '费用报销', '报销金额').getByText(/2,?380\.50?/).count()).toBe(1);
    await look(approverPage, '09-approver-opens');
    await approverPage.getByRole('button', { name: '同意', exact: true }).click();
    const dialog = approverPage.getByRole('dialog');
    await dialog.getByRole('textbox', { name: '审批意见' }).fill('同意报销');
    await dialog.getByRole('button', { name: /确\s*定/ }).click();
    await dialog.waitFor({ state: 'hidden' });
    // The trace shows the approval once the flow is read again: by then a refused read would have shown its error.
    await eventually(() => approverPage.getByText('同意报销').count()).toBeGreaterThan(0);
    await eventually(() => approverPage.getByRole('button', { name: '同意', exact: true }).count()).toBe(0);
    await look(approverPage, '10-approved');
  });

  it('the originator’s bell and workbench agree', async () => {
    await page.goto('/workbench');
    const bell = page.getByRole('button', { name: /^消息( \d+)?$/ });
    await bell.waitFor();
    await eventually(async () => (await bell.getAttribute('aria-label')) ?? '').toBe('消息 1');
    await eventually(() => page.getByText('流程已通过：客户拜访差旅').count()).toBeGreaterThan(0);
    await look(page, '11-bell-and-workbench');
  });

  it('draws a bar chart over the form, counting effective records', async () => {
    await api(admin, 'POST', '/v1/functionnode', { nodeType: 270, code: 'board', appCode: 'crm', displayName: '客户看板' });
    await api(admin, 'POST', '/v1/dashboard/save', {
      code: 'board',
      definition: {
        refreshSeconds: 0, filters: [],
        widgets: [{ id: 'w1', type: 'bar', title: '各等级客户数', layout: { x: 0, y: 0, w: 8, h: 6 }, source: { schemaCode: 'customer' }, dimensions: [{ field: 'Grade' }], measures: [{ aggregate: 'count' }] }],
      },
    });
    await page.goto('/workbench/app/crm/board');
    await eventually(() => page.locator('[data-widget="w1"] canvas').count()).toBeGreaterThan(0);
    await look(page, '12-bar-chart');
  });

  it('imports a spreadsheet: the new rows are in the list at once, effective', async () => {
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('客户');
    sheet.addRow(['客户名称', '合同金额', '签约日期', '客户等级']);
    sheet.addRow(['白桦医疗', 5600.25, new Date(Date.UTC(2024, 8, 10)), '普通']);
    sheet.addRow(['松涛教育', 800, new Date(Date.UTC(2024, 8, 12)), '重要']);
    const file = path.join(dir, '客户导入.xlsx');
    writeFileSync(file, Buffer.from(await book.xlsx.writeBuffer()));
    await page.goto('/workbench/app/crm/customer');
    await page.getByRole('button', { name: /导\s*入$/ }).first().click();
    const wizard = page.getByRole('dialog').filter({ hasText: '导入 · 客户' });
    await wizard.locator('input[type=file]').setInputFiles(file);
    await eventually(() => wizard.getByText('文件中的列').first().isVisible()).toBe(true);
    await wizard.getByRole('button', { name: '下一步' }).click();
    await eventually(() => wizard.getByText('2024-09-10').count()).toBeGreaterThan(0);
    await look(page, '13-import-preview');
    await wizard.getByRole('button', { name: '开始导入' }).click();
    await eventually(() => wizard.getByText(/新增 2 条/).count()).toBeGreaterThan(0);
    await wizard.getByRole('button', { name: /关\s*闭/ }).last().click();
    // No reload: the list shows them.
    await eventually(() => page.getByText('白桦医疗').count()).toBeGreaterThan(0);
    await eventually(() => page.getByRole('row').filter({ hasText: '松涛教育' }).getByText('生效').count()).toBe(1);
    await look(page, '14-imported');
    const effective = await until('the imported rows', () => api<{ list: { CName: string; Status: number }[] }>(admin, 'POST', '/v1/bizdata/query', { schemaCode: 'customer' }), (r) => r.list.length === 5);
    expect(effective.list.every((r) => r.Status === 1)).toBe(true);
  });

  it('opens a record on a phone: the record has the screen, the actions a bar', async () => {
    const phone = await newPage(await browser(), baseUrl(), { width: 390, height: 844 });
    await phone.context().addCookies([
      { name: 'access-token', value: admin.token, url: baseUrl() },
      { name: 'engine', value: admin.engineCode, url: baseUrl() },
    ]);
    const { list } = await api<{ list: { ObjectId: string; CName: string }[] }>(admin, 'POST', '/v1/bizdata/query', { schemaCode: 'customer' });
    const first = list.find((r) => r.CName === '星河科技')!;
    await phone.goto(`/form/open/customer/${first.ObjectId}`);
    await form(phone, '客户').getByText('星河科技').waitFor();
    await eventually(() => field(phone, '客户', '负责人').getByText('陈立').count()).toBeGreaterThan(0);
    await look(phone, '15-phone-record');
  });
});
