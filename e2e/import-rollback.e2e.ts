import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import ExcelJS from 'exceljs';
import { launchBrowser, screenshot } from './browser.ts';
import { call, registerEngine, signedInPage, type Admin } from './session.ts';

/**
 * Issue 17 (docs/decisions/0031): an import is rolled back from the history page — 回滚, the confirmation, the roll
 * back's progress while the page polls, then its state and counts; the records it created are gone and the one it
 * updated has its values and sub-table rows back. Screenshots of each step.
 */
let browser: Browser;
let page: Page;
let admin: Admin;
const baseUrl = () => inject('baseUrl');
const stamp = String(Date.now()).slice(-7);
const api = <T>(method: 'GET' | 'POST', p: string, body?: unknown) => call<T>(baseUrl(), admin, method, p, body);
const ROWS = 1000;

beforeAll(async () => {
  browser = await launchBrowser();
  admin = await registerEngine(baseUrl(), `1395${stamp}`, '周敏', '青禾商贸有限公司');
  await api('POST', '/v1/functionnode', { nodeType: 190, code: 'stock', displayName: '库存管理' });
  await api('POST', '/v1/functionnode', { nodeType: 200, code: 'goods', appCode: 'stock', displayName: '商品' });
  const loaded = await api<{ draft: { version: number } }>('POST', '/v1/formdesign/load', { schemaCode: 'goods' });
  const definition = {
    attributes: { displayName: '商品' },
    controls: [
      { type: 'textBox', code: 'Sku', options: { displayName: '货号' } },
      { type: 'number', code: 'Price', options: { displayName: '单价' } },
      { type: 'gridView', code: 'Specs', options: { displayName: '规格' }, controls: [{ type: 'textBox', code: 'Spec', options: { displayName: '规格名' } }] },
    ],
  };
  const saved = await api<{ version: number }>('POST', '/v1/formdesign/save', { schemaCode: 'goods', baseVersion: loaded.draft.version, definition });
  await api('POST', '/v1/formdesign/publish', { schemaCode: 'goods', version: saved.version, confirm: [] });
  page = await signedInPage(browser, baseUrl(), admin, { width: 1440, height: 900 });
});
afterAll(async () => {
  await browser?.close();
});

describe('rolling back an import in the browser', () => {
  it('回滚 from the history: confirmation, progress, then the state; the form is as it was', async () => {
    const kept = await api<{ objectId: string }>('POST', '/v1/form/action/execute', { schemaCode: 'goods', actionCode: 'Save', values: { Sku: 'G00000', Price: 12 }, children: { Specs: [{ Spec: '红色' }, { Spec: '蓝色' }] } });
    const book = new ExcelJS.Workbook();
    const sheet = book.addWorksheet('商品');
    sheet.addRow(['货号', '单价', '规格.规格名']);
    for (let i = 0; i < ROWS; i++) sheet.addRow([`G${String(i).padStart(5, '0')}`, 100 + i, i === 0 ? '绿色' : null]);
    const bytes = Buffer.from(await book.xlsx.writeBuffer());
    const uploaded = (await (await fetch(`${baseUrl()}/v1/file/upload?scene=gridImportFile&fileName=${encodeURIComponent('商品.xlsx')}`, {
      method: 'POST', headers: { Authorization: `Bearer ${admin.token}`, EngineCode: admin.engineCode, 'Content-Type': 'application/octet-stream' }, body: bytes,
    })).json()) as { data: { fileId: string } };
    const { taskId } = await api<{ taskId: string }>('POST', '/v1/dataImport/addImportTask', { schemaCode: 'goods', fileId: uploaded.data.fileId, importType: 'Upsert', keyField: 'Sku' });

    // The embedded database is busy while the import runs: the page opens once it has finished.
    const stateOf = async () => (await api<{ list: { state: string }[] }>('POST', '/v1/dataPort/LoadTaskRecords', { TaskIds: [taskId] })).list[0]?.state;
    await expect.poll(stateOf, { timeout: 120_000, interval: 1000 }).toBe('Finished');
    await page.goto('/workbench/data-port?schemaCode=goods');
    await expect.poll(() => page.getByText('已完成').first().isVisible(), { timeout: 30_000 }).toBe(true);
    const count = async () => (await api<{ total: number }>('POST', '/v1/bizdata/query', { schemaCode: 'goods', pageIndex: 0, pageSize: 1 })).total;
    expect(await count()).toBe(ROWS);
    await screenshot(page, 'import-rollback-1-history');

    await page.getByRole('button', { name: /回\s*滚/ }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: '回滚这次导入？' });
    await expect.poll(() => confirm.getByText(/导入后又被他人修改或处理过的数据不会回滚/).isVisible(), { timeout: 10_000 }).toBe(true);
    await screenshot(page, 'import-rollback-2-confirm');
    // Rolling back 1,000 records takes less than one poll: for the screenshot of the progress bar, the answers of
    // LoadTaskRecords show the roll back as running at 46% until the screenshot is taken (staged in the browser only;
    // the live stream's job events make the page ask again at any moment, so no fixed number of answers will do).
    let staging = true;
    await page.route('**/v1/dataPort/LoadTaskRecords', async (route) => {
      const response = await route.fetch();
      const body = await response.json();
      const task = body.data?.list?.[0];
      if (task?.rollback && staging) task.rollback = { ...task.rollback, state: 'Running', progress: 46, finishedTime: null };
      await route.fulfill({ response, json: body });
    });
    await confirm.getByRole('button', { name: /回\s*滚/ }).click();
    await expect.poll(() => page.getByLabel('回滚进度').isVisible(), { timeout: 15_000 }).toBe(true);
    await expect.poll(() => page.getByText('回滚中').isVisible()).toBe(true);
    await screenshot(page, 'import-rollback-3-progress');
    staging = false;
    // Waits for an answer still being staged: unrouted under it, its fulfil would meet a request already passed on.
    await page.unrouteAll({ behavior: 'wait' });
    await expect.poll(() => page.getByText('已回滚').isVisible(), { timeout: 60_000 }).toBe(true);
    await expect.poll(() => page.getByText(`删除 ${ROWS - 1} / 恢复 1 / 未回滚 0`).isVisible()).toBe(true);
    expect(await page.getByRole('button', { name: /^回\s*滚$/ }).count()).toBe(0);
    await screenshot(page, 'import-rollback-4-done');

    expect(await count()).toBe(1);
    const back = await api<{ values: { Price: number }; children: { Specs: { Spec: string }[] } }>('POST', '/v1/form/loaddata', { schemaCode: 'goods', objectId: kept.objectId });
    expect(back.values.Price).toBe(12);
    expect(back.children.Specs.map((s) => s.Spec)).toEqual(['红色', '蓝色']);
    const again = await fetch(`${baseUrl()}/v1/dataPort/RollbackImportTask`, { method: 'POST', headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${admin.token}`, EngineCode: admin.engineCode }, body: JSON.stringify({ TaskId: taskId }) });
    expect(await again.json()).toMatchObject({ successful: false, errorCode: 300102 });
  }, 180_000);
});
