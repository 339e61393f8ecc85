import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addMember, createApp, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { companyIdOf } from '../../../test/org-helpers.ts';
import { columnTypes, createForm, definition, engineSql, publish, tableRef } from '../../../test/form-helpers.ts';
import { approvalForm } from '../data-port/data-port.fixtures.ts';
import { UUID_ID_COLUMNS } from '../../db/uuid-ids.ts';
import { JobLostError, type JobContext } from '../../jobs/job-registry.ts';
import { UUID_IDS_JOB, queueUuidIdsMigration, uuidIdsHandler } from './uuid-ids.job.ts';

// test-databases: both — the ALTER … TYPE uuid and the comparisons of text and uuid columns are the databases' own.

// The system id columns as uuid (docs/decisions/0128): new form tables have them at once; an engine made before the
// change is converted by a job, one table a transaction, resumed after a kill, a table holding a text that is not a
// uuid left as text and reported — and every record, file and reference reads the same afterwards.

let t: TestApp, dataDir: string, admin: Person, a: OrgClient, appCode: string;
let deptId: string, member: Person & { userId: string }, m: OrgClient;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'tritium-uuid-ids-'));
  t = await createTestApp({ config: { dataDir } });
  admin = await registerPerson(t.app, { userName: '王管理' });
  a = nodeClient(t.app, admin);
  appCode = (await createApp(a)).code;
  deptId = (await a.post('/v1/org/department/create', { parentId: await companyIdOf(t, admin.engineCode), name: '销售部' })).id;
  member = await addMember(t, admin, { name: '李四', departmentIds: [deptId] });
  m = nodeClient(t.app, member);
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const ITEMS = { type: 'gridView', code: 'Items', controls: [{ type: 'textBox', code: 'ItemName' }, { type: 'number', code: 'Qty' }, { type: 'user', code: 'ItemUser' }, { type: 'attachment', code: 'ItemFiles' }] };
/** Every control type that stores a value (the registry's storage types), and the system controls. */
const everyControl = (refCode: string) => definition([
  { type: 'textBox', code: 'Title' }, { type: 'textArea', code: 'Notes' }, { type: 'number', code: 'Amount', options: { decimalPlaces: 2 } },
  { type: 'dateTime', code: 'When' }, { type: 'radioList', code: 'Level', options: { defaultItems: ['高', '低'] } },
  { type: 'checkboxList', code: 'Tags', options: { defaultItems: ['红', '蓝'] } }, { type: 'dropDown', code: 'City', options: { defaultItems: ['北京', '上海'] } },
  { type: 'checkbox', code: 'Done' }, { type: 'areaSelect', code: 'Addr' }, { type: 'map', code: 'Loc' }, { type: 'user', code: 'Person' },
  { type: 'multiUser', code: 'Team' }, { type: 'department', code: 'Dept' }, { type: 'multiDepartment', code: 'Depts' },
  { type: 'attachment', code: 'Files' }, { type: 'photo', code: 'Photos' }, { type: 'handSign', code: 'Sign' },
  { type: 'associationQuery', code: 'Ref', options: { schemaCode: refCode } }, { type: 'associationQueryMulti', code: 'Refs', options: { schemaCode: refCode } },
  { type: 'batchScan', code: 'Codes' }, { type: 'faceRecognition', code: 'Face' }, { type: 'dynamic', code: 'Dyn' }, { type: 'plugin', code: 'Plug' },
  { type: 'formula', code: 'Double', options: { expression: '{Amount}*2' } }, { type: 'seqNo', code: 'SeqNo' }, { type: 'creator', code: 'CreatedBy' },
  { type: 'owner', code: 'OwnerId' }, { type: 'ownerDepartment', code: 'OwnerDeptId' }, { type: 'createdTime', code: 'CreatedTime' },
  { type: 'modifiedTime', code: 'ModifiedTime' }, ITEMS,
]);

