import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { type TestApp } from '../../../test/helpers.ts';
import { FunctionNodeType, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { createForm, definition, engineSql, publish, saveDraft, tableRef } from '../../../test/form-helpers.ts';
import { approvalForm, exportAll, importFile, portApp, rowsOfXlsx, task, uploadSheet, xlsxOf, type PortApp } from './data-port.fixtures.ts';
import { csvEncodingOf } from './file-rows.ts';

// Issue 10's second part (docs/decisions/0020): Effective imports into a workflow form make finished instances,
// Processing imports start the flows, business rules fire on Effective imports, sequence numbers taken as one block,
// exports that follow a list view, GBK-encoded .csv files. PGlite and PostgreSQL run the same file.

let t: TestApp, port: PortApp, admin: Person & { userId?: string }, a: OrgClient, appCode: string, adminId: string;

beforeAll(async () => {
  port = await portApp('tritium-port-flows-');
  ({ t, admin, a, appCode } = port);
});
afterAll(() => port.close());

const FIELDS = [
  { type: 'textBox', code: 'Title', options: { displayName: '标题' } },
  { type: 'number', code: 'Amount', options: { displayName: '金额' } },
];
const HEAD = ['标题', '金额'];

async function table(code: string) {
  return engineSql<{ ObjectId: string; Title: string; Status: number; SeqNo: string; WorkflowInstanceId: string | null }>(
    t,
    sql`select "ObjectId", "Title", "Status", "SeqNo", "WorkflowInstanceId" from ${tableRef(admin.engineCode, `i_${code.toLowerCase()}`)} order by "SeqNo"`,
  );
}

async function workflowForm(): Promise<string> {
  const form = await approvalForm(a, appCode, definition(FIELDS));
  adminId = form.approverId;
  return form.code;
}

describe('workflow forms', () => {
  it('an Effective import makes Effective records, each with a finished, approved instance', async () => {
    const code = await workflowForm();
    // Effective is also what an import that asks for no state takes when the form's flow is published.
    const done = await importFile(t, a, admin, code, await xlsxOf([HEAD, ['甲', 1], ['乙', 2], ['丙', 'x']]));
    expect(done).toMatchObject({ state: 'Finished', inserted: 2, rejected: 1, dataState: 'Effective' });
    const rows = await table(code);
    expect(rows.map((r) => [r.Title, r.Status])).toEqual([['甲', 1], ['乙', 1]]);
    for (const r of rows) {
      expect(r.WorkflowInstanceId).toBeTruthy();
      const info = await a.get('/v1/workflow/instance/info', { schemaCode: code, objectId: r.ObjectId });
      expect(info.instance).toMatchObject({ instanceId: r.WorkflowInstanceId, state: 'Finished', approval: 1, originator: adminId, name: r.Title });
      expect(info.myItems).toEqual([]);
    }
    const [items] = await engineSql<{ n: number }>(t, sql`select count(*)::int as n from ${tableRef(admin.engineCode, 'wf_work_items')} where "instance_id" in (${sql.join(rows.map((r) => r.WorkflowInstanceId))}) and state = 'Finished'`);
    expect(items!.n).toBe(2);
    // Nobody has anything to do: no open items, no reminders.
    const [open] = await engineSql<{ n: number }>(t, sql`select count(*)::int as n from ${tableRef(admin.engineCode, 'wf_work_items')} where "instance_id" in (${sql.join(rows.map((r) => r.WorkflowInstanceId))}) and state <> 'Finished'`);
    expect(open!.n).toBe(0);
  });

  it('a Processing import saves each record and starts its flow: Running, at the first approval node', async () => {
    const code = await workflowForm();
    const done = await importFile(t, a, admin, code, await xlsxOf([HEAD, ['丁', 3], ['戊', 4]]), { dataState: 'Processing' });
    expect(done).toMatchObject({ state: 'Finished', inserted: 2, rejected: 0, dataState: 'Processing' });
    const rows = await table(code);
    expect(rows.map((r) => [r.Title, r.Status])).toEqual([['丁', 2], ['戊', 2]]);
    for (const r of rows) {
      const info = await a.get('/v1/workflow/instance/info', { schemaCode: code, objectId: r.ObjectId });
      expect(info.instance).toMatchObject({ state: 'Running', runningActivities: ['A'] });
      expect(info.myItems).toHaveLength(1);
    }
    // The approver finishes one: it becomes Effective as any flow does.
    const info = await a.get('/v1/workflow/instance/info', { schemaCode: code, objectId: rows[0]!.ObjectId });
    await a.post('/v1/workflow/instance/submit', { workItemId: info.myItems[0].workItemId });
    expect((await table(code)).map((r) => r.Status)).toEqual([1, 2]);
  });

  it('an Effective upsert finishes Drafts with an instance, updates Effective records, refuses records in flow', async () => {
    const code = await workflowForm();
    await importFile(t, a, admin, code, await xlsxOf([HEAD, ['草稿', 1]]), { dataState: 'Draft' });
    await importFile(t, a, admin, code, await xlsxOf([HEAD, ['流转', 2]]), { dataState: 'Processing' });
    await importFile(t, a, admin, code, await xlsxOf([HEAD, ['生效', 3]]), { dataState: 'Effective' });
    const before = new Map((await table(code)).map((r) => [r.Title, r]));
    const done = await importFile(t, a, admin, code, await xlsxOf([HEAD, ['草稿', 10], ['流转', 20], ['生效', 30], ['新的', 40]]), { dataState: 'Effective', importType: 'Upsert', keyField: 'Title' });
    expect(done).toMatchObject({ inserted: 1, updated: 2, rejected: 1 });
    const after = new Map((await table(code)).map((r) => [r.Title, r]));
    expect([...after.values()].map((r) => [r.Title, r.Status])).toEqual([['草稿', 1], ['流转', 2], ['生效', 1], ['新的', 1]]);
    expect(after.get('草稿')!.WorkflowInstanceId).toBeTruthy();
    expect(after.get('生效')!.WorkflowInstanceId).toBe(before.get('生效')!.WorkflowInstanceId);
    const [instances] = await engineSql<{ n: number }>(t, sql`select count(*)::int as n from ${tableRef(admin.engineCode, 'wf_instances')} where schema_code = ${code} and state = 'Finished' and approval = 1`);
    expect(instances!.n).toBe(3);
  });

  it('Processing is refused for a form without a workflow; Effective or Processing needs a published flow', async () => {
    const plain = (await createForm(a, appCode)).code as string;
    await publish(a, plain, definition(FIELDS));
    const fileId = await uploadSheet(t, admin, 'a.xlsx', await xlsxOf([HEAD, ['甲', 1]]));
    expect((await a.raw('POST', '/v1/dataImport/addImportTask', { schemaCode: plain, fileId, dataState: 'Processing' })).body).toMatchObject({ errorCode: 300008 });
    const bare = (await createForm(a, appCode, { displayName: '无流程' }, FunctionNodeType.WorkflowModule)).code as string;
    await publish(a, bare, definition(FIELDS));
    const r = await a.raw('POST', '/v1/dataImport/addImportTask', { schemaCode: bare, fileId, dataState: 'Effective' });
    expect(r.body.successful).toBe(false);
    // A Draft import into it is fine: records without instances, as a Save makes them; asking for no state, it is one.
    expect(await importFile(t, a, admin, bare, await xlsxOf([HEAD, ['甲', 1]]), { dataState: 'Draft' })).toMatchObject({ inserted: 1 });
    expect(await importFile(t, a, admin, bare, await xlsxOf([HEAD, ['乙', 2]]))).toMatchObject({ inserted: 1, dataState: 'Draft' });
    expect((await table(bare)).map((r) => [r.Status, r.WorkflowInstanceId])).toEqual([[0, null], [0, null]]);
  });
});

describe('business rules and sequence numbers', () => {
  it('rules fire on records imported as Effective (not on Draft ones); a refused rule write refuses only its row', async () => {
    const trace = (await createForm(a, appCode, { displayName: '记录' })).code as string;
    await publish(a, trace, definition([{ type: 'textBox', code: 'Step' }, { type: 'number', code: 'N', options: { rangeRule: { min: 0 } } }]));
    const order = (await createForm(a, appCode, { displayName: '订单' })).code as string;
    const def = definition(FIELDS);
    await saveDraft(a, order, def);
    const saved = await a.post('/v1/form/businessrule/save', {
      schemaCode: order,
      rules: [{ id: 'E1', name: 'E1', on: 'effective', action: 'insert', targetSchemaCode: trace, mappings: [{ field: 'Step', value: { type: 'field', code: 'Title' } }, { field: 'N', value: { type: 'field', code: 'Amount' } }] }],
    });
    expect(saved.issues).toEqual([]);
    await publish(a, order, def);
    const done = await importFile(t, a, admin, order, await xlsxOf([HEAD, ['一', 1], ['二', -1], ['三', 3]]), { dataState: 'Effective' });
    expect(done).toMatchObject({ inserted: 2, rejected: 1 });
    const steps = async () => (await a.post('/v1/bizdata/query', { schemaCode: trace, pageIndex: 0, pageSize: 100, sort: [{ field: 'Step', direction: 'asc' }] })).list.map((r: { Step: string }) => r.Step);
    expect(await steps()).toEqual(['一', '三']);
    expect((await table(order)).map((r) => r.Title)).toEqual(['一', '三']);
    await importFile(t, a, admin, order, await xlsxOf([HEAD, ['四', 4]]), { dataState: 'Draft' });
    expect(await steps()).toEqual(['一', '三']);
  });

  it('numbers come as one block per batch, without gaps for refused rows, and a later save goes on from them', async () => {
    const code = (await createForm(a, appCode)).code as string;
    await publish(a, code, definition(FIELDS));
    await importFile(t, a, admin, code, await xlsxOf([HEAD, ['a', 1], ['b', 'x'], ['c', 3], ['d', 4]]));
    await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Save', values: { Title: 'e', Amount: 5 } });
    const seq = (await table(code)).map((r) => [r.Title, Number(r.SeqNo.slice(-8))]);
    expect(seq).toEqual([['a', 1], ['c', 2], ['d', 3], ['e', 4]]);
  });
});

describe('export by a list view', () => {
  it("follows the view's columns, fixed filter, quick search and sort; the caller's filter narrows further", async () => {
    const code = (await createForm(a, appCode)).code as string;
    await publish(a, code, definition([...FIELDS, { type: 'textBox', code: 'Note', options: { displayName: '备注' } }]));
    await a.post('/v1/view/designer/save', {
      schemaCode: code,
      views: [
        { code: 'Big', title: '大额', scope: 3, columns: [{ field: 'Amount' }, { field: 'Title' }], filter: { field: 'Amount', operator: 'NotBelow', value: 10 }, quickSearch: ['Title'], sort: [{ field: 'Amount', direction: 'desc' }] },
        { code: 'All', title: '全部', scope: 3, columns: [{ field: 'Title' }] },
      ],
    });
    await importFile(t, a, admin, code, await xlsxOf([[...HEAD, '备注'], ['小', 1, 'x'], ['中', 10, 'y'], ['大', 100, 'z'], ['大二', 50, 'w']]));
    const columns = await a.get(`/v2/dataPort/getExportColumns/${code}/Big`);
    expect(columns.viewCode).toBe('Big');
    expect(columns.columns.filter((c: { selected: boolean }) => c.selected).map((c: { code: string }) => c.code)).toEqual(['Amount', 'Title']);
    expect(columns.columns.slice(0, 2).map((c: { code: string }) => c.code)).toEqual(['Amount', 'Title']);
    const legacy = await a.get(`/v2/dataPort/getExportColumns/${code}/default`);
    expect(legacy.viewCode).toBeNull();
    expect(legacy.columns.filter((c: { selected: boolean }) => c.selected).map((c: { code: string }) => c.code)).toEqual(['SeqNo', 'Status', 'CreatedBy', 'CreatedTime', 'Title', 'Amount', 'Note']);

    const byView = await exportAll(t, a, code, { viewCode: 'Big' });
    expect(await rowsOfXlsx(byView.bytes)).toEqual([['金额', '标题'], [100, '大'], [50, '大二'], [10, '中']]);
    const searched = await exportAll(t, a, code, { viewCode: 'Big', keyword: '大', filter: { field: 'Amount', operator: 'Below', value: 90 } });
    expect(await rowsOfXlsx(searched.bytes)).toEqual([['金额', '标题'], [50, '大二']]);
    const chosen = await exportAll(t, a, code, { viewCode: 'Big', columns: ['Title', 'Note'] });
    expect(await rowsOfXlsx(chosen.bytes)).toEqual([['标题', '备注'], ['大', 'z'], ['大二', 'w'], ['中', 'y']]);
    expect((await a.raw('POST', '/v1/dataExport/addExportTask', { schemaCode: code, viewCode: 'Nope' })).body).toMatchObject({ errorCode: 290001 });
  });
});

/** GBK bytes of a text (the encoder built from the platform's GBK decoder; ASCII as is). */
function gbk(text: string): Buffer {
  const table = new Map<string, number[]>();
  const decoder = new TextDecoder('gbk');
  for (let hi = 0x81; hi <= 0xfe; hi++) {
    for (let lo = 0x40; lo <= 0xfe; lo++) {
      if (lo === 0x7f) continue;
      const ch = decoder.decode(Uint8Array.of(hi, lo));
      if (ch.length === 1 && !table.has(ch)) table.set(ch, [hi, lo]);
    }
  }
  const out: number[] = [];
  for (const ch of text) {
    if (ch.charCodeAt(0) < 0x80) out.push(ch.charCodeAt(0));
    else out.push(...table.get(ch)!);
  }
  return Buffer.from(out);
}

describe('GBK .csv', () => {
  it('a .csv saved in GBK imports with its Chinese intact; UTF-8 (with or without BOM) still does', async () => {
    expect(csvEncodingOf(gbk('标题,金额\n'))).toBe('gb18030');
    expect(csvEncodingOf(Buffer.from('标题,金额\n'))).toBe('utf-8');
    const code = (await createForm(a, appCode)).code as string;
    await publish(a, code, definition(FIELDS));
    const fileId = await uploadSheet(t, admin, '数据.csv', gbk('标题,金额\r\n张三丰,12\r\n李四,7\r\n'));
    const preview = await a.post('/v1/dataImport/preview', { schemaCode: code, fileId });
    expect(preview.headers).toEqual(['标题', '金额']);
    expect(preview.rows).toEqual([['张三丰', '12'], ['李四', '7']]);
    const { taskId } = await a.post('/v1/dataImport/addImportTask', { schemaCode: code, fileId });
    while (await t.app.extras.jobs.runOnce()) {
      // next
    }
    expect(await task(a, taskId)).toMatchObject({ state: 'Finished', inserted: 2 });
    await importFile(t, a, admin, code, Buffer.from('\uFEFF标题,金额\n王五,1\n'), {}, 'utf8.csv');
    expect((await table(code)).map((r) => r.Title)).toEqual(['张三丰', '李四', '王五']);
  });
});
