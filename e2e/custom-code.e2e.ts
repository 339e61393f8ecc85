import { beforeAll, describe, expect, it } from 'vitest';
import type { Locator, Page } from 'playwright-core';
import { screenshot } from './browser.ts';
import { api, appWithForms, engineWithAdmin, memberPage, pageOf, publish, type Admin } from './fixtures.ts';

/**
 * Issue 43 (docs/decisions/0118), must show, through the screens: an administrator opens the form designer, clicks
 * 代码 and writes a server script in the 后端代码 editor (the type check marks a mistake inline), saves it twice and
 * compares the versions, tries a button's action in 试运行; a member's submit over the limit is refused with the
 * script's Chinese message, a smaller one is accepted and the computed field is filled in the saved record; a button
 * runs the server action `actions.archive`, which creates a record in another form and sets a field in this one; the
 * 运行日志 tab shows each run. The app's 自定义接口 page says how an outside system calls an action. (A browser script
 * hiding a field is e2e/browser-script.e2e.ts.)
 */
let admin: Admin;
let page: Page;
let memberFormPage: Page;

const APP = { code: 'finance', displayName: '财务管理' };
const FORM = { code: 'expense', displayName: '报销单' };
const ARCHIVE = { code: 'expense_archive', displayName: '报销归档' };

const LIMIT_MESSAGE = '报销金额超过 5000 元，请拆分后再提交';

// What the administrator types, first with a mistake the type check marks (ctx.recrd), then right.
const WITH_MISTAKE = `export async function onSubmit(ctx: ScriptContext) {
  const amount = Number(ctx.recrd.Amount ?? 0);
}
`;

const FIRST = `// 报销单：金额上限和税额
export async function onSubmit(ctx: ScriptContext) {
  const amount = Number(ctx.record.Amount ?? 0);
  if (ctx.actionName === 'Submit' && amount > 5000) {
    ctx.refuse('${LIMIT_MESSAGE}');
  }
  ctx.record.Tax = Math.round(amount * 6) / 100;
  ctx.log('税额', ctx.record.Tax);
}
`;

const SECOND = `${FIRST}
// 按钮「归档」：在报销归档表单中新建一条数据，把它的编号填回本单
export const actions = {
  async archive(ctx: ScriptContext) {
    const created = await ctx.records.create('${ARCHIVE.code}', { Title: String(ctx.record.Title ?? ''), Amount: Number(ctx.record.Amount ?? 0) });
    ctx.record.ArchiveNo = created.objectId;
    ctx.log('已归档', created.objectId);
    return { objectId: created.objectId };
  },
};
`;

beforeAll(async () => {
  admin = await engineWithAdmin({ userName: '沈砚', engineName: '青禾会计服务有限公司' });
  await appWithForms(admin, APP, [FORM, ARCHIVE]);
  await publish(admin, FORM.code, {
    attributes: { displayName: FORM.displayName },
    controls: [
      { type: 'textBox', code: 'Title', options: { displayName: '事由' } },
      { type: 'number', code: 'Amount', options: { displayName: '金额', decimalPlaces: 2 } },
      { type: 'number', code: 'Tax', options: { displayName: '税额', decimalPlaces: 2 } },
      { type: 'textBox', code: 'ArchiveNo', options: { displayName: '归档编号' } },
      { type: 'button', code: 'Archive', options: { displayName: '归档', actionName: 'archive' } },
    ],
  });
  await publish(admin, ARCHIVE.code, {
    attributes: { displayName: ARCHIVE.displayName },
    controls: [
      { type: 'textBox', code: 'Title', options: { displayName: '事由' } },
      { type: 'number', code: 'Amount', options: { displayName: '金额', decimalPlaces: 2 } },
    ],
  });
  page = await pageOf(admin);
  const { member, page: memberFormPageOf } = await memberPage(admin, '韩露');
  // The member may use the app (and, through it, both forms).
  await api(admin, 'POST', '/v1/functionnode/auth/set', { code: APP.code, unitId: member.userId, permission: 'access' });
  memberFormPage = memberFormPageOf;
});

/** Replaces the editor's text as a paste would (typing would meet the editor's auto-closed brackets). */
async function typeInto(editor: Locator, text: string) {
  await editor.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.insertText(text);
}

const group = (p: Page, name: string) => p.getByRole('group', { name, exact: true });
/** The save messages have gone (they would cover the drawer's title in a screenshot). */
const messagesGone = () => expect.poll(() => page.locator('.ant-message-notice').count(), { timeout: 10_000 }).toBe(0);