const tablesOf = async (code: string) =>
  engineSql<{ table_name: string; grid_key: string; uuid_ids: boolean }>(t, sql`select table_name, grid_key, uuid_ids from ${tableRef(admin.engineCode, 'form_tables')} where schema_code = ${code} order by grid_key`);
const mainOf = async (code: string) => (await tablesOf(code)).find((r) => r.grid_key === '')!.table_name;
const idTypes = async (table: string) => {
  const types = await columnTypes(t, admin.engineCode, table);
  return UUID_ID_COLUMNS.map((c) => types[c]);
};

/** The form's tables as the DDL before decision 0128 made them: the five id columns text, the mark false. */
async function asBeforeTheChange(code: string): Promise<void> {
  const main = await mainOf(code);
  const actions = UUID_ID_COLUMNS.map((c) => sql`alter column ${sql.ref(c)} type text using ${sql.ref(c)}::text`);
  await sql`alter table ${tableRef(admin.engineCode, main)} ${sql.join(actions)}`.execute(t.database.db);
  await sql`update ${tableRef(admin.engineCode, 'form_tables')} set uuid_ids = false where schema_code = ${code}`.execute(t.database.db);
  expect(await idTypes(main)).toEqual(['text', 'text', 'text', 'text', 'text']);
}

async function newForm(def: unknown): Promise<string> {
  const code = (await createForm(a, appCode)).code as string;
  await publish(a, code, def);
  return code;
}

async function upload(name: string, scene = 'attachment') {
  const res = await t.app.inject({
    method: 'POST', url: '/v1/file/upload', query: { scene, fileName: name },
    headers: { authorization: `Bearer ${admin.token}`, enginecode: admin.engineCode, 'content-type': 'application/octet-stream' }, payload: Buffer.from(`bytes of ${name}`),
  });
  const f = res.json().data;
  return { id: f.fileId, name: f.name, size: f.size, contentType: f.contentType };
}
/** A file's bytes through its signed link, handed out to the caller after the record's access check. */
async function download(id: string): Promise<string> {
  const [link] = (await a.post('/v1/file/urls/byfileids', { fileIds: [id] })).list as { url: string }[];
  return (await t.app.inject({ method: 'GET', url: link!.url.replace(/^https?:\/\/[^/]+/, '') })).body;
}

/** Every stored row of the form's tables as JSON text, in key order: what the conversion must leave as it was. */
async function storedRows(code: string): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const { table_name } of await tablesOf(code)) {
    const rows = await engineSql<{ j: string }>(t, sql`select row_to_json(m)::text as j from ${tableRef(admin.engineCode, table_name)} m order by "ObjectId"`);
    out[table_name] = rows.map((r) => r.j);
  }
  return out;
}

const query = (c: OrgClient, schemaCode: string, filter?: unknown, extra: Record<string, unknown> = {}) =>
  c.raw('POST', '/v1/bizdata/query', { schemaCode, pageIndex: 0, pageSize: 50, ...(filter ? { filter } : {}), ...extra });
const titles = (body: { successful: boolean; data: { list: { Title?: string }[] } }) => {
  expect(body, JSON.stringify(body).slice(0, 300)).toMatchObject({ successful: true });
  return body.data.list.map((r) => r.Title).sort();
};

/** Queues the job as a start does (`fresh`: as for an engine that never had it) and runs it through the job runner. */
async function runJob(fresh = true): Promise<{ tables: number; converted: number; skipped: { table: string; column: string; values: number; sample: string }[]; failed: unknown[] }> {
  if (fresh) await sql`delete from platform.jobs where kind = ${UUID_IDS_JOB}`.execute(t.database.db);
  await queueUuidIdsMigration(t.database.db);
  const [queued] = await engineSql<{ state: string }>(t, sql`select state from platform.jobs where kind = ${UUID_IDS_JOB} and engine_code = ${admin.engineCode}`);
  expect(queued!.state).toBe('Waiting');
  while (await t.app.extras.jobs.runOnce());
  const [job] = await engineSql<{ state: string; result: any }>(t, sql`select state, result from platform.jobs where kind = ${UUID_IDS_JOB} and engine_code = ${admin.engineCode}`);
  expect(job!.state).toBe('Finished');
  expect(job!.result.failed).toEqual([]);
  return job!.result;
}

