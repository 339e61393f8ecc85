import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, screenshot } from './browser.ts';
import { api as callAs, appWithForms, baseUrl, browser, engineWithAdmin, pageOf, publish as publishAs, until, type Admin } from './fixtures.ts';

/**
 * Public fill-in links (issue 19, ExternalForm) in the browser: the administrator turns on 公开填报 in the designer
 * with a password and an owner; an anonymous visitor (no session) opens the link, gives the password, fills the form
 * and submits; the record is stored as the owner.
 */
let page: Page;
let admin: Admin;
const api = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => callAs<T>(admin, method, path, body);

beforeAll(async () => {
  admin = await engineWithAdmin({ userName: '沈报名', engineName: '云栖会展有限公司' });
  await appWithForms(admin, { code: 'events', displayName: '活动管理' }, [{ code: 'signup', displayName: '活动报名' }]);
  await publishAs(admin, 'signup', {
    attributes: { displayName: '年会报名' },
    controls: [
      { type: 'textBox', code: 'Guest', options: { displayName: '姓名', required: true } },
      { type: 'number', code: 'Seats', options: { displayName: '人数' } },
      { type: 'radioList', code: 'Meal', options: { displayName: '餐食', defaultItems: ['常规', '素食'] } },
      { type: 'user', code: 'Host', options: { displayName: '接待人' } },
    ],
  });
  page = await pageOf(admin, { width: 1440, height: 900 });
});

