import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import ExcelJS from 'exceljs';
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { downloaded, screenshot } from './browser.ts';
import { api, appWithPublishedForm, engineWithAdmin, pageOf, until, type Admin } from './fixtures.ts';

/**
 * Issue 10 (docs/decisions/0020): import a small file through the wizard from a form's list (one row refused), read
 * the error report, then export the records and download the workbook; screenshots of each step.
 */
let page: Page;
let admin: Admin;
const dir = mkdtempSync(path.join(os.tmpdir(), 'tritium-e2e-port-'));

async function sheet(rows: unknown[][]): Promise<string> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('数据');
  for (const r of rows) ws.addRow(r);
  const file = path.join(dir, '客户导入.xlsx');
  writeFileSync(file, Buffer.from(await wb.xlsx.writeBuffer()));
  return file;
}

beforeAll(async () => {
  admin = await engineWithAdmin({ userName: '周敏', engineName: '明川商贸有限公司' });
  await appWithPublishedForm(admin, {
    app: { code: 'sales', displayName: '销售管理' },
    form: { code: 'clients', displayName: '客户' },
    controls: [
      { type: 'textBox', code: 'CName', options: { displayName: '客户名称', required: true } },
      { type: 'number', code: 'Credit', options: { displayName: '授信额度', decimalPlaces: 2 } },
      { type: 'dropDown', code: 'Grade', options: { displayName: '等级', defaultItems: ['重要', '普通'] } },
      { type: 'dateTime', code: 'Since', options: { displayName: '合作日期' } },
    ],
  });
  page = await pageOf(admin, { width: 1440, height: 900 });
});

describe('Excel import and export in the browser', () => {
  it('imports through the wizard, shows the refused row, exports and downloads', async () => {
    const file = await sheet([
      ['客户名称', '授信额度', '等级', '合作日期'],
      ['星河科技', 50000, '重要', '2024年3月1日'],
      ['远山建材', '1,200.5', '普通', '2024/5/20'],
      ['', 300, '特级', '明天'],
    ]);
    await page.goto('/workbench/app/sales/clients');
    await page.getByRole('button', { name: /导\s*入$/ }).first().click();
    const wizard = page.getByRole('dialog').filter({ hasText: '导入 · 客户' });
    await wizard.locator('input[type=file]').setInputFiles(file);
    await expect.poll(() => wizard.getByText('文件中的列').first().isVisible(), { timeout: 20_000 }).toBe(true);
    await screenshot(page, 'data-port-1-mapping');
    await wizard.getByRole('button', { name: '下一步' }).click();
    await expect.poll(() => wizard.getByText('文件前 3 行（共对应 4 列）').isVisible()).toBe(true);
    await screenshot(page, 'data-port-2-preview');
    await wizard.getByRole('button', { name: '开始导入' }).click();
    // The task as the server has it: a failed import fails here with its message, not as text missing from the page.
    type Task = { state: string; message: string | null; inserted: number; rejected: number };
    const tasks = () => api<{ list: Task[] }>(admin, 'POST', '/v1/dataPort/LoadTaskRecords', {});
    const task = await until('the import task', tasks, (r) => r.list.length > 0 && !['Waiting', 'Running'].includes(r.list[0]!.state), { timeoutMs: 90_000 });
    expect(task.list[0]).toMatchObject({ state: 'Finished', inserted: 2, rejected: 1 });
    await expect.poll(() => wizard.getByText('共 3 条：新增 2 条，更新 0 条，未导入 1 条').isVisible(), { timeout: 30_000 }).toBe(true);
    await screenshot(page, 'data-port-3-result');
    const [report] = await Promise.all([page.waitForEvent('download'), wizard.getByRole('button', { name: /下载错误报告/ }).click()]);
    const reportBook = new ExcelJS.Workbook();
    await reportBook.xlsx.load((await downloaded(report)) as unknown as ArrayBuffer);
    const refused = reportBook.worksheets[0]!.getRow(2).values as unknown[];
    expect(String(refused[5])).toContain('合作日期：日期格式无法识别');
    expect(String(refused[5])).toContain('等级：“特级”不是可选的选项');
    await wizard.getByRole('button', { name: /关\s*闭/ }).last().click();
    await page.reload();
    await expect.poll(() => page.getByText('远山建材').first().isVisible(), { timeout: 15_000 }).toBe(true);

    await page.getByRole('button', { name: /导\s*出/ }).first().click();
    const exporter = page.getByRole('dialog').filter({ hasText: '导出数据 · 客户' });
    await expect.poll(() => exporter.getByRole('checkbox', { name: '授信额度' }).isVisible(), { timeout: 15_000 }).toBe(true);
    await screenshot(page, 'data-port-4-export');
    await exporter.getByRole('button', { name: '开始导出' }).click();
    await expect.poll(() => exporter.getByText('导出完成，共 2 条').isVisible(), { timeout: 30_000 }).toBe(true);
    const [download] = await Promise.all([page.waitForEvent('download'), exporter.getByRole('button', { name: /下载文件/ }).click()]);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load((await downloaded(download)) as unknown as ArrayBuffer);
    const names: string[] = [];
    book.worksheets[0]!.eachRow((row, n) => n > 1 && names.push(String(row.getCell(5).value)));
    expect(names.sort()).toEqual(['星河科技', '远山建材']);
    await exporter.getByRole('button', { name: /关\s*闭/ }).last().click();

    // The history is a page of its own, for this form (docs/decisions/0020).
    await page.getByRole('button', { name: '导入导出记录' }).click();
    await expect.poll(() => page.url()).toContain('/workbench/data-port?schemaCode=clients');
    await expect.poll(() => page.locator('.ant-table-row').getByText('已完成').count(), { timeout: 15_000 }).toBe(2);
    await screenshot(page, 'data-port-5-history');
  }, 180_000);
});
