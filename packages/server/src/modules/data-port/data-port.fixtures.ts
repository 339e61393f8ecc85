import ExcelJS from 'exceljs';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'vitest';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { FunctionNodeType, addMember, createApp, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { companyIdOf } from '../../../test/org-helpers.ts';
import { createForm, publish } from '../../../test/form-helpers.ts';

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

export interface PortApp {
  t: TestApp;
  dataDir: string;
  admin: Person;
  a: OrgClient;
  appCode: string;
  close(): Promise<void>;
}

/** An app on a data folder of its own (the files' store), its administrator and one app. */
export async function portApp(prefix: string): Promise<PortApp> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), prefix));
  const t = await createTestApp({ config: { dataDir } });
  const admin = await registerPerson(t.app, { userName: '王管理' });
  const a = nodeClient(t.app, admin);
  const appCode = (await createApp(a)).code as string;
  return {
    t, dataDir, admin, a, appCode,
    close: async () => {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** A department 销售部 and its member 李四. */
export async function salesMember(p: PortApp) {
  const deptId = (await p.a.post('/v1/org/department/create', { parentId: await companyIdOf(p.t, p.admin.engineCode), name: '销售部' })).id as string;
  const member = await addMember(p.t, p.admin, { name: '李四', departmentIds: [deptId] });
  return { deptId, member, m: nodeClient(p.t.app, member) };
}

/** A published workflow form whose one approval node goes to the administrator: its code and the approver's user id. */
export async function approvalForm(a: OrgClient, appCode: string, formDefinition: unknown): Promise<{ code: string; approverId: string }> {
  const code = (await createForm(a, appCode, { displayName: '报销' }, FunctionNodeType.WorkflowModule)).code as string;
  await publish(a, code, formDefinition);
  const approverId = (await a.post('/v1/form/loaddata', { schemaCode: code })).system.CreatedBy as string;
  await a.post('/v1/workflow/template/save', {
    schemaCode: code,
    template: {
      activities: [{ type: 'Start', code: 'Start', name: '发起' }, { type: 'Approve', code: 'A', name: '审批', participants: { sources: [{ type: 'users', ids: [approverId] }] } }, { type: 'End', code: 'End', name: '结束' }],
      routes: [{ from: 'Start', to: 'A' }, { from: 'A', to: 'End' }],
    },
  });
  await a.post('/v1/workflow/template/publish', { schemaCode: code });
  return { code, approverId };
}
