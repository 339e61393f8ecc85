import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import path from 'node:path';
import { SCREENSHOT_DIR, screenshot } from './browser.ts';
import { api as callAs, appWithPublishedForm, baseUrl, engineWithAdmin, pageOf, until, type Admin } from './fixtures.ts';

/**
 * Issue 8, must show: a view built with a filter, a sort and a statistic over 10,000 records, saved as a personal
 * view and opened again, scrolled smoothly (the virtual table), and a few rows edited in a batch; screenshots.
 */
let page: Page;
let admin: Admin;
const api = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => callAs<T>(admin, method, path, body);
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 30_000 });

const COUNT = 10_000;
const FINAL_STATES = ['Finished', 'Failed', 'Canceled', 'Timeout'];
const REGIONS = ['华东', '华南', '华北', '西南'];
const record = (i: number) => ({ Title: `订单${String(i + 1).padStart(5, '0')}`, Amount: (i * 37) % 1000, Region: REGIONS[i % 4] });
/** Records of 华东 and their amounts' sum: what the filtered view must count and total. */
const EAST = Array.from({ length: COUNT }, (_, i) => record(i)).filter((r) => r.Region === '华东');
const EAST_SUM = EAST.reduce((sum, r) => sum + r.Amount, 0);

/**
 * 10,000 records in one go: a .csv of them imported as effective records (the import job writes them in batches of
 * 500, about ten times faster than the open API's record-by-record CreateBizObjects).
 */
async function insertRecords() {
  const csv = ['Title,Amount,Region', ...Array.from({ length: COUNT }, (_, i) => record(i)).map((r) => `${r.Title},${r.Amount},${r.Region}`)].join('\n');
  const uploaded = await fetch(`${baseUrl()}/v1/file/upload?scene=gridImportFile&fileName=orders.csv`, {
    method: 'POST',
    headers: { 'Content-Type': 'text/csv', Authorization: `Bearer ${admin.token}`, EngineCode: admin.engineCode },
    body: csv,
  });
  const file = (await uploaded.json()) as { successful: boolean; data: { fileId: string }; errorMessage?: string };
  expect(file.successful, file.errorMessage ?? '').toBe(true);
  const { taskId } = await api<{ taskId: string }>('POST', '/v1/dataImport/addImportTask', { schemaCode: 'orders', fileId: file.data.fileId, importType: 'InsertOnly', dataState: 'Effective' });
  const task = () => api<{ list: { state: string; inserted: number; rejected: number }[] }>('POST', '/v1/dataPort/LoadTaskRecords', { TaskIds: [taskId] }).then((r) => r.list[0]);
  const done = await until('the import of 10,000 records', task, (t) => !!t && FINAL_STATES.includes(t.state), { timeoutMs: 300_000, intervalMs: 500 });
  expect(done).toMatchObject({ state: 'Finished', inserted: COUNT, rejected: 0 });
}

const pick = (text: string) => page.locator('.ant-select-dropdown:visible .ant-select-item-option').getByText(text, { exact: true }).last().click();
const total = () => page.locator('.ant-pagination-total-text').textContent();

beforeAll(async () => {
  admin = await engineWithAdmin({ userName: '周宁', engineName: '长风商贸有限公司' });
  await appWithPublishedForm(admin, {
    app: { code: 'sales', displayName: '销售管理' },
    form: { code: 'orders', displayName: '销售订单' },
    attributes: { nameSchema: '{Title}' },
    controls: [
      { type: 'textBox', code: 'Title', options: { displayName: '订单名称' } },
      { type: 'number', code: 'Amount', options: { displayName: '金额', decimalPlaces: 0 } },
      { type: 'dropDown', code: 'Region', options: { displayName: '区域', defaultItems: REGIONS } },
    ],
  });
  await insertRecords();
  page = await pageOf(admin, { width: 1440, height: 900 });
}, 420_000);

