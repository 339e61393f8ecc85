import ExcelJS from 'exceljs';
import { expect } from 'vitest';
import type { TestApp } from '../../../test/helpers.ts';
import type { OrgClient } from '../../../test/node-helpers.ts';

// Test fixtures of the import/export tests (docs/decisions/0020): uploads, workbooks, running jobs, downloads.

type Who = { token: string; engineCode: string };

/** Uploads bytes as the caller's import file (scene gridImportFile). */
export async function uploadSheet(t: TestApp, who: Who, name: string, bytes: Buffer): Promise<string> {
  const res = await t.app.inject({
    method: 'POST', url: '/v1/file/upload', query: { scene: 'gridImportFile', fileName: name },
    headers: { authorization: `Bearer ${who.token}`, enginecode: who.engineCode, 'content-type': 'application/octet-stream' },
    payload: bytes,
  });
  expect(res.json()).toMatchObject({ successful: true });
  return res.json().data.fileId as string;
}

/** An .xlsx of rows (the first the header). */
export async function xlsxOf(rows: unknown[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const sheet = wb.addWorksheet('数据');
  for (const r of rows) sheet.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** The first sheet of an .xlsx as rows of cell values (hyperlinks as their text). */
export async function rowsOfXlsx(bytes: Buffer): Promise<unknown[][]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  const out: unknown[][] = [];
  wb.worksheets[0]!.eachRow({ includeEmpty: false }, (row) => {
    const values = (row.values as unknown[]).slice(1);
    out.push(Array.from(values, (v) => (v && typeof v === 'object' && 'hyperlink' in (v as object) ? (v as { text: string }).text : (v ?? null))));
  });
  return out;
}

/** Fills of the cells of a row of an .xlsx (for the error report's red cells). */
export async function redCells(bytes: Buffer, rowNumber: number): Promise<number[]> {
  const wb = new ExcelJS.Workbook();
  await wb.xlsx.load(bytes as unknown as ArrayBuffer);
  const row = wb.worksheets[0]!.getRow(rowNumber);
  const out: number[] = [];
  row.eachCell((cell, col) => {
    const fill = cell.fill as { fgColor?: { argb?: string } } | undefined;
    if (fill?.fgColor?.argb === 'FFFFC7CE') out.push(col);
  });
  return out;
}

/** Runs queued jobs until none is left. */
export async function drainJobs(t: TestApp): Promise<void> {
  while (await t.app.extras.jobs.runOnce()) {
    // next
  }
}

export async function task(c: OrgClient, taskId: string) {
  const r = await c.post('/v1/dataPort/LoadTaskRecords', { TaskIds: [taskId] });
  return r.list[0];
}

/** Downloads a task's file through its signed link. */
export async function download(t: TestApp, c: OrgClient, taskId: string, kind: 'Result' | 'ErrorReport'): Promise<Buffer> {
  const { url } = await c.post('/v1/dataPort/getDownloadUrl', { taskId, kind });
  const res = await t.app.inject({ method: 'GET', url });
  expect(res.statusCode).toBe(200);
  return res.rawPayload;
}

/** Imports `bytes` and runs the job: answers the finished task. */
export async function importFile(t: TestApp, c: OrgClient, who: Who, schemaCode: string, bytes: Buffer, options: Record<string, unknown> = {}, name = 'data.xlsx') {
  const fileId = await uploadSheet(t, who, name, bytes);
  const { taskId } = await c.post('/v1/dataImport/addImportTask', { schemaCode, fileId, ...options });
  await drainJobs(t);
  return task(c, taskId);
}

export async function exportAll(t: TestApp, c: OrgClient, schemaCode: string, options: Record<string, unknown> = {}) {
  const { taskId } = await c.post('/v1/dataExport/addExportTask', { schemaCode, ...options });
  await drainJobs(t);
  const done = await task(c, taskId);
  expect(done).toMatchObject({ state: 'Finished', exportState: 'Success', hasResult: true });
  return { task: done, bytes: await download(t, c, taskId, 'Result') };
}
