import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import ExcelJS from 'exceljs';
import { downloaded, launchBrowser, screenshot } from './browser.ts';
import { call, registerEngine, signedInPage, type Admin } from './session.ts';

/**
 * Issue 10, second part (docs/decisions/0020): an export from a designed list view follows its filter and columns;
 * the import and export history is a page of its own (from the list's toolbar and from the user menu) that pages
 * and filters; rows copied from a spreadsheet are pasted into a sub-table. Screenshots of each.
 */
let browser: Browser;
let page: Page;
let admin: Admin;
const baseUrl = () => inject('baseUrl');
const stamp = String(Date.now()).slice(-7);
const api = <T>(method: 'GET' | 'POST', p: string, body?: unknown) => call<T>(baseUrl(), admin, method, p, body);

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await registerEngine(baseUrl(), `1394${stamp}`, '陈静', '云杉贸易有限公司');
  await api('POST', '/v1/functionnode', { nodeType: 190, code: 'trade', displayName: '贸易管理' });
  await api('POST', '/v1/functionnode', { nodeType: 200, code: 'deals', appCode: 'trade', displayName: '订单' });
  const loaded = await api<{ draft: { version: number } }>('POST', '/v1/formdesign/load', { schemaCode: 'deals' });
  const definition = {
    attributes: { displayName: '订单' },
    controls: [
      { type: 'textBox', code: 'Client', options: { displayName: '客户' } },
      { type: 'number', code: 'Total', options: { displayName: '金额', decimalPlaces: 2 } },
      { type: 'textBox', code: 'Note', options: { displayName: '备注' } },
      {
        type: 'gridView', code: 'Lines', options: { displayName: '明细' },
        controls: [
          { type: 'textBox', code: 'Goods', options: { displayName: '品名' } },
          { type: 'number', code: 'Qty', options: { displayName: '数量' } },
          { type: 'dateTime', code: 'Due', options: { displayName: '交期' } },
        ],
      },
    ],
  };
  const saved = await api<{ version: number }>('POST', '/v1/formdesign/save', { schemaCode: 'deals', baseVersion: loaded.draft.version, definition });
  await api('POST', '/v1/formdesign/publish', { schemaCode: 'deals', version: saved.version, confirm: [] });
  await api('POST', '/v1/view/designer/save', {
    schemaCode: 'deals',
    views: [
      { code: 'Big', title: '大单', scope: 3, columns: [{ field: 'Client' }, { field: 'Total' }], filter: { field: 'Total', operator: 'NotBelow', value: 1000 }, quickSearch: ['Client'], sort: [{ field: 'Total', direction: 'desc' }] },
      { code: 'All', title: '全部订单', scope: 3, columns: [{ field: 'Client' }, { field: 'Total' }, { field: 'Note' }] },
    ],
  });
  for (const [client, total] of [['北辰物流', 5200], ['东岳机械', 800], ['南溪食品', 12000]] as const) {
    await api('POST', '/v1/form/action/execute', { schemaCode: 'deals', actionCode: 'Submit', values: { Client: client, Total: total, Note: '年度合同' } });
  }
  page = await signedInPage(browser, baseUrl(), admin, { width: 1440, height: 900 });
});
afterAll(async () => {
  await browser?.close();
});