describe('the administrator writes the form’s server script', () => {
  const editor = () => page.getByRole('textbox', { name: '后端代码编辑器' });

  it('opens 代码 from the form designer and sees the type check’s mistakes inline', async () => {
    await page.goto(`/form/designer?schemaCode=${FORM.code}`);
    await page.getByRole('button', { name: /代码$/ }).click();
    await page.waitForURL(`**/form/code/${FORM.code}`);
    await expect.poll(() => page.getByRole('tab', { name: '后端代码' }).getAttribute('aria-selected')).toBe('true');
    await expect.poll(() => page.getByText('尚未保存（模板）').count()).toBe(1);
    await typeInto(editor(), WITH_MISTAKE);
    // The check runs when typing pauses: the mistake is counted, listed with its line and marked in the editor.
    await expect.poll(() => page.getByRole('status').filter({ hasText: /个问题/ }).count(), { timeout: 20_000 }).toBe(1);
    const problems = page.getByRole('region', { name: '代码问题' });
    await expect.poll(() => problems.getByText(/^第 2 行第 \d+ 列：/).count()).toBeGreaterThan(0);
    await expect.poll(() => page.locator('.cm-lintRange-error').count()).toBeGreaterThan(0);
    await screenshot(page, 'custom-code-1-editor-diagnostics');
  });

  it('saves the script, then a second version, and compares them', async () => {
    await typeInto(editor(), FIRST);
    await expect.poll(() => page.getByRole('status').filter({ hasText: '没有发现问题' }).count(), { timeout: 20_000 }).toBe(1);
    await page.getByRole('button', { name: /保\s*存/ }).click();
    await expect.poll(() => page.getByText('已保存为第 1 版').count()).toBeGreaterThan(0);
    await expect.poll(() => page.getByText(/^第 1 版 · 沈砚 · /).count()).toBe(1);
    await typeInto(editor(), SECOND);
    await expect.poll(() => page.getByText('有未保存的修改').count()).toBe(1);
    await expect.poll(() => page.getByRole('status').filter({ hasText: '没有发现问题' }).count(), { timeout: 20_000 }).toBe(1);
    await page.getByRole('button', { name: /保\s*存/ }).click();
    await expect.poll(() => page.getByText(/^第 2 版 · 沈砚 · /).count()).toBe(1);
    expect(await page.getByText('有未保存的修改').count()).toBe(0);

    await page.getByRole('button', { name: /版\s*本/ }).click();
    const drawer = page.getByRole('dialog', { name: '历史版本' });
    await expect.poll(() => drawer.getByText('第 2 版', { exact: true }).count()).toBe(1);
    await drawer.getByRole('button', { name: '对比 第 1 版' }).click();
    const diff = drawer.getByRole('list', { name: /与当前编辑器中的代码对比/ });
    await expect.poll(() => diff.getByRole('listitem', { name: '当前新增' }).filter({ hasText: 'async archive' }).count()).toBe(1);
    expect(await diff.getByRole('listitem', { name: '当前已删除' }).count()).toBe(0);
    await messagesGone();
    await screenshot(page, 'custom-code-2-versions-diff');
    await page.keyboard.press('Escape');
    await expect.poll(() => drawer.count()).toBe(0);
  });

  it('tries the button’s action in 试运行: the changes and log lines are shown, nothing is kept', async () => {
    const before = await api<{ total: number }>(admin, 'POST', '/v1/bizdata/query', { schemaCode: ARCHIVE.code });
    await page.getByRole('button', { name: /试运行/ }).click();
    const drawer = page.getByRole('dialog', { name: '试运行' });
    await drawer.getByRole('combobox').first().click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: '后端操作' }).first().click();
    await drawer.getByLabel('操作名称').fill('archive');
    await drawer.getByRole('button', { name: /运\s*行/ }).click();
    const outcome = drawer.getByRole('region', { name: '试运行' });
    await expect.poll(() => outcome.getByText('运行成功').count(), { timeout: 20_000 }).toBe(1);
    await expect.poll(() => outcome.getByRole('cell', { name: '归档编号' }).count()).toBe(1);
    await expect.poll(() => outcome.getByText(/^已归档 /).count()).toBe(1);
    await screenshot(page, 'custom-code-3-dry-run');
    // Rolled back: no archive record was kept.
    const after = await api<{ total: number }>(admin, 'POST', '/v1/bizdata/query', { schemaCode: ARCHIVE.code });
    expect(after.total).toBe(before.total);
    await page.keyboard.press('Escape');
  });
});

