import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './browser.ts';
import { api, appWithPublishedForm, engineWithAdmin, pageOf, type Admin } from './fixtures.ts';

/**
 * Issue 43 (docs/decisions/0118, "Browser script"), must show: a browser script hides a field when another changes; a
 * browser script reading `document.cookie`, the parent page or local storage gets nothing (its frame has an opaque
 * origin) while the page's session keeps working; a button runs a browser handler that sets a field; a handler that
 * never ends is stopped and the form goes on.
 */
let admin: Admin;
let page: Page;

const controls = [
  { type: 'textBox', code: 'Title', options: { displayName: '标题' } },
  { type: 'dropDown', code: 'Level', options: { displayName: '等级', defaultItems: ['高', '低'] } },
  { type: 'textBox', code: 'Note', options: { displayName: '备注' } },
  { type: 'textBox', code: 'Probe', options: { displayName: '探测结果' } },
  { type: 'button', code: 'Fill', options: { displayName: '填入标题', actionName: 'fill' } },
  { type: 'button', code: 'Spin', options: { displayName: '死循环', actionName: 'spin' } },
];

// What the administrator writes in the code editor (JavaScript; the server compiles it when it is saved).
const SOURCE = `
export function onChange(form, field, value) {
  if (field === 'Level') {
    if (value === '高') form.hide('Note');
    else form.show('Note');
  }
}

const attempt = (read) => {
  try {
    const value = read();
    return value === undefined || value === null ? '' : String(value);
  } catch (error) {
    return 'blocked:' + error.name;
  }
};

export function afterLoad(form) {
  form.set('Probe', JSON.stringify({
    cookie: attempt(() => document.cookie),
    parent: attempt(() => parent.document.title),
    storage: attempt(() => localStorage.getItem('tritium-engine')),
  }));
}

export const buttons = {
  fill(form) {
    form.set('Title', '按钮填入的标题');
    form.message('已填入标题', 'success');
  },
  spin() {
    for (;;) {}
  },
};
`;

beforeAll(async () => {
  admin = await engineWithAdmin({ userName: '陆明', engineName: '明川贸易有限公司' });
  await appWithPublishedForm(admin, { app: { code: 'sales', displayName: '销售管理' }, form: { code: 'quote', displayName: '报价单' }, controls });
  await api(admin, 'POST', '/v1/codeeditor/save', { appCode: 'sales', schemaCode: 'quote', part: 'form-browser', language: 'js', source: SOURCE, baseVersion: 0 });
  page = await pageOf(admin);
});

describe('a browser script in the form', () => {
  const group = (name: string) => page.getByRole('group', { name, exact: true });
  const input = (name: string) => group(name).getByRole('textbox');

  it('runs in a sandboxed frame that cannot read the cookies, the parent page or storage', async () => {
    await page.goto('/form/open/quote');
    await expect.poll(() => input('探测结果').inputValue(), { timeout: 20_000 }).not.toBe('');
    const probe = JSON.parse(await input('探测结果').inputValue()) as Record<string, string>;
    // An opaque origin: its own cookies and storage throw, and the parent's document is another origin's.
    expect(probe.cookie === '' || probe.cookie.startsWith('blocked:')).toBe(true);
    expect(probe.cookie).not.toContain('access-token');
    expect(probe.parent).toMatch(/^blocked:/);
    expect(probe.storage).toMatch(/^blocked:/);
    const frame = page.locator('iframe[data-form-script]');
    expect(await frame.count()).toBe(1);
    expect(await frame.getAttribute('sandbox')).toBe('allow-scripts');
    await screenshot(page, 'browser-script-1-loaded');
  });

  it('hides a field when the drop-down changes, and shows it again', async () => {
    const choose = async (option: string) => {
      await group('等级').getByRole('combobox').click();
      await page.locator('.ant-select-dropdown:visible .ant-select-item-option').filter({ hasText: option }).first().click();
    };
    await choose('高');
    await expect.poll(() => group('备注').count()).toBe(0);
    await screenshot(page, 'browser-script-2-hidden');
    await choose('低');
    await expect.poll(() => group('备注').count()).toBe(1);
  });

  it('runs a button’s browser handler, and the session still saves the record', async () => {
    await page.getByRole('button', { name: '填入标题', exact: true }).click();
    await expect.poll(() => input('标题').inputValue()).toBe('按钮填入的标题');
    await expect.poll(() => page.getByText('已填入标题').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: '提交', exact: true }).click();
    await page.waitForURL(/\/form\/open\/quote\/[0-9a-f-]{36}/);
    const objectId = new URL(page.url()).pathname.split('/').at(-1)!;
    const saved = await api<{ values: Record<string, unknown> }>(admin, 'POST', '/v1/form/loaddata', { schemaCode: 'quote', objectId });
    expect(saved.values.Title).toBe('按钮填入的标题');
    await screenshot(page, 'browser-script-3-saved');
  });

  it('stops a handler that never ends, and the form keeps working', async () => {
    await page.goto('/form/open/quote');
    await expect.poll(() => input('探测结果').inputValue(), { timeout: 20_000 }).not.toBe('');
    await page.getByRole('button', { name: '死循环', exact: true }).click();
    await expect.poll(() => page.getByText('表单脚本运行超过 2 秒，已停止并重新加载').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    // A fresh sandbox took the script again: the buttons work.
    await page.getByRole('button', { name: '填入标题', exact: true }).click();
    await expect.poll(() => input('标题').inputValue()).toBe('按钮填入的标题');
    await input('备注').fill('仍可输入');
    expect(await input('备注').inputValue()).toBe('仍可输入');
  });
});