describe('list views in the browser', () => {
  it('designs the view: a statistic on the amount and compact rows', async () => {
    await page.goto('/workbench/app/sales/orders');
    await eventually(total).toBe(`共 ${COUNT} 条`);
    await page.getByRole('button', { name: /设计视图/ }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: '设计视图' });
    await dialog.getByLabel('视图名称').fill('全部订单');
    await dialog.getByLabel('列统计').click();
    await pick('金额 · 合计');
    // The list of statistics closes when another field takes the focus (an Escape pressed while a loaded machine
    // still draws the list could reach the dialog instead and close it).
    await dialog.getByLabel('视图名称').click();
    await eventually(() => page.locator('.ant-select-dropdown:visible').count()).toBe(0);
    await dialog.getByText('紧凑 36').click();
    await screenshot(page, 'list-view-designer');
    await dialog.getByRole('button', { name: /保\s*存/ }).click();
    await dialog.waitFor({ state: 'hidden' });
    await eventually(() => page.getByRole('tab', { name: '全部订单' }).count()).toBe(1);
    await eventually(() => page.getByText(/合计 \d+/).count()).toBe(1);
  });

  it('filters to one region, sorts by amount and shows the total of what is filtered', async () => {
    await page.getByRole('button', { name: /筛\s*选/ }).first().click();
    const panel = page.getByRole('group', { name: '筛选' });
    await panel.getByRole('button', { name: /添加条件/ }).click();
    await panel.getByLabel('第1个条件的字段').click();
    await pick('区域');
    await panel.getByLabel('第1个条件的值').click();
    await pick('华东');
    await panel.getByRole('button', { name: /^筛\s*选$/ }).click();
    await eventually(total).toBe(`共 ${EAST.length} 条`);
    await eventually(() => page.getByText(`合计 ${EAST_SUM}`).count()).toBe(1);
    await page.getByRole('columnheader', { name: '金额' }).click();
    // The smallest amount first: the 金额 cell of the first row (after the check box, the title and the name).
    await eventually(() => page.locator('.ant-table-row').first().locator('td').nth(3).textContent()).toBe('0');
    await screenshot(page, 'list-view-filtered');
  });

  it('saves it as a personal view and opens it again after a reload', async () => {
    await page.getByRole('button', { name: /另存为视图/ }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: '另存为视图' });
    await dialog.getByLabel('视图名称').fill('华东订单');
    await dialog.getByRole('button', { name: /确\s*定|OK/ }).click();
    await eventually(() => page.getByRole('tab', { name: /华东订单/ }).count()).toBe(1);
    await page.reload();
    await eventually(total).toBe(`共 ${COUNT} 条`);
    const tab = page.getByRole('tab', { name: /华东订单/ });
    await tab.click();
    // The tab is taken first (a failure here is the click, below it the query).
    await eventually(() => tab.getAttribute('aria-selected')).toBe('true');
    await eventually(total).toBe(`共 ${EAST.length} 条`);
    await eventually(() => page.getByText(`合计 ${EAST_SUM}`).count()).toBe(1);
  });

  it('shows 500 rows a page and scrolls them virtually', async () => {
    await page.goto('/workbench/app/sales/orders');
    await eventually(total).toBe(`共 ${COUNT} 条`);
    await page.locator('.ant-pagination-options .ant-select').click();
    await pick('500 条/页');
    await eventually(() => page.locator('.ant-table-tbody-virtual').count()).toBe(1);
    // Only the rows in sight are drawn, not the 500 of the page.
    const drawn = await page.locator('.ant-table-row').count();
    expect(drawn).toBeLessThan(100);
    // Virtual rows are drawn as blocks of cells: the title is the second cell (after the check box).
    const firstDrawn = () => page.locator('.ant-table-row').first().locator('.ant-table-cell').nth(1).textContent();
    const before = await firstDrawn();
    await screenshot(page, 'list-view-virtual-top');
    const holder = page.locator('.ant-table-tbody-virtual-holder');
    await holder.hover();
    for (let i = 0; i < 12; i++) await page.mouse.wheel(0, 600);
    await eventually(() => holder.evaluate((el) => el.scrollTop)).toBeGreaterThan(3000);
    await eventually(firstDrawn).not.toBe(before);
    expect(await page.locator('.ant-table-row').count()).toBeLessThan(100);
    // The viewport as it is (a full-page capture would resize the window and redraw the list).
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, 'list-view-virtual-scrolled.png') });
  });

  it('edits a few selected rows in a batch job with progress', async () => {
    await page.locator('.ant-pagination-options .ant-select').click();
    await pick('20 条/页');
    await eventually(() => page.locator('.ant-table-row').count()).toBe(20);
    const rows = page.locator('.ant-table-row');
    for (let i = 0; i < 3; i++) await rows.nth(i).getByRole('checkbox').check();
    await page.getByRole('button', { name: /批量修改/ }).click();
    const dialog = page.getByRole('dialog').filter({ hasText: '批量修改' });
    await dialog.getByLabel('要修改的字段').click();
    await pick('订单名称');
    await dialog.getByLabel('修改为').fill('已批量修改');
    await dialog.getByRole('button', { name: '开始修改' }).click();
    await eventually(() => dialog.getByText('已修改 3 条，0 条未能修改').count()).toBe(1);
    await screenshot(page, 'list-view-batch-edit');
    await dialog.getByRole('button', { name: /完\s*成/ }).click();
    await eventually(() => page.locator('.ant-table-row').filter({ hasText: '已批量修改' }).count()).toBe(3);
    const changed = await api<{ total: number }>('POST', '/v1/bizdata/view/query', { schemaCode: 'orders', filter: { field: 'Title', operator: 'Equal', value: '已批量修改' }, pageIndex: 0, pageSize: 1 });
    expect(changed.total).toBe(3);
  });
});