describe('export by view, the history page and sub-table paste in the browser', () => {
  it("exports the open view's records and columns, then follows the task on the history page", async () => {
    await page.goto('/workbench/app/trade/deals');
    await expect.poll(() => page.getByText('南溪食品').first().isVisible(), { timeout: 20_000 }).toBe(true);
    await page.getByRole('button', { name: /导\s*出/ }).first().click();
    const exporter = page.getByRole('dialog').filter({ hasText: '导出数据 · 订单' });
    await expect.poll(() => exporter.getByText('按当前视图的筛选条件导出，默认勾选视图中的列').isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => exporter.getByRole('checkbox', { name: '客户' }).isChecked()).toBe(true);
    expect(await exporter.getByRole('checkbox', { name: '备注' }).isChecked()).toBe(false);
    await screenshot(page, 'data-port-history-1-export-by-view');
    await exporter.getByRole('button', { name: '开始导出' }).click();
    await expect.poll(() => exporter.getByText('导出完成，共 2 条').isVisible(), { timeout: 30_000 }).toBe(true);
    const [download] = await Promise.all([page.waitForEvent('download'), exporter.getByRole('button', { name: /下载文件/ }).click()]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await downloaded(download)) as unknown as ArrayBuffer);
    const rows: unknown[][] = [];
    book.worksheets[0]!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    expect(rows).toEqual([['客户', '金额'], ['南溪食品', 12000], ['北辰物流', 5200]]);
    await exporter.getByRole('button', { name: /关\s*闭/ }).last().click();

    // More tasks through the calls, so that the history has two pages of 20.
    for (let i = 0; i < 21; i++) await api('POST', '/v1/dataExport/addExportTask', { schemaCode: 'deals', columns: ['Client'] });
    await page.getByRole('button', { name: '导入导出记录' }).click();
    await expect.poll(() => page.url()).toContain('/workbench/data-port?schemaCode=deals');
    await expect.poll(() => page.getByText('共 22 条').isVisible(), { timeout: 20_000 }).toBe(true);
    await expect.poll(() => page.locator('.ant-table-row').count()).toBe(20);
    await expect.poll(() => page.getByText('已完成').count(), { timeout: 30_000 }).toBe(20);
    await screenshot(page, 'data-port-history-2-page');
    await page.locator('.ant-pagination-item-2').click();
    await expect.poll(() => page.locator('.ant-table-row').count()).toBe(2);
    await expect.poll(() => page.url()).toContain('page=2');
  }, 120_000);

  it('the history is reachable from the user menu, for every form, by type', async () => {
    await page.goto('/workbench');
    await page.getByRole('button', { name: /用户菜单|陈静/ }).click();
    await page.getByRole('menuitem', { name: '导入导出记录' }).click();
    await expect.poll(() => page.url()).toMatch(/\/workbench\/data-port$/);
    await expect.poll(() => page.getByText('共 22 条').isVisible(), { timeout: 20_000 }).toBe(true);
    await page.locator('.ant-segmented-item').filter({ hasText: '导入' }).click();
    await expect.poll(() => page.getByText('最近72小时没有导入导出任务').isVisible(), { timeout: 15_000 }).toBe(true);
    await screenshot(page, 'data-port-history-3-imports-empty');
  }, 60_000);

  it('pastes rows copied from a spreadsheet into a sub-table', async () => {
    await page.goto('/form/open/deals');
    const grid = page.getByRole('group', { name: '明细' });
    await expect.poll(() => grid.isVisible(), { timeout: 20_000 }).toBe(true);
    await grid.getByRole('button', { name: /新增行/ }).click();
    const text = '螺栓 M8\t200\t2026/12/1\n垫片\t1,500\t2026年12月5日\n"扳手\n(套装)"\t12\t\n';
    await grid.getByRole('textbox').first().evaluate((el, clip) => {
      const data = new DataTransfer();
      data.setData('text/plain', clip);
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, text);
    await expect.poll(() => grid.locator('.ant-table-row').count(), { timeout: 10_000 }).toBe(3);
    expect(await grid.getByRole('textbox').first().inputValue()).toBe('螺栓 M8');
    expect(await grid.getByRole('spinbutton').nth(1).inputValue()).toContain('1500');
    await screenshot(page, 'data-port-history-4-paste');
    const many = Array.from({ length: 201 }, (_, i) => `件${i}\t1`).join('\n');
    await grid.getByRole('textbox').first().evaluate((el, clip) => {
      const data = new DataTransfer();
      data.setData('text/plain', clip);
      el.dispatchEvent(new ClipboardEvent('paste', { clipboardData: data, bubbles: true, cancelable: true }));
    }, many);
    await expect.poll(() => page.getByText('一次最多粘贴200行、20列，请分批粘贴').isVisible(), { timeout: 10_000 }).toBe(true);
    expect(await grid.locator('.ant-table-row').count()).toBe(3);
  }, 60_000);
});
