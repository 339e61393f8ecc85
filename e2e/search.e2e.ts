import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './browser.ts';
import { api, appWithPublishedForm, engineWithAdmin, memberPage, pageOf, type Admin } from './fixtures.ts';

/**
 * Issue 20, full-text search in the browser: Ctrl+K opens the top bar's search, a Chinese word is found inside a
 * record's text with the match marked, Enter opens the record; a member with "own records, notes hidden" finds neither
 * the administrator's records nor the hidden text.
 */
let admin: Admin;
let adminPage: Page;
let memberView: Page;

beforeAll(async () => {
  admin = await engineWithAdmin({ userName: '林舟', engineName: '青石贸易有限公司' });
  await appWithPublishedForm(admin, {
    app: { code: 'crm', displayName: '客户管理' },
    form: { code: 'follow', displayName: '客户跟进' },
    attributes: { nameSchema: '{Title}' },
    controls: [
      { type: 'textBox', code: 'Title', options: { displayName: '主题' } },
      { type: 'textArea', code: 'Notes', options: { displayName: '跟进记录' } },
      { type: 'radioList', code: 'Level', options: { displayName: '紧急程度', defaultItems: ['紧急处理', '普通'] } },
    ],
  });
  let member: Admin & { userId: string };
  ({ member, page: memberView } = await memberPage(admin, '韩梅'));
  await api(admin, 'POST', '/v1/functionnode/auth/set', { code: 'crm', unitId: member.userId, permission: 'access' });
  const submit = (who: Admin, values: Record<string, unknown>) => api(who, 'POST', '/v1/form/action/execute', { schemaCode: 'follow', actionCode: 'Submit', values });
  await submit(admin, { Title: '杭州西湖区客户拜访', Notes: '客户计划下季度扩大采购规模，希望我们给出阶梯报价', Level: '紧急处理' });
  await submit(admin, { Title: '宁波客户回访', Notes: '交付顺利，客户满意', Level: '普通' });
  await submit(member, { Title: '苏州客户首访', Notes: '客户关注阶梯报价的细则', Level: '普通' });
  // Then the member is limited to their own records, and the notes are hidden from them.
  await api(admin, 'POST', '/v1/form/permission/group/save', {
    schemaCode: 'follow',
    group: { name: '业务员', members: { users: [member.userId] }, actions: ['view', 'create', 'edit'], viewScope: 'own', editScope: 'own', fieldRights: { Notes: 'hidden' } },
  });
  adminPage = await pageOf(admin);
});

const box = (page: Page) => page.getByRole('combobox', { name: '搜索关键字' });
const results = (page: Page) => page.getByRole('listbox', { name: '搜索结果' }).getByRole('option');

describe('full-text search in the browser', () => {
  it('Ctrl+K opens the search; a word inside a record is found, marked, and Enter opens the record', async () => {
    await adminPage.goto('/workbench');
    await adminPage.getByRole('button', { name: '全局搜索' }).waitFor();
    await adminPage.keyboard.press('Control+k');
    await box(adminPage).fill('阶梯报价');
    await expect.poll(() => results(adminPage).count()).toBe(2);
    await expect.poll(() => adminPage.locator('mark').first().textContent()).toBe('阶梯报价');
    expect(await adminPage.getByText('数据 · 客户管理 / 客户跟进').count()).toBe(1);
    await screenshot(adminPage, 'search-1-records');
    await box(adminPage).fill('客户跟进');
    await expect.poll(() => results(adminPage).first().getAttribute('aria-label')).toBe('客户跟进');
    await box(adminPage).fill('西湖');
    await expect.poll(() => results(adminPage).count()).toBe(1);
    await adminPage.keyboard.press('Enter');
    await adminPage.waitForURL('**/form/open/follow/**');
    await adminPage.getByRole('form', { name: '客户跟进' }).getByText('跟进记录').waitFor();
  });

  it('a member finds only their own records and never the text of a hidden field', async () => {
    await memberView.goto('/workbench');
    await memberView.getByRole('button', { name: '全局搜索' }).click();
    await box(memberView).fill('客户');
    const labels = async () => Promise.all((await results(memberView).all()).map((o) => o.getAttribute('aria-label')));
    // The app and the form by name first, then the one record of theirs.
    await expect.poll(labels).toEqual(['客户管理', '客户跟进', expect.stringContaining('苏州客户首访')]);
    await box(memberView).fill('阶梯报价');
    await expect.poll(() => memberView.getByText('没有找到与“阶梯报价”相关的内容').count()).toBe(1);
    await screenshot(memberView, 'search-2-member-nothing');
    await memberView.keyboard.press('Escape');
    await expect.poll(() => box(memberView).count()).toBe(0);
  });

  it('on a phone the home page searches records as well as apps and forms', async () => {
    const phone = await pageOf(admin, { width: 390, height: 844 });
    await phone.goto('/workbench');
    await phone.getByRole('button', { name: '全局搜索' }).click();
    await box(phone).fill('西湖');
    await expect.poll(() => results(phone).count()).toBe(1);
    await expect.poll(() => phone.locator('mark').first().textContent()).toBe('西湖');
    await screenshot(phone, 'search-3-phone');
    await phone.close();
  });
});