describe('public fill-in links in the browser', () => {
  it('the administrator opens a link with a password; a visitor without an account fills and submits it', async () => {
    await page.goto('/form/designer?schemaCode=signup');
    await page.getByRole('button', { name: /公开填报/ }).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByLabel('数据归属人').click();
    const picker = page.getByRole('dialog').last();
    await picker.getByLabel('搜索', { exact: true }).fill('沈报名');
    await picker.getByRole('group', { name: '搜索结果' }).getByRole('checkbox', { name: /^沈报名/ }).check();
    await picker.getByRole('button', { name: '确定' }).click();
    await drawer.getByLabel('访问密码').fill('nian-hui');
    await drawer.getByRole('button', { name: '保存设置' }).click();
    const link = await until('the link', () => api<{ link: { path: string } | null }>('POST', '/v1/form/externalform/get', { schemaCode: 'signup' }), (r) => r.link !== null);
    await expect.poll(() => drawer.getByLabel('填报链接').inputValue(), { timeout: 15_000 }).toContain(link.link!.path);
    await screenshot(page, 'external-form-settings');

    const visitor = await newPage(await browser(), baseUrl(), { width: 390, height: 844 });
    await visitor.goto(link.link!.path);
    await visitor.getByLabel('访问密码').fill('wrong');
    await visitor.getByRole('button', { name: /进\s*入/ }).click();
    await expect.poll(() => visitor.getByText('访问密码不正确').count(), { timeout: 15_000 }).toBe(1);
    await visitor.getByLabel('访问密码').fill('nian-hui');
    await visitor.getByRole('button', { name: /进\s*入/ }).click();
    const form = visitor.getByRole('form', { name: '年会报名' });
    await form.waitFor();
    expect(await form.getByText('接待人').count()).toBe(0);
    await form.getByRole('button', { name: /提\s*交/ }).click();
    await expect.poll(() => visitor.getByText('请填写姓名').count(), { timeout: 10_000 }).toBe(1);
    await form.getByLabel('姓名').fill('陆嘉宾');
    await form.getByLabel('人数').fill('2');
    await form.getByText('素食').click();
    await screenshot(visitor, 'external-form-visitor');
    await form.getByRole('button', { name: /提\s*交/ }).click();
    await expect.poll(() => visitor.getByText('提交成功，感谢填写！').count(), { timeout: 15_000 }).toBe(1);
    const stored = (await api<{ list: Record<string, unknown>[] }>('POST', '/v1/bizdata/query', { schemaCode: 'signup', pageIndex: 0, pageSize: 10 })).list;
    expect(stored.map((r) => [r.Guest, r.Seats, r.Meal])).toEqual([['陆嘉宾', 2, '素食']]);
    await visitor.close();
  });

  it('a member shares a record read-only with a password; a visitor sees it at phone width; stopping the share refuses it at once', async () => {
    const stored = (await api<{ list: { ObjectId: string }[] }>('POST', '/v1/bizdata/query', { schemaCode: 'signup', pageIndex: 0, pageSize: 10 })).list;
    const objectId = stored[0]!.ObjectId;
    await page.goto(`/form/open/signup/${objectId}`);
    await page.getByRole('button', { name: /^分\s*享$/ }).click();
    const modal = page.getByRole('dialog', { name: '分享这条数据' });
    await modal.getByLabel('访问密码').fill('share-1');
    await modal.getByRole('button', { name: '生成分享链接' }).click();
    type Shares = { shares: { id: string; path: string }[] };
    const { shares } = await until('the share', () => api<Shares>('POST', '/v1/form/externalshare/list', { schemaCode: 'signup', objectId }), (r) => r.shares.length === 1);
    await modal.getByText(shares[0]!.path, { exact: false }).waitFor();
    await screenshot(page, 'record-share-modal');

    const visitor = await newPage(await browser(), baseUrl(), { width: 390, height: 844 });
    await visitor.goto(shares[0]!.path);
    await visitor.getByLabel('访问密码').fill('share-1');
    await visitor.getByRole('button', { name: /进\s*入/ }).click();
    await visitor.getByText('只读分享').waitFor();
    expect(await visitor.getByText('陆嘉宾').count()).toBeGreaterThan(0);
    expect(await visitor.getByRole('textbox').count()).toBe(0);
    await screenshot(visitor, 'record-share-visitor');

    await modal.getByRole('button', { name: '取消分享' }).click();
    await page.getByRole('tooltip').getByRole('button', { name: '取消分享' }).click();
    await until('the share revoked', () => api<Shares>('POST', '/v1/form/externalshare/list', { schemaCode: 'signup', objectId }), (r) => r.shares.length === 0);
    await visitor.reload();
    await expect.poll(() => visitor.getByText('链接不存在或已失效').count(), { timeout: 15_000 }).toBe(1);
    await visitor.close();
  });

  it('the administrator sets up a password query page; a visitor finds a record by its exact value and sees the result fields only', async () => {
    await page.goto('/form/designer?schemaCode=signup');
    await page.getByRole('button', { name: /公开填报/ }).click();
    const drawer = page.getByRole('dialog');
    await drawer.getByRole('tab', { name: '公开查询' }).click();
    const panel = drawer.getByRole('tabpanel');
    await panel.getByText('密码', { exact: true }).click();
    await panel.getByLabel('访问密码').fill('cha-xun');
    const choose = async (label: string, option: string) => {
      await panel.getByLabel(label).click();
      await page.locator(`.ant-select-dropdown:visible .ant-select-item-option[title="${option}"]`).click();
      await page.keyboard.press('Escape');
    };
    await choose('查询字段', '姓名');
    await choose('结果字段', '姓名');
    await choose('结果字段', '餐食');
    await panel.getByLabel('查询身份').click();
    const picker = page.getByRole('dialog').last();
    await picker.getByLabel('搜索', { exact: true }).fill('沈报名');
    await picker.getByRole('group', { name: '搜索结果' }).getByRole('checkbox', { name: /^沈报名/ }).check();
    await picker.getByRole('button', { name: '确定' }).click();
    await panel.getByRole('button', { name: '保存设置' }).click();
    const saved = await until('the query page', () => api<{ query: { path: string; queryFields: string[] } | null }>('POST', '/v1/form/openquery/get', { schemaCode: 'signup' }), (r) => r.query !== null);
    expect(saved.query!.queryFields).toEqual(['Guest']);
    await screenshot(page, 'open-query-settings');

    const visitor = await newPage(await browser(), baseUrl(), { width: 390, height: 844 });
    await visitor.goto(saved.query!.path);
    await visitor.getByLabel('访问密码').fill('cha-xun');
    await visitor.getByRole('button', { name: /进\s*入/ }).click();
    await visitor.getByLabel('姓名').fill('陆嘉');
    await visitor.getByRole('button', { name: /查\s*询/ }).click();
    await visitor.getByText('没有找到符合条件的数据').waitFor();
    await visitor.getByLabel('姓名').fill('陆嘉宾');
    await visitor.getByRole('button', { name: /查\s*询/ }).click();
    const table = visitor.getByRole('table');
    await table.getByText('素食').waitFor();
    expect(await table.getByText('人数').count()).toBe(0);
    await screenshot(visitor, 'open-query-visitor');
    await visitor.close();
  });
});
