import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { PassThrough, Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { readFileRows, type FileRow } from './file-rows.ts';
import { countXlsxRows } from './exceljs-zip-directory.ts';
import { xlsxRowsInWorker } from './xlsx-worker.ts';

async function workbook(sheets: Record<string, unknown[][]>): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const ws = wb.addWorksheet(name);
    for (const r of rows) ws.addRow(r);
  }
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The bytes as an upload arrives: a stream in small chunks. */
function streamOf(bytes: Buffer, chunk = 997): Readable {
  const out = new PassThrough();
  void (async () => {
    for (let i = 0; i < bytes.length; i += chunk) {
      out.write(bytes.subarray(i, i + chunk));
      await new Promise((r) => setImmediate(r));
    }
    out.end();
  })();
  return out;
}

async function all(rows: AsyncGenerator<FileRow>): Promise<FileRow[]> {
  const out: FileRow[] = [];
  for await (const row of rows) out.push(row);
  return out;
}

// The temporary copies go to a folder of this file's own (other test processes spool into the shared one at the same time).
let tmp: string;
const saved = process.env.TMPDIR;
beforeAll(() => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'tritium-file-rows-'));
  process.env.TMPDIR = tmp;
});
afterAll(() => {
  if (saved === undefined) delete process.env.TMPDIR;
  else process.env.TMPDIR = saved;
  rmSync(tmp, { recursive: true, force: true });
});
const spools = () => readdirSync(tmp).filter((n) => n.startsWith('tritium-xlsx-')).length;

describe('rows of an .xlsx', () => {
  it('reads the first worksheet of a workbook that stores xl/workbook.xml last, forty uploads at once', async () => {
    const bytes = await workbook({ 客户: [['名称', '额度'], ['星河科技', 50000], ['远山建材', 1200.5]], 其他: [['不读'], ['x']] });
    // Read many at once: the single streaming pass of exceljs lost the last entry now and then under this kind of load.
    const reads = await Promise.all(Array.from({ length: 40 }, () => all(readFileRows(streamOf(bytes), 'xlsx'))));
    for (const rows of reads) {
      expect(rows).toEqual([
        { rowNo: 1, cells: ['名称', '额度'] },
        { rowNo: 2, cells: ['星河科技', 50000] },
        { rowNo: 3, cells: ['远山建材', 1200.5] },
      ]);
    }
    expect(spools()).toBe(0);
  });

  it('leaves no temporary copy behind when the reader stops after the first row', async () => {
    const bytes = await workbook({ 数据: Array.from({ length: 2000 }, (_, i) => [`行${i}`, i]) });
    for await (const row of readFileRows(streamOf(bytes), 'xlsx')) {
      expect(row.cells).toEqual(['行0', 0]);
      expect(spools()).toBe(1);
      break;
    }
    expect(spools()).toBe(0);
  });

  it('refuses bytes that are not a zip archive with an error, not a hang', async () => {
    await expect(all(readFileRows(streamOf(Buffer.from('不是表格'.repeat(100))), 'xlsx'))).rejects.toThrow();
  });
});

describe('counting the rows of an .xlsx for progress', () => {
  it('counts the rows of the first sheet from its tags, as many as the reader reads, whatever the text says', async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => [`名称${i}`, i % 7 ? '<row r="9">' : '</row><row>', i]);
    const bytes = await workbook({ 第一页: [['名称', '说明', '数'], ...rows], 第二页: [['不数'], ['x'], ['y']] });
    let read = 0;
    for await (const _row of readFileRows(streamOf(bytes), 'xlsx')) read++;
    expect(read).toBe(3001);
    expect(await countXlsxRows(streamOf(bytes, 4093))).toBe(3001);
    expect(await countXlsxRows(streamOf(Buffer.from('not an archive')))).toBeUndefined();
  });
});

// docs/decisions/0106: a large import's file is parsed in a worker thread and its rows handed over in batches.
describe('rows of an .xlsx parsed in a worker thread', () => {
  it('are the rows the reader gives in this thread, cell for cell, across several batches', async () => {
    const day = new Date(Date.UTC(2026, 0, 31, 10, 30));
    const rows = Array.from({ length: 1300 }, (_, i) => [`名称${i}`, i % 3 ? i * 1.5 : null, i % 2 === 0, day, { richText: [{ text: '富' }, { text: `文${i}` }] }, { formula: '1+1', result: 2 }]);
    const bytes = await workbook({ 第一页: [['名称', '数', '是否', '日期', '说明', '公式'], ...rows], 第二页: [['不读']] });
    const here = await all(readFileRows(streamOf(bytes), 'xlsx'));
    const there = await all(xlsxRowsInWorker(streamOf(bytes)));
    expect(there.length).toBe(1301);
    expect(there).toEqual(here);
    expect(there[1]!.cells[3]).toEqual(day);
    expect(spools()).toBe(0);
  });

  it('ends the worker and its temporary copy when the reading stops early', async () => {
    const bytes = await workbook({ 数据: Array.from({ length: 3000 }, (_, i) => [`行${i}`, i]) });
    for await (const row of xlsxRowsInWorker(streamOf(bytes))) {
      expect(row.cells).toEqual(['行0', 0]);
      break;
    }
    expect(spools()).toBe(0);
  });

  it('refuses bytes that are not a zip archive with an error, not a hang', async () => {
    await expect(all(xlsxRowsInWorker(streamOf(Buffer.from('不是表格'.repeat(100)))))).rejects.toThrow();
  });
});
