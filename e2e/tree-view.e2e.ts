import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './browser.ts';
import { api as callAs, appWithPublishedForm, engineWithAdmin, pageOf, type Admin } from './fixtures.ts';

/**
 * Tree forms and the Hierarchy view (docs/decisions/0023), must show: a department form with tree display on, built
 * through the API three levels deep; its hierarchy view opened level by level in the browser, a child added under a
 * region, and the designer's view type, parent field and fixed filter; screenshots.
 */
let page: Page;
let admin: Admin;
const api = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => callAs<T>(admin, method, path, body);
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000 });

async function add(title: string, size: number, parent?: string): Promise<string> {
  const r = await api<{ objectId: string }>('POST', '/v1/form/action/execute', { schemaCode: 'depts', actionCode: 'Submit', values: { Title: title, Size: size, ...(parent ? { Parent: parent } : {}) } });
  return r.objectId;
}

const row = (title: string) => page.locator('.ant-table-row').filter({ has: page.getByText(title, { exact: true }) });
const expand = (title: string) => row(title).locator('.ant-table-row-expand-icon').click();

beforeAll(async () => {
  admin = await engineWithAdmin({ userName: '沈岚', engineName: '远航物流有限公司' });
  await appWithPublishedForm(admin, {
    app: { code: 'org', displayName: '组织管理' },
    form: { code: 'depts', displayName: '部门与区域' },
    attributes: { nameSchema: '{Title}', isTreeStructure: true, treeStructureControlCode: 'Parent' },
    controls: [
      { type: 'textBox', code: 'Title', options: { displayName: '名称' } },
      { type: 'number', code: 'Size', options: { displayName: '人数', decimalPlaces: 0 } },
      { type: 'associationQuery', code: 'Parent', options: { displayName: '上级', schemaCode: 'depts' } },
    ],
  });
  // Three levels: head office, regions, cities.
  const head = await add('总部', 120);
  const east = await add('华东区', 60, head);
  const south = await add('华南区', 35, head);
  await add('华北区', 25, head);
  await add('上海', 40, east);
  await add('杭州', 20, east);
  await add('广州', 35, south);
  await add('海外事业部', 8);
  const columns = [{ field: 'Title', width: 260 }, { field: 'Size' }, { field: 'CreatedTime', width: 170 }];
  await api('POST', '/v1/view/designer/save', {
    schemaCode: 'depts',
    views: [
      { code: 'Tree', title: '组织架构', mode: 6, parentField: 'Parent', columns, sort: [{ field: 'Size', direction: 'desc' }], actions: [{ code: 'Create', title: '新增', type: 'Create' }] },
      { code: 'All', title: '全部数据', columns: [...columns, { field: 'Parent' }] },
    ],
  });
  page = await pageOf(admin, { width: 1440, height: 900 });
}, 120_000);

describe('the hierarchy view in the browser', () => {
  it('opens the roots and expands two levels', async () => {
    await page.goto('/workbench/app/org/depts');
    await eventually(() => row('总部').count()).toBe(1);
    await eventually(() => page.locator('.ant-pagination-total-text').textContent()).toBe('共2条顶级数据，视图共8条');
    await expand('总部');
    await eventually(() => row('华东区').count()).toBe(1);
    expect(await row('华南区').count()).toBe(1);
    await expand('华东区');
    await eventually(() => row('上海').count()).toBe(1);
    expect(await row('杭州').count()).toBe(1);
    await screenshot(page, 'tree-view-expanded');
  });

  it('adds a child under a region, which shows under it at once', async () => {
    await row('华南区').getByRole('button', { name: /添加下级/ }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: '添加下级数据' });
    await dialog.getByText('上级：华南区').waitFor();
    await dialog.getByLabel('名称').fill('深圳');
    await dialog.getByLabel('人数').fill('18');
    await screenshot(page, 'tree-view-add-child');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await dialog.waitFor({ state: 'hidden' });
    await eventually(() => row('深圳').count()).toBe(1);
    expect(await row('广州').count()).toBe(1);
    await screenshot(page, 'tree-view-child-added');
  });

  it('shows the view type, the parent field and the fixed filter in the view designer', async () => {
    await page.getByRole('button', { name: /设计视图/ }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: '设计视图' });
    await dialog.getByLabel('上级字段').waitFor();
    await screenshot(page, 'tree-view-designer-mode');
    const filter = dialog.getByRole('group', { name: '固定筛选条件' });
    await filter.getByRole('button', { name: /添加条件/ }).click();
    await filter.getByLabel('第1个条件的字段').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').getByText('人数', { exact: true }).last().click();
    await filter.getByLabel('第1个条件的比较方式').click();
    await page.locator('.ant-select-dropdown:visible .ant-select-item-option').getByText('大于', { exact: true }).last().click();
    await filter.getByLabel('第1个条件的值').fill('10');
    await filter.scrollIntoViewIfNeeded();
    await screenshot(page, 'tree-view-designer-filter');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await dialog.waitFor({ state: 'hidden' });
    // The fixed filter narrows every level: 海外事业部 (8) goes, 总部 stays.
    await eventually(() => page.locator('.ant-pagination-total-text').textContent()).toBe('共1条顶级数据，视图共8条');
    expect(await row('海外事业部').count()).toBe(0);
  });
});