describe('a member fills the form', () => {
  const p = () => memberFormPage;
  const input = (name: string) => group(p(), name).getByRole('textbox');
  const amount = () => group(p(), '金额').getByRole('spinbutton');

  it('is refused over the limit with the script’s message, then accepted with the tax filled in', async () => {
    await p().goto(`/form/open/${FORM.code}`);
    await input('事由').fill('客户拜访差旅');
    await amount().fill('8000');
    await p().getByRole('button', { name: '提交', exact: true }).click();
    await expect.poll(() => p().locator('.ant-message-error').getByText(LIMIT_MESSAGE).count()).toBe(1);
    expect(new URL(p().url()).pathname).toBe(`/form/open/${FORM.code}`);
    await screenshot(p(), 'custom-code-4-member-refused');

    await amount().fill('1200');
    await p().getByRole('button', { name: '提交', exact: true }).click();
    await p().waitForURL(new RegExp(`/form/open/${FORM.code}/[0-9a-f-]{36}`));
    const objectId = new URL(p().url()).pathname.split('/').at(-1)!;
    const saved = await api<{ values: Record<string, unknown> }>(admin, 'POST', '/v1/form/loaddata', { schemaCode: FORM.code, objectId });
    expect(saved.values).toMatchObject({ Title: '客户拜访差旅', Amount: 1200, Tax: 72 });
    // The form shows the saved record with the script's tax.
    await expect.poll(() => group(p(), '税额').getByText(/^72(\.00)?$/).count()).toBe(1);
  });

  it('presses 归档: the server action creates a record in the other form and fills the field', async () => {
    await p().goto(`/form/open/${FORM.code}`);
    await input('事由').fill('办公用品采购');
    await amount().fill('360');
    await p().getByRole('button', { name: '归档', exact: true }).click();
    await expect.poll(() => input('归档编号').inputValue()).toMatch(/^[0-9a-f-]{36}$/);
    const archiveId = await input('归档编号').inputValue();
    const archived = await api<{ values: Record<string, unknown> }>(admin, 'POST', '/v1/form/loaddata', { schemaCode: ARCHIVE.code, objectId: archiveId });
    expect(archived.values).toMatchObject({ Title: '办公用品采购', Amount: 360 });
    // The number is the form's to save.
    await p().getByRole('button', { name: '提交', exact: true }).click();
    await p().waitForURL(new RegExp(`/form/open/${FORM.code}/[0-9a-f-]{36}`));
    const objectId = new URL(p().url()).pathname.split('/').at(-1)!;
    const saved = await api<{ values: Record<string, unknown> }>(admin, 'POST', '/v1/form/loaddata', { schemaCode: FORM.code, objectId });
    expect(saved.values).toMatchObject({ ArchiveNo: archiveId, Tax: 21.6 });
  });
});

describe('the administrator reads the runs', () => {
  it('运行日志 shows the refusal, the accepted submits and the button’s action', async () => {
    await page.goto(`/form/code/${FORM.code}`);
    await page.getByRole('tab', { name: '运行日志' }).click();
    const log = page.getByRole('table', { name: '运行日志列表' });
    await expect.poll(() => log.getByText(`已拒绝：${LIMIT_MESSAGE}`).count()).toBe(1);
    // Two accepted submits, each with its tax line; the action's own line and its run.
    await expect.poll(() => log.getByRole('row').filter({ hasText: '运行完成' }).count()).toBe(3);
    await expect.poll(() => log.getByRole('row').filter({ hasText: /^.*已归档 [0-9a-f-]{36}/ }).count()).toBe(1);
    expect(await log.getByRole('row').filter({ hasText: '操作 archive' }).count()).toBe(2);
    expect(await log.getByRole('row').filter({ hasText: '韩露' }).count()).toBeGreaterThanOrEqual(6);
    await screenshot(page, 'custom-code-5-run-log');
  });

  it('the app’s 自定义接口 page says how an outside system calls an action', async () => {
    await page.goto(`/workbench/app/${APP.code}`);
    await page.getByRole('button', { name: `「${APP.displayName}」的操作` }).click();
    await page.getByRole('menuitem', { name: '自定义接口' }).click();
    await page.waitForURL(`**/app/code/${APP.code}`);
    const help = page.getByRole('note', { name: '外部系统调用' });
    await expect.poll(() => help.getByText(/\/OpenApi\/Invoke.*SchemaCode 填本应用的编码「finance」.*「开放接口」页中的 EngineCode 和密钥/).count()).toBe(1);
    await help.getByRole('button', { name: /调用示例/ }).click();
    const example = help.getByLabel('调用示例', { exact: true });
    await expect.poll(() => example.textContent()).toContain(`"SchemaCode": "${APP.code}"`);
    const text = (await example.textContent()) ?? '';
    expect(text).toMatch(/^POST http:\/\/[^/]+\/OpenApi\/Invoke\nEngineCode: \S+\nEngineSecret: /);
    expect(text).toContain('"ActionName": "hello"');
    await screenshot(page, 'custom-code-6-app-api');
  });
});