describe('new form tables', () => {
  it('have uuid id columns from their first publish; filters with an id that is not a uuid answer no match, never an error', async () => {
    const code = await newForm(definition([{ type: 'textBox', code: 'Title' }]));
    const main = await mainOf(code);
    expect(await idTypes(main)).toEqual(['uuid', 'uuid', 'uuid', 'uuid', 'uuid']);
    expect((await tablesOf(code))[0]!.uuid_ids).toBe(true);
    await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Title: '甲' } });
    const me = (await a.post('/v1/form/loaddata', { schemaCode: code })).system.CreatedBy as string;
    expect(titles((await query(a, code, { field: 'OwnerId', operator: 'Equal', value: me })).body)).toEqual(['甲']);
    for (const filter of [
      { field: 'OwnerId', operator: 'Equal', value: 'not-a-uuid' }, { field: 'CreatedBy', operator: 'In', value: ['x', ''] },
      { field: 'OwnerDeptId', operator: 'Contains', value: 'nowhere' }, { field: 'WorkflowInstanceId', operator: 'Equal', value: "1' or '1'='1" },
      { field: 'ModifiedBy', operator: 'Equal', value: me.toUpperCase().slice(0, 35) },
    ]) {
      const r = await query(a, code, filter);
      expect(r.status, JSON.stringify(filter)).toBe(200);
      expect(r.body, JSON.stringify(filter)).toMatchObject({ successful: true, data: { total: 0 } });
    }
    // Not-equal and not-in with such a value keep every record, as they did on text columns.
    expect(titles((await query(a, code, { field: 'OwnerId', operator: 'NotIn', value: ['nobody'] })).body)).toEqual(['甲']);
    // The record's own key is still checked: a wrong one is the caller's mistake (777).
    expect((await query(a, code, { field: 'ObjectId', operator: 'Equal', value: 'nope' })).body).toMatchObject({ successful: false, errorCode: 777 });
  });
});

