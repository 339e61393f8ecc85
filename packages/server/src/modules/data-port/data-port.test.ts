import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import path from 'node:path';
import { sql } from 'kysely';
import ExcelJS from 'exceljs';
import { registerPerson, type TestApp } from '../../../test/helpers.ts';
import { grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { createForm, definition, publish } from '../../../test/form-helpers.ts';
import { engineDb } from '../../db/database.ts';
import { download, drainJobs, exportAll, importFile, portApp, redCells, rowsOfXlsx, salesMember, task, uploadSheet, xlsxOf, type PortApp } from './data-port.fixtures.ts';

// test-databases: both — batched imports and their transactions (docs/testing.md "Runs on both databases").

// Import types, rejected rows, cancel / retry rules, Chinese dates, people by name or mobile, and who may see a
// task (docs/decisions/0020). PGlite and PostgreSQL run the same file.

let t: TestApp, port: PortApp, admin: Person, a: OrgClient, appCode: string;
let member: Person & { userId: string };
let m: OrgClient;
let deptId: string;

beforeAll(async () => {
  port = await portApp('tritium-port-');
  ({ t, admin, a, appCode } = port);
  ({ deptId, member, m } = await salesMember(port));
});
afterAll(() => port.close());

const FORM = definition([
  { type: 'textBox', code: 'Code', options: { displayName: '编号' } },
  { type: 'number', code: 'Qty', options: { displayName: '数量', required: true } },
  { type: 'dropDown', code: 'Kind', options: { displayName: '类别', defaultItems: ['甲', '乙'] } },
  { type: 'dateTime', code: 'Day', options: { displayName: '日期' } },
  { type: 'user', code: 'Who', options: { displayName: '负责人' } },
  { type: 'department', code: 'Dept', options: { displayName: '部门' } },
  { type: 'gridView', code: 'Lines', options: { displayName: '明细' }, controls: [{ type: 'textBox', code: 'Item', options: { displayName: '品名' } }, { type: 'number', code: 'N', options: { displayName: '件数' } }] },
]);
const HEAD = ['编号', '数量', '类别', '日期', '负责人', '部门', '明细.品名', '明细.件数'];

async function newForm(): Promise<string> {
  const code = (await createForm(a, appCode)).code as string;
  await publish(a, code, FORM);
  return code;
}
const rowsOf = async (schemaCode: string) =>
  (await a.post('/v1/bizdata/query', { schemaCode, pageIndex: 0, pageSize: 100, sort: [{ field: 'Code', direction: 'asc' }] })).list as Record<string, unknown>[];
const run = async (schemaCode: string, rows: unknown[][], options: Record<string, unknown> = {}) => importFile(t, a, admin, schemaCode, await xlsxOf([HEAD, ...rows]), options);

describe('import', () => {
  it('reads Chinese dates, people by name or mobile, departments by name, options by text and sub-table rows', async () => {
    const code = await newForm();
    const done = await run(code, [
      ['A1', 1, '甲', '2024年1月2日', '李四', '销售部', '螺丝', 2],
      [null, null, null, null, null, null, '螺母', 3],
      ['A2', '1,200', '乙', '2024/1/2 10:30', member.mobile, null, null, null],
      ['A3', 3, null, new Date(Date.UTC(2024, 0, 2, 8, 0, 0)), null, null, null, null],
    ]);
    // No data state asked: a form without a workflow takes its records as Effective.
    expect(done).toMatchObject({ state: 'Finished', type: 'Import', total: 3, inserted: 3, rejected: 0, hasErrorReport: false, dataState: 'Effective', importType: 'InsertOnly' });
    const list = await rowsOf(code);
    expect(list.map((r) => [r.Code, r.Qty, r.Kind, r.Day, r.Who, r.Dept, r.Status])).toEqual([
      ['A1', 1, '甲', '2024-01-01T16:00:00.000Z', member.userId, deptId, 1],
      ['A2', 1200, '乙', '2024-01-02T02:30:00.000Z', member.userId, null, 1],
      ['A3', 3, null, '2024-01-02T00:00:00.000Z', null, null, 1],
    ]);
    const first = await a.post('/v1/form/loaddata', { schemaCode: code, objectId: list[0]!.ObjectId });
    expect(first.children.Lines.map((r: Record<string, unknown>) => [r.Item, r.N])).toEqual([['螺丝', 2], ['螺母', 3]]);
  });

  it('InsertOnly, UpdateOnly and Upsert match on the chosen key; Draft keeps records drafts, Effective makes them effective', async () => {
    const code = await newForm();
    expect(await run(code, [['K1', 1], ['K2', 2]], { dataState: 'Draft' })).toMatchObject({ inserted: 2, updated: 0, rejected: 0, dataState: 'Draft' });
    expect(await run(code, [['K1', 10], ['K9', 9]], { importType: 'UpdateOnly', keyField: 'Code', dataState: 'Draft' })).toMatchObject({ inserted: 0, updated: 1, rejected: 1, importType: 'UpdateOnly' });
    expect(await run(code, [['K2', 20], ['K3', 3]], { importType: 'Upsert', keyField: 'Code', dataState: 'Effective' })).toMatchObject({ inserted: 1, updated: 1, rejected: 0 });
    expect(await run(code, [['K3', 30], ['K4', 4]], { importType: 'InsertOnly', keyField: 'Code', dataState: 'Draft' })).toMatchObject({ inserted: 1, rejected: 1 });
    expect((await rowsOf(code)).map((r) => [r.Code, r.Qty, r.Status])).toEqual([['K1', 10, 0], ['K2', 20, 1], ['K3', 3, 1], ['K4', 4, 0]]);
    // The key must be a mapped main-table column.
    const fileId = await uploadSheet(t, admin, 'k.xlsx', await xlsxOf([HEAD, ['K1', 1]]));
    const bad = await a.raw('POST', '/v1/dataImport/addImportTask', { schemaCode: code, fileId, importType: 'Upsert', keyField: 'Lines.Item' });
    expect(bad.body).toMatchObject({ successful: false, errorCode: 300007 });
    const noKey = await a.raw('POST', '/v1/dataImport/addImportTask', { schemaCode: code, fileId, importType: 'Upsert' });
    expect(noKey.body).toMatchObject({ successful: false, errorCode: 777 });
  });

  it('rejects bad rows with the reason per cell, writes none of them, and keeps the good ones', async () => {
    const code = await newForm();
    const done = await run(code, [
      ['B1', 1, '甲', null, null, null, null, null],
      ['B2', 'abc', null, null, null, null, null, null],
      ['B3', 2, '丙', '2024-02-31', '王五', null, null, null],
      ['B4', null, null, null, null, null, null, null],
      ['B5', 5, null, null, null, null, '好的行', 1],
      [null, null, null, null, null, null, '坏的行', 'x'],
      ['B6', 6, null, null, null, '不存在的部门', null, null],
    ]);
    expect(done).toMatchObject({ state: 'Finished', total: 6, inserted: 1, rejected: 5, hasErrorReport: true });
    expect((await rowsOf(code)).map((r) => r.Code)).toEqual(['B1']);
    const lines = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(`e_${admin.engineCode}.data_import_rows`)}`.execute(t.database.db);
    expect(lines.rows[0]!.n).toBeGreaterThan(0);
    const report = await download(t, a, done.taskId, 'ErrorReport');
    const rows = await rowsOfXlsx(report);
    expect(rows[0]).toEqual([...HEAD, '错误原因']);
    const reasons = Object.fromEntries(rows.slice(1).map((r) => [String(r[0] ?? r[6]), String(r[HEAD.length])]));
    expect(reasons.B2).toBe('数量：须为数字');
    expect(reasons.B3).toContain('类别：“丙”不是可选的选项');
    expect(reasons.B3).toContain('日期：日期格式无法识别');
    expect(reasons.B3).toContain('负责人：找不到人员“王五”');
    expect(reasons.B4).toBe('数量：必填');
    expect(reasons['坏的行']).toBe('明细.件数：须为数字');
    expect(reasons.B6).toBe('部门：找不到部门“不存在的部门”');
    // B5 and its two sub-table rows are reported together; only the bad cell is red.
    expect(rows.slice(1).map((r) => r[0] ?? r[6])).toEqual(['B2', 'B3', 'B4', 'B5', '坏的行', 'B6']);
    expect(await redCells(report, 6)).toEqual([8]);
    expect(await redCells(report, 3)).toEqual([3, 4, 5]);
  });

  it('reads .csv (UTF-8 with BOM) and refuses other files and mappings to unknown fields', async () => {
    const code = await newForm();
    const csv = Buffer.from(`\ufeff编号,数量,类别\nC1,7,乙\n"C,2",8,甲\n`);
    expect(await importFile(t, a, admin, code, csv, {}, 'data.csv')).toMatchObject({ inserted: 2, rejected: 0 });
    expect((await rowsOf(code)).map((r) => r.Code)).toEqual(['C,2', 'C1']);
    const fileId = await uploadSheet(t, admin, 'data.csv', csv);
    const wrong = await a.raw('POST', '/v1/dataImport/addImportTask', { schemaCode: code, fileId, mapping: [{ column: '编号', field: 'Nope' }, { column: '无此列', field: 'Qty' }] });
    expect(wrong.body).toMatchObject({ successful: false, errorCode: 300006 });
    expect(wrong.body.detail.problems.map((p: { column: string }) => p.column)).toEqual(['编号', '无此列', '']);
    const processing = await a.raw('POST', '/v1/dataImport/addImportTask', { schemaCode: code, fileId, dataState: 'Processing' });
    expect(processing.body).toMatchObject({ errorCode: 300008 });
    const preview = await a.post('/v1/dataImport/preview', { schemaCode: code, fileId });
    expect(preview).toEqual({ headers: ['编号', '数量', '类别'], rows: [['C1', '7', '乙'], ['C,2', '8', '甲']], mapping: [{ column: '编号', field: 'Code' }, { column: '数量', field: 'Qty' }, { column: '类别', field: 'Kind' }] });
  });

  // With two batches in flight (PostgreSQL, docs/decisions/0099) the second batch may commit before the failure ends the
  // attempt: either way the retry writes every row exactly once. The died attempt with two reads its file in a worker
  // thread (docs/decisions/0106), ended with the attempt.
  it.each([1, 2])('a retry after an attempt died part-way skips the rows already committed: no row twice (%i batches in flight)', async (batchesInFlight) => {
    const code = await newForm();
    const rows = Array.from({ length: 1200 }, (_, i) => [`R${String(i).padStart(4, '0')}`, i + 1]);
    const fileId = await uploadSheet(t, admin, 'big.xlsx', await xlsxOf([HEAD, ...rows]));
    const { taskId } = await a.post('/v1/dataImport/addImportTask', { schemaCode: code, fileId });
    // The first attempt commits its first batch (500 records) and dies: the job's progress report fails.
    const jobs = t.database.db;
    const { dataImportHandler } = await import('./import.job.ts');
    await jobs.updateTable('platform.jobs').set({ state: 'Running', attempts: 1, worker_id: 'dead', lease_until: new Date(Date.now() - 1000) }).where('id', '=', taskId).execute();
    let reports = 0;
    const handler = dataImportHandler({ store: (await import('../files/file-store.ts')).createLocalFileStore(path.join(port.dataDir, 'files')), urls: null as never, batchSize: 500, batchDelayMs: 0, batchesInFlight, workerFromRows: batchesInFlight === 2 ? 0 : 5000 });
    const died = handler.run({
      db: jobs, jobId: taskId, engineCode: admin.engineCode, payload: { taskId }, attempt: 1, createdBy: null,
      reportProgress: async () => {
        reports++;
        throw new Error('server killed');
      },
      assertOwned: async () => undefined,
    });
    await expect(died).rejects.toThrow('server killed');
    expect(reports).toBe(1);
    expect(await t.app.extras.jobs.sweep()).toBe(1);
    expect(await task(a, taskId)).toMatchObject({ state: 'Timeout', attempts: 1 });
    const count = async () => (await sql<{ n: number; d: number }>`select count(*)::int as n, count(distinct "Code")::int as d from ${sql.table(`e_${admin.engineCode}.${(await engineDb(t.database.db, admin.engineCode).selectFrom('form_tables').select('table_name').where('schema_code', '=', code).where('grid_key', '=', '').executeTakeFirstOrThrow()).table_name}`)}`.execute(t.database.db)).rows[0];
    const first = await count();
    expect(first!.n).toBe(first!.d);
    expect(batchesInFlight === 1 || t.database.kind === 'pglite' ? [500] : [500, 1000]).toContain(first!.n);
    expect(await a.post('/v1/dataPort/RetryTimeoutTasks', { TaskIds: [taskId] })).toEqual({ retried: [taskId] });
    await drainJobs(t);
    expect(await task(a, taskId)).toMatchObject({ state: 'Finished', attempts: 2, total: 1200, inserted: 1200, rejected: 0 });
    expect(await count()).toEqual({ n: 1200, d: 1200 });
    // Only a Timeout task is retried.
    expect((await a.raw('POST', '/v1/dataPort/RetryTimeoutTasks', { TaskIds: [taskId] })).body).toMatchObject({ errorCode: 300003 });
  }, 60_000);
});

describe('export', () => {
  it('follows the filter, sort and columns asked for, and rejects unknown columns and bad filters', async () => {
    const code = await newForm();
    await run(code, [['E1', 1], ['E2', 5], ['E3', 9, null, null, null, null, '件', 2], [null, null, null, null, null, null, '件2', 3]]);
    const { bytes, task: done } = await exportAll(t, a, code, { filter: { field: 'Qty', operator: 'Above', value: 2 }, columns: ['Code', 'Qty', 'Lines.Item', 'Lines.N'], sort: [{ field: 'Code', direction: 'desc' }] });
    expect(done.total).toBe(2);
    expect(await rowsOfXlsx(bytes)).toEqual([['编号', '数量', '明细.品名', '明细.件数'], ['E3', 9, '件', 2], [null, null, '件2', 3], ['E2', 5]]);
    expect((await a.raw('POST', '/v1/dataExport/addExportTask', { schemaCode: code, columns: ['Nope'] })).body).toMatchObject({ errorCode: 300010 });
    expect((await a.raw('POST', '/v1/dataExport/addExportTask', { schemaCode: code, filter: { field: 'Nope', operator: 'Equal', value: 1 } })).body).toMatchObject({ errorCode: 777 });
    const columns = await a.get(`/v2/dataPort/getExportColumns/${code}/default`);
    expect(columns.columns.filter((c: { importable: boolean; grid: string | null }) => c.importable && !c.grid).map((c: { code: string }) => c.code)).toEqual(['SeqNo', 'ObjectId', 'Code', 'Qty', 'Kind', 'Day', 'Who', 'Dept']);
  });

  it('a waiting task can be cancelled (then never runs); a running or finished one cannot', async () => {
    const code = await newForm();
    const { taskId } = await a.post('/v1/dataExport/addExportTask', { schemaCode: code });
    expect(await a.get(`/v1/dataPort/CancelWaitingTask/Export/${taskId}`)).toMatchObject({ state: 'Canceled', exportState: 'Cancel' });
    await drainJobs(t);
    expect(await task(a, taskId)).toMatchObject({ state: 'Canceled', hasResult: false });
    expect((await a.raw('GET', `/v1/dataPort/CancelWaitingTask/Export/${taskId}`)).body).toMatchObject({ errorCode: 300002 });
    expect((await a.raw('GET', `/v1/dataPort/CancelWaitingTask/Import/${taskId}`)).body).toMatchObject({ errorCode: 300001 });
  });

  it('serves the template and the legacy OnAction calls', async () => {
    const code = await newForm();
    const res = await t.app.inject({ method: 'GET', url: `/v1/dataImport/template/${code}`, headers: { authorization: `Bearer ${admin.token}`, enginecode: admin.engineCode } });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const fileName = decodeURIComponent(/filename\*=UTF-8''(.+)$/.exec(String(res.headers['content-disposition']))![1]!);
    expect(fileName).toMatch(/^[^-_\d]+导入模板\.xlsx$/);
    // The header, then the sample row: its first cell marked, one example per column (an item of the drop-down).
    expect(await rowsOfXlsx(res.rawPayload)).toEqual([HEAD, ['【示例】示例文本', 100, '甲', '2024-09-10', '张三', '销售部', '示例文本', 100]]);
    const template = new ExcelJS.Workbook();
    await template.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const sheet = template.worksheets[0]!;
    expect(sheet.getCell('C3').dataValidation).toMatchObject({ type: 'list', formulae: ['"甲,乙"'] });
    expect(sheet.getCell('A3').dataValidation).toBeUndefined();
    const legacy = await a.post('/ExcelExport/OnAction', { PostData: JSON.stringify({ ActionName: 'GetExportColumns', SchemaCode: code }) });
    expect(legacy.columns.length).toBeGreaterThan(5);
    expect((await a.raw('POST', '/ExcelImport/OnAction', { ActionName: 'Nope' })).body).toMatchObject({ errorCode: 777 });
    const listed = await a.post('/ExcelImport/OnAction', { ActionName: 'LoadTaskRecords', SchemaCode: code });
    expect(listed).toEqual({ list: [], total: 0 });
    // Filled in below the sample (the sample left as it is) and imported: only the person's row becomes a record.
    sheet.getRow(3).values = ['T1', 5, '乙', new Date(Date.UTC(2024, 8, 10, 14, 30))];
    const filled = Buffer.from(await template.xlsx.writeBuffer());
    const fileId = await uploadSheet(t, admin, fileName, filled);
    expect((await a.post('/v1/dataImport/preview', { schemaCode: code, fileId })).rows.map((r: string[]) => r.slice(0, 4))).toEqual([['T1', '5', '乙', '2024-09-10 14:30']]);
    expect(await importFile(t, a, admin, code, filled)).toMatchObject({ total: 1, inserted: 1, rejected: 0 });
    expect((await rowsOf(code)).map((r) => [r.Code, r.Qty, r.Kind, r.Day])).toEqual([['T1', 5, '乙', '2024-09-10T06:30:00.000Z']]);
  });
});

describe('the template', () => {
  it('lists long or comma-holding items on a hidden sheet, yes/no inline; a list of items samples two', async () => {
    const code = (await createForm(a, appCode)).code as string;
    const many = Array.from({ length: 60 }, (_, i) => `第${i + 1}号选项`);
    await publish(a, code, definition([
      { type: 'dropDown', code: 'Long', options: { displayName: '长列表', defaultItems: many } },
      { type: 'radioList', code: 'Comma', options: { displayName: '带逗号', defaultItems: ['甲,乙', '丙'] } },
      { type: 'checkbox', code: 'Done', options: { displayName: '完成' } },
      { type: 'checkboxList', code: 'Tags', options: { displayName: '标签', defaultItems: ['红', '绿', '蓝'] } },
    ]));
    const res = await t.app.inject({ method: 'GET', url: `/v1/dataImport/template/${code}`, headers: { authorization: `Bearer ${admin.token}`, enginecode: admin.engineCode } });
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const [sheet, lists] = book.worksheets;
    expect(await rowsOfXlsx(res.rawPayload)).toEqual([['长列表', '带逗号', '完成', '标签'], ['【示例】第1号选项', '甲,乙', '是', '红;绿']]);
    expect(lists).toMatchObject({ name: '选项', state: 'hidden' });
    expect(lists!.getColumn(1).values.slice(1)).toEqual(many);
    expect(lists!.getColumn(2).values.slice(1)).toEqual(['甲,乙', '丙']);
    expect(sheet!.getCell('A5').dataValidation).toMatchObject({ type: 'list', formulae: ["'选项'!$A$1:$A$60"] });
    expect(sheet!.getCell('B5').dataValidation).toMatchObject({ type: 'list', formulae: ["'选项'!$B$1:$B$2"] });
    expect(sheet!.getCell('C5').dataValidation).toMatchObject({ type: 'list', formulae: ['"是,否"'] });
    expect(sheet!.getCell('D5').dataValidation).toBeUndefined();
  });
});

describe('who sees a task', () => {
  it('another engine and another member see nothing; a member without access to the form is refused', async () => {
    const code = await newForm();
    const { taskId } = (await exportAll(t, a, code)).task;
    const other = await registerPerson(t.app, { engineName: '别的公司' });
    const o = nodeClient(t.app, other);
    for (const c of [o, m]) {
      expect(await c.post('/v1/dataPort/LoadTaskRecords', { TaskIds: [taskId] })).toEqual({ list: [], total: 0 });
      const url = await c.raw('POST', '/v1/dataPort/getDownloadUrl', { taskId, kind: 'Result' });
      expect(url.status).toBe(404);
      expect(url.body).toMatchObject({ errorCode: 300001 });
      expect((await c.raw('POST', '/v1/dataPort/RetryTimeoutTasks', { TaskIds: [taskId] })).body).toMatchObject({ errorCode: 300001 });
    }
    // The member holds no grant on the form: every call naming it is 404 / 230001, and no task is queued.
    const fileId = await uploadSheet(t, member, 'm.xlsx', await xlsxOf([HEAD, ['M1', 1]]));
    const before = await t.database.db.selectFrom('platform.jobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect((await m.raw('POST', '/v1/dataImport/addImportTask', { schemaCode: code, fileId })).body).toMatchObject({ errorCode: 230001 });
    expect((await m.raw('POST', '/v1/dataExport/addExportTask', { schemaCode: code })).body).toMatchObject({ errorCode: 230001 });
    expect((await m.raw('GET', `/v2/dataPort/getExportColumns/${code}/default`)).body).toMatchObject({ errorCode: 230001 });
    expect((await m.raw('POST', '/v1/dataImport/preview', { schemaCode: code, fileId })).body).toMatchObject({ errorCode: 230001 });
    const after = await t.database.db.selectFrom('platform.jobs').select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow();
    expect(Number(after.n)).toBe(Number(before.n));
    // Someone else's upload cannot be imported.
    await grant(a, code, member.userId, 'access');
    const adminFile = await uploadSheet(t, admin, 'a.xlsx', await xlsxOf([HEAD, ['X', 1]]));
    expect((await m.raw('POST', '/v1/dataImport/addImportTask', { schemaCode: code, fileId: adminFile })).body).toMatchObject({ errorCode: 260001 });
    // With access, the member imports; their records are theirs and an admin's record is not theirs to update.
    await run(code, [['ADM', 1]]);
    const mine = await importFile(t, m, member, code, await xlsxOf([HEAD, ['ADM', 2], ['MEM', 3]]), { importType: 'Upsert', keyField: 'Code' });
    expect(mine).toMatchObject({ inserted: 1, updated: 0, rejected: 1 });
    expect((await rowsOf(code)).map((r) => [r.Code, r.Qty])).toEqual([['ADM', 1], ['MEM', 3]]);
  });
});
