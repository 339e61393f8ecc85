import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { registerPerson, type TestApp } from '../../../test/helpers.ts';
import { grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { createForm, definition, engineSql, publish, tableRef } from '../../../test/form-helpers.ts';
import { approvalForm, drainJobs, importFile, portApp, salesMember, task, uploadSheet, xlsxOf, type PortApp } from './data-port.fixtures.ts';
import { formChecksum, workflowCounts } from './rollback.fixtures.ts';

// test-databases: both — roll back in transactions (docs/testing.md "Runs on both databases").

// Rolling back an import (issue 17, docs/decisions/0031): created records removed, updated ones given their
// before-image back (sub-tables included) so every row of the form's tables is what it was; records changed after
// the import refused and reported; workflow instances removed with their records; who may, and when. PGlite and
// PostgreSQL run the same file.

let t: TestApp, port: PortApp, admin: Person, a: OrgClient, appCode: string, adminId: string;
let member: Person & { userId: string };
let m: OrgClient;

beforeAll(async () => {
  port = await portApp('tritium-rollback-');
  ({ t, admin, a, appCode } = port);
  ({ member, m } = await salesMember(port));
});
afterAll(() => port.close());

const FORM = definition([
  { type: 'textBox', code: 'Code', options: { displayName: '编号' } },
  { type: 'number', code: 'Qty', options: { displayName: '数量' } },
  { type: 'dateTime', code: 'Day', options: { displayName: '日期' } },
  { type: 'gridView', code: 'Lines', options: { displayName: '明细' }, controls: [{ type: 'textBox', code: 'Item', options: { displayName: '品名' } }, { type: 'number', code: 'N', options: { displayName: '件数' } }] },
]);
const HEAD = ['编号', '数量', '日期', '明细.品名', '明细.件数'];

async function newForm(): Promise<string> {
  const code = (await createForm(a, appCode)).code as string;
  await publish(a, code, FORM);
  return code;
}

const checksum = (code: string) => formChecksum(t.database.db, admin.engineCode, code);
const rollBack = async (c: OrgClient, taskId: string) => {
  const queued = await c.post('/v1/dataPort/RollbackImportTask', { TaskId: taskId });
  expect(queued.rollback).toMatchObject({ state: 'Waiting' });
  await drainJobs(t);
  return task(c, taskId);
};
const save = (c: OrgClient, code: string, body: Record<string, unknown>) => c.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', ...body });
const codes = async (code: string) =>
  (await engineSql<{ Code: string }>(t, sql`select "Code" from ${tableRef(admin.engineCode, `i_${code.toLowerCase()}`)} order by "Code"`)).map((r) => r.Code);

describe('rolling back a finished import', () => {
  it('removes the records it created and gives the ones it updated their rows back, sub-tables included', async () => {
    const code = await newForm();
    // What was there before: two records saved by hand (with sub-table rows), one imported earlier.
    const one = await save(a, code, { values: { Code: 'A1', Qty: 1, Day: '2024-01-02T03:04:05.000Z' }, children: { Lines: [{ Item: '螺丝', N: 2 }, { Item: '螺母', N: 3 }] } });
    await save(a, code, { values: { Code: 'A2', Qty: 2 }, children: { Lines: [{ Item: '垫片', N: 9 }] } });
    await importFile(t, a, admin, code, await xlsxOf([HEAD, ['A3', 3, null, '弹簧', 1]]));
    const before = await checksum(code);
    const counter = async () => (await engineSql<{ value: number }>(t, sql`select value from ${tableRef(admin.engineCode, 'form_seq_no')} where schema_code = ${code}`)).map((r) => Number(r.value));

    const done = await importFile(t, a, admin, code, await xlsxOf([
      HEAD,
      ['A1', 10, '2025-05-05', '钉子', 7],
      [null, null, null, '铆钉', 8],
      ['A2', 20, null, null, null],
      ['A4', 40, null, '新品', 4],
      ['A5', 50, null, null, null],
      ['A3', 30, null, '换了', 5],
    ]), { importType: 'Upsert', keyField: 'Code' });
    expect(done).toMatchObject({ state: 'Finished', inserted: 2, updated: 3, rejected: 0, rollback: null, rollbackOffered: true });
    const counterAfterImport = await counter();
    const changed = await a.post('/v1/form/loaddata', { schemaCode: code, objectId: one.objectId });
    expect(changed.values.Qty).toBe(10);
    expect(changed.children.Lines.map((r: { Item: string }) => r.Item)).toEqual(['钉子', '铆钉']);
    expect(await checksum(code)).not.toEqual(before);

    const rolled = await rollBack(a, done.taskId);
    expect(rolled).toMatchObject({ state: 'Finished', rollbackOffered: false, rollback: { state: 'Finished', progress: 100, deleted: 2, restored: 3, refused: 0, gone: 0 } });
    // Every row of the main table and the sub-table as it was: values, ids, sort keys, modified times.
    expect(await checksum(code)).toEqual(before);
    const back = await a.post('/v1/form/loaddata', { schemaCode: code, objectId: one.objectId });
    expect(back.values).toMatchObject({ Code: 'A1', Qty: 1, Day: '2024-01-02T03:04:05.000Z' });
    expect(back.children.Lines.map((r: { Item: string; N: number }) => [r.Item, r.N])).toEqual([['螺丝', 2], ['螺母', 3]]);
    // The data log says what the roll back changed back; sequence numbers are not given back.
    const log = await a.post('/v1/form/datalog/list', { schemaCode: code, objectId: one.objectId });
    expect(log.list[0].changes).toEqual(expect.arrayContaining([expect.objectContaining({ code: 'Qty', from: 10, to: 1 })]));
    expect(await counter()).toEqual(counterAfterImport);

    // Once rolled back, never again; and the task cannot be retried either.
    expect((await a.raw('POST', '/v1/dataPort/RollbackImportTask', { TaskId: done.taskId })).body).toMatchObject({ errorCode: 300102 });
  });

  it('leaves records changed after the import as they are and lists them in its report', async () => {
    const code = await newForm();
    const kept = await save(a, code, { values: { Code: 'B1', Qty: 1 }, children: { Lines: [{ Item: '旧', N: 1 }] } });
    const done = await importFile(t, a, admin, code, await xlsxOf([HEAD, ['B1', 11, null, '新', 2], ['B2', 2, null, null, null], ['B3', 3, null, null, null]]), { importType: 'Upsert', keyField: 'Code' });
    expect(done).toMatchObject({ inserted: 2, updated: 1 });
    const [b2] = await engineSql<{ ObjectId: string }>(t, sql`select "ObjectId" from ${tableRef(admin.engineCode, `i_${code.toLowerCase()}`)} where "Code" = 'B2'`);
    // Someone edits B2 and B1 after the import: the roll back must not destroy their edits.
    await save(a, code, { objectId: b2!.ObjectId, values: { Qty: 22 } });
    await save(a, code, { objectId: kept.objectId, values: { Qty: 111 } });
    const rolled = await rollBack(a, done.taskId);
    expect(rolled.rollback).toMatchObject({ state: 'Finished', deleted: 1, restored: 0, refused: 2 });
    expect(await codes(code)).toEqual(['B1', 'B2']);
    const b1 = await a.post('/v1/form/loaddata', { schemaCode: code, objectId: kept.objectId });
    expect(b1.values.Qty).toBe(111);
    const report = await a.post('/v1/dataPort/getRollbackReport', { TaskId: done.taskId });
    expect(report).toMatchObject({ total: 2 });
    expect(report.rows.map((r: { rowNo: number; action: string; outcome: string }) => [r.rowNo, r.action, r.outcome])).toEqual([[2, 'update', 'refused'], [3, 'insert', 'refused']]);
    expect(report.rows[0].note).toContain('已被修改');
  });
});

describe('rolling back an import into a workflow form', () => {
  async function workflowForm(): Promise<string> {
    const form = await approvalForm(a, appCode, FORM);
    adminId = form.approverId;
    return form.code;
  }

  it('an Effective import: its records and their finished instances go, the rest stays exactly as it was', async () => {
    const code = await workflowForm();
    await importFile(t, a, admin, code, await xlsxOf([HEAD, ['W0', 1, null, '留', 1]]), { dataState: 'Effective' });
    const before = await checksum(code);
    const flowBefore = await workflowCounts(t.database.db, admin.engineCode, code);
    const done = await importFile(t, a, admin, code, await xlsxOf([HEAD, ['W1', 1, null, '甲', 1], ['W2', 2, null, null, null]]), { dataState: 'Effective' });
    expect(done).toMatchObject({ state: 'Finished', inserted: 2 });
    expect((await workflowCounts(t.database.db, admin.engineCode, code)).instances).toBe(flowBefore.instances + 2);
    const rolled = await rollBack(a, done.taskId);
    expect(rolled.rollback).toMatchObject({ state: 'Finished', deleted: 2, refused: 0 });
    expect(await checksum(code)).toEqual(before);
    expect(await workflowCounts(t.database.db, admin.engineCode, code)).toEqual(flowBefore);
  });

  it('a Processing import: open flows go with their records (todos and reminders too); an approved one is refused', async () => {
    const code = await workflowForm();
    const before = await checksum(code);
    const flowBefore = await workflowCounts(t.database.db, admin.engineCode, code);
    const done = await importFile(t, a, admin, code, await xlsxOf([HEAD, ['P1', 1, null, null, null], ['P2', 2, null, null, null]]), { dataState: 'Processing' });
    expect(done).toMatchObject({ inserted: 2 });
    const [p1] = await engineSql<{ ObjectId: string }>(t, sql`select "ObjectId" from ${tableRef(admin.engineCode, `i_${code.toLowerCase()}`)} where "Code" = 'P1'`);
    const info = await a.get('/v1/workflow/instance/info', { schemaCode: code, objectId: p1!.ObjectId });
    await a.post('/v1/workflow/instance/submit', { workItemId: info.myItems[0].workItemId });
    const rolled = await rollBack(a, done.taskId);
    expect(rolled.rollback).toMatchObject({ deleted: 1, refused: 1 });
    expect(await codes(code)).toEqual(['P1']);
    const left = await workflowCounts(t.database.db, admin.engineCode, code);
    expect(left.instances).toBe(flowBefore.instances + 1);
    const [open] = await engineSql<{ n: number }>(t, sql`select count(*)::int as n from ${tableRef(admin.engineCode, 'wf_work_items')} where state in ('Waiting', 'Working') and instance_id not in (select id from ${tableRef(admin.engineCode, 'wf_instances')})`);
    expect(open!.n).toBe(0);
    expect(before).not.toEqual(await checksum(code));
  });
});

describe('who may roll back, and when', () => {
  it('the importer and administrators; only an ended import; never a retry after a roll back', async () => {
    const code = await newForm();
    await grant(a, code, member.userId, 'create');
    const fileId = await uploadSheet(t, member, 'm.xlsx', await xlsxOf([HEAD, ['M1', 1, null, null, null]]));
    const { taskId } = await m.post('/v1/dataImport/addImportTask', { schemaCode: code, fileId });
    // Waiting: not ended yet.
    const early = await m.raw('POST', '/v1/dataPort/RollbackImportTask', { TaskId: taskId });
    expect(early.body).toMatchObject({ successful: false, errorCode: 300101 });
    expect(early.body.errorMessage).toContain('导入尚未结束');
    await drainJobs(t);
    // Another engine never sees it; an export is not an import.
    const other = nodeClient(t.app, await registerPerson(t.app, { userName: '外人' }));
    expect((await other.raw('POST', '/v1/dataPort/RollbackImportTask', { TaskId: taskId })).body).toMatchObject({ errorCode: 300001 });
    const { taskId: exportId } = await a.post('/v1/dataExport/addExportTask', { schemaCode: code });
    await drainJobs(t);
    expect((await a.raw('POST', '/v1/dataPort/RollbackImportTask', { TaskId: exportId })).body).toMatchObject({ errorCode: 300100 });
    // A timed-out import (its server died) can be rolled back; afterwards it can no longer be retried.
    await t.database.db.updateTable('platform.jobs').set({ state: 'Timeout' }).where('id', '=', taskId).execute();
    expect((await task(m, taskId)).rollbackOffered).toBe(true);
    // The administrator may roll back the member's import.
    await a.post('/v1/dataPort/RollbackImportTask', { TaskId: taskId });
    expect((await m.raw('POST', '/v1/dataPort/RetryTimeoutTasks', { TaskIds: [taskId] })).body).toMatchObject({ errorCode: 300104 });
    expect((await m.raw('POST', '/v1/dataPort/RollbackImportTask', { TaskId: taskId })).body).toMatchObject({ errorCode: 300103 });
    // The roll back's own server dies (its job is swept to Timeout): it is offered again and goes on when asked.
    const [{ rollback_job_id: rollbackJob }] = await engineSql<{ rollback_job_id: string }>(t, sql`select rollback_job_id from ${tableRef(admin.engineCode, 'data_port_tasks')} where id = ${taskId}`) as [{ rollback_job_id: string }];
    await t.database.db.updateTable('platform.jobs').set({ state: 'Timeout' }).where('id', '=', rollbackJob).execute();
    expect(await task(m, taskId)).toMatchObject({ rollbackOffered: true, rollback: { state: 'Timeout' } });
    expect((await m.raw('POST', '/v1/dataPort/RetryTimeoutTasks', { TaskIds: [taskId] })).body).toMatchObject({ errorCode: 300104 });
    expect((await m.post('/v1/dataPort/RollbackImportTask', { TaskId: taskId })).rollback).toMatchObject({ state: 'Waiting' });
    await drainJobs(t);
    expect((await task(m, taskId)).rollback).toMatchObject({ state: 'Finished', deleted: 1, rolledBackBy: expect.any(String) });
    expect(await codes(code)).toEqual([]);
  });

  it('a member who neither imported nor administers the engine is refused', async () => {
    const code = await newForm();
    await grant(a, code, member.userId, 'create');
    const done = await importFile(t, a, admin, code, await xlsxOf([HEAD, ['X1', 1, null, null, null]]));
    expect((await m.raw('POST', '/v1/dataPort/RollbackImportTask', { TaskId: done.taskId })).body).toMatchObject({ errorCode: 300001 });
    expect(await codes(code)).toEqual(['X1']);
    // Bad input: a clear parameter error, nothing queued.
    expect((await a.raw('POST', '/v1/dataPort/RollbackImportTask', { TaskId: 'x' })).body).toMatchObject({ successful: false, errorCode: 777 });
    expect((await a.raw('POST', '/v1/dataPort/getRollbackReport', {})).body).toMatchObject({ successful: false, errorCode: 777 });
    expect((await task(a, done.taskId)).rollback).toBeNull();
  });
});