describe('the job that converts an engine made before the change', () => {
  it('converts every table with every record, sub-table row, file and flow reference intact; reads and writes go on', async () => {
    const refCode = await newForm(definition([{ type: 'textBox', code: 'Title' }]));
    const { code } = await approvalForm(a, appCode, everyControl(refCode));
    await grant(a, code, member.userId, 'create');
    await asBeforeTheChange(refCode);
    await asBeforeTheChange(code);
    const main = await mainOf(code);

    // Written by the code on the text columns, as an engine before the change holds them.
    const ref = await a.post('/v1/form/action/execute', { schemaCode: refCode, actionCode: 'Submit', values: { Title: '被引用' } });
    const [file, photo, sign, itemFile] = [await upload('合同.pdf'), await upload('a.png', 'image'), await upload('sign.png', 'handSign'), await upload('明细.txt')];
    const values = {
      Title: '完整', Notes: '第一行\n第二行', Amount: 12.5, When: '2024-03-05T02:30:00.000Z', Level: '高', Tags: ['红', '蓝'], City: '上海', Done: true,
      Addr: { adcode: '310101', adname: '上海市黄浦区', detail: '南京东路1号' }, Loc: { address: '外滩', point: { lat: 31.24, lng: 121.49 } },
      Person: member.userId, Team: [member.userId], Dept: deptId, Depts: [deptId], Ref: ref.objectId, Refs: [ref.objectId], Codes: ['A1', 'A2'],
      Dyn: { k: [1, 2] }, Plug: 'x', Files: [file], Photos: [photo], Sign: sign,
    };
    const full = await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values, children: { Items: [{ ItemName: '螺丝', Qty: 3, ItemUser: member.userId, ItemFiles: [itemFile] }, { ItemName: '螺母', Qty: 4 }] } });
    await m.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', values: { Title: '成员的' } });
    const flowId = (await engineSql<{ id: string }>(t, sql`select "WorkflowInstanceId"::text as id from ${tableRef(admin.engineCode, main)} where "ObjectId" = ${full.objectId}`))[0]!.id;
    expect(flowId).toMatch(/^[0-9a-f-]{36}$/);
    // Reads on the text shape: the owner, the caller's department, and the scoped list of a member.
    expect(titles((await query(a, code, { field: 'OwnerDeptId', operator: 'Dynamic', value: 'MyDepartment' })).body)).toEqual(['完整']);
    expect(titles((await query(m, code, { field: 'OwnerDeptId', operator: 'Dynamic', value: 'MyDepartment' })).body)).toEqual(['成员的']);

    const rowsBefore = await storedRows(code);
    const loadedBefore = await a.post('/v1/form/loaddata', { schemaCode: code, objectId: full.objectId });
    const listBefore = (await query(a, code)).body.data.list;

    const result = await runJob();
    expect(result.skipped).toEqual([]);
    expect(result.converted).toBeGreaterThanOrEqual(3);
    expect(await idTypes(main)).toEqual(['uuid', 'uuid', 'uuid', 'uuid', 'uuid']);
    expect(await idTypes(await mainOf(refCode))).toEqual(['uuid', 'uuid', 'uuid', 'uuid', 'uuid']);
    expect((await tablesOf(code)).every((r) => r.uuid_ids)).toBe(true);

    // Every stored row the same (a uuid's JSON is its text), every read the same.
    expect(await storedRows(code)).toEqual(rowsBefore);
    expect(await a.post('/v1/form/loaddata', { schemaCode: code, objectId: full.objectId })).toEqual(loadedBefore);
    expect((await query(a, code)).body.data.list).toEqual(listBefore);
    expect(await download(file.id)).toBe('bytes of 合同.pdf');
    expect(await download(itemFile.id)).toBe('bytes of 明细.txt');
    const info = await a.get('/v1/workflow/instance/info', { schemaCode: code, objectId: full.objectId });
    expect(info.instance).toMatchObject({ instanceId: flowId, name: '完整' });
    const refOf = await a.post('/v1/form/loaddata', { schemaCode: code, objectId: full.objectId });
    expect(refOf.values).toMatchObject({ Ref: ref.objectId, Refs: [ref.objectId], Person: member.userId, Dept: deptId });

    // Writes and the reads that compare the converted columns.
    await m.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', values: { Title: '转换后' } });
    expect(titles((await query(m, code, { field: 'OwnerDeptId', operator: 'Dynamic', value: 'MyDepartment' })).body)).toEqual(['成员的', '转换后']);
    expect(titles((await query(m, code, { field: 'OwnerId', operator: 'Dynamic', value: 'CurrentUser' })).body)).toEqual(['成员的', '转换后']);
    expect(titles((await query(a, code, { field: 'OwnerDeptId', operator: 'Dynamic', value: 'MyDepartmentAndSub' })).body)).toEqual(['完整', '成员的', '转换后']);
    expect(titles((await query(a, code, { field: 'OwnerDeptId', operator: 'Contains', value: deptId })).body)).toEqual(['成员的', '转换后']);
    expect(titles((await query(a, code, { field: 'CreatedBy', operator: 'Equal', value: 'legacy' })).body)).toEqual([]);
    const count = await a.raw('POST', '/v1/bizdata/count', { schemaCode: code, filter: { field: 'OwnerId', operator: 'NotEqual', value: member.userId } });
    expect(count.body).toMatchObject({ successful: true, data: { total: 1 } });
  });

  it('leaves a table holding a text that is not a uuid as text, reports it, and keeps reading and writing it', async () => {
    const code = await newForm(definition([{ type: 'textBox', code: 'Title' }]));
    await asBeforeTheChange(code);
    const main = await mainOf(code);
    await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Title: '外来' } });
    await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Title: '空的' } });
    await sql`update ${tableRef(admin.engineCode, main)} set "ModifiedBy" = 'erp:0042' where "Title" = '外来'`.execute(t.database.db);
    await sql`update ${tableRef(admin.engineCode, main)} set "WorkflowInstanceId" = '' where "Title" = '空的'`.execute(t.database.db);

    const result = await runJob();
    expect(result.skipped).toEqual([{ table: main, schemaCode: code, column: 'ModifiedBy', values: 1, sample: 'erp:0042' }]);
    expect(await idTypes(main)).toEqual(['text', 'text', 'text', 'text', 'text']);
    expect((await tablesOf(code))[0]!.uuid_ids).toBe(false);
    // The text shape as before: the stored text is found, a save writes.
    expect(titles((await query(a, code, { field: 'ModifiedBy', operator: 'Equal', value: 'erp:0042' })).body)).toEqual(['外来']);
    expect((await a.raw('POST', '/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Title: '新的' } })).body.successful).toBe(true);
    // Once the value is put right the next start queues the job again (it skipped a table) and converts it, the
    // empty text becoming null; a job that converted everything is not queued again.
    await sql`update ${tableRef(admin.engineCode, main)} set "ModifiedBy" = "CreatedBy" where "Title" = '外来'`.execute(t.database.db);
    expect((await runJob(false)).skipped).toEqual([]);
    await queueUuidIdsMigration(t.database.db);
    expect((await engineSql<{ state: string }>(t, sql`select state from platform.jobs where kind = ${UUID_IDS_JOB} and engine_code = ${admin.engineCode}`))[0]!.state).toBe('Finished');
    expect(await idTypes(main)).toEqual(['uuid', 'uuid', 'uuid', 'uuid', 'uuid']);
    const [row] = await engineSql<{ w: string | null }>(t, sql`select "WorkflowInstanceId"::text as w from ${tableRef(admin.engineCode, main)} where "Title" = '空的'`);
    expect(row!.w).toBeNull();
    expect(titles((await query(a, code)).body)).toEqual(['外来', '新的', '空的']);
  });

  it('killed between two tables, its next run converts the rest and none twice', async () => {
    const codes = [await newForm(definition([{ type: 'textBox', code: 'Title' }])), await newForm(definition([{ type: 'textBox', code: 'Title' }]))];
    for (const code of codes) {
      await asBeforeTheChange(code);
      await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Title: code } });
    }
    const pending = async () => (await engineSql<{ n: number }>(t, sql`select count(*)::int as n from ${tableRef(admin.engineCode, 'form_tables')} where not uuid_ids`))[0]!.n;
    const before = await pending();
    expect(before).toBeGreaterThanOrEqual(2);
    const progress: string[] = [];
    const ctx = (lostAfter: number): JobContext => ({
      db: t.database.db, jobId: 'uuid-ids-test', engineCode: admin.engineCode, payload: {}, attempt: 1, createdBy: null,
      assertOwned: async () => undefined,
      // The process's lease lost after `lostAfter` tables, as when it dies: the runner stops the job there.
      reportProgress: async (p, message) => {
        progress.push(`${Math.round(p)} ${message}`);
        if (progress.length >= lostAfter) throw new JobLostError('uuid-ids-test');
      },
    });
    await expect(uuidIdsHandler().run(ctx(1))).rejects.toBeInstanceOf(JobLostError);
    expect(await pending()).toBe(before - 1);
    expect(progress[0]).toMatch(new RegExp(`^\\d+ 1/${before} i_`));
    const resumed = (await uuidIdsHandler().run(ctx(Infinity))) as { tables: number; converted: number };
    expect(resumed).toMatchObject({ tables: before - 1, converted: before - 1 });
    expect(await pending()).toBe(0);
    for (const code of codes) {
      expect(await idTypes(await mainOf(code))).toEqual(['uuid', 'uuid', 'uuid', 'uuid', 'uuid']);
      expect(titles((await query(a, code)).body)).toEqual([code]);
    }
  });
});
