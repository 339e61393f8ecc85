import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import ExcelJS from 'exceljs';
import { SheetWriter } from './xlsx-worker.ts';

// docs/decisions/0106: a large export's sheet is written by exceljs's streaming writer in a worker thread.
let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'tritium-sheet-writer-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('an export sheet written in a worker thread', () => {
  it('holds the header and every row in order, texts, numbers, empties and links as given, across several batches', async () => {
    const file = path.join(dir, 'out.xlsx');
    const writer = new SheetWriter({ file, sheetName: '客户', header: ['名称', '数', '附件'] });
    try {
      for (let i = 0; i < 1700; i++) await writer.add([`客户${i}`, i % 5 ? i * 1.5 : null, i === 7 ? { text: '合同.pdf', hyperlink: 'https://example.test/f/1' } : '否']);
      await writer.finish();
    } finally {
      await writer.close();
    }
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.readFile(file);
    const sheet = wb.getWorksheet('客户')!;
    expect(sheet.rowCount).toBe(1701);
    expect(sheet.getRow(1).values).toEqual([undefined, '名称', '数', '附件']);
    expect(sheet.getRow(2).values).toEqual([undefined, '客户0', undefined, '否']);
    expect(sheet.getRow(1701).values).toEqual([undefined, '客户1699', 1699 * 1.5, '否']);
    expect(sheet.getRow(9).getCell(3).value).toEqual({ text: '合同.pdf', hyperlink: 'https://example.test/f/1' });
  });

  it('ends its worker when the export stops before the end', async () => {
    const writer = new SheetWriter({ file: path.join(dir, 'stopped.xlsx'), sheetName: 'S', header: ['a'] });
    for (let i = 0; i < 600; i++) await writer.add([i]);
    await writer.close();
    await expect(writer.finish()).rejects.toThrow();
  });
});
