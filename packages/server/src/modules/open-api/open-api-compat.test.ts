import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { registerPerson, type TestApp } from '../../../test/helpers.ts';
import { FunctionNodeType, addMember, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { companyIdOf, orgClient } from '../../../test/org-helpers.ts';
import { adminWithApp, createForm, definition, engineSql, publish, tableRef } from '../../../test/form-helpers.ts';
import { issueSecret } from '../../../test/open-api-helpers.ts';

// The open API as the public clients speak it (h3yun-facts §1.4–§1.6; docs/decisions/0030), on PGlite and
// PostgreSQL. Each client's bytes are rebuilt as it sends them: the Python client (requests: json= with ASCII
// escapes and ", " / ": " separators, BizObject compact without escapes, IsSubmit "true"/"false", a hand-built
// multipart upload, a form-encoded download), the official C# SDK (Newtonsoft, lower-case path, charset), the PHP
// client (json_encode: \uXXXX and \/ escapes, IsSubmit a boolean, Filter a string) and a Java download (JSON body).

let t: TestApp, admin: Person, a: OrgClient, secret: string, plain: string, flow: string;
let app: string;
let owner: Person & { userId: string }, approver: Person & { userId: string }, deptId: string, outsider: string;

// ---- the clients -------------------------------------------------------------------------------------------------

const asciiEscape = (s: string) => s.replace(/[\u007f-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
/** Python's json.dumps(value) (ensure_ascii, separators ", " and ": "). */
function pyDumps(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pyDumps).join(', ')}]`;
  if (value && typeof value === 'object') return `{${Object.entries(value).map(([k, v]) => `${asciiEscape(JSON.stringify(k))}: ${pyDumps(v)}`).join(', ')}}`;
  return asciiEscape(JSON.stringify(value));
}
/** PHP's json_encode(value) (\uXXXX and \/ escapes, no spaces). */
const phpEncode = (value: unknown) => asciiEscape(JSON.stringify(value)).replace(/\//g, '\\/');
/** Python: json.dumps(biz, ensure_ascii=False, separators=(",", ":")) — what the client puts in BizObject. */
const pyCompact = (value: unknown) => JSON.stringify(value);

type Reply = { status: number; body: any; raw: Buffer; headers: Record<string, unknown> };
async function send(url: string, headers: Record<string, string>, payload: string | Buffer): Promise<Reply> {
  const res = await t.app.inject({ method: 'POST', url, headers, payload });
  let body: unknown = null;
  try {
    body = res.json();
  } catch {
    body = null;
  }
  return { status: res.statusCode, body, raw: res.rawPayload, headers: res.headers };
}
const auth = () => ({ EngineCode: admin.engineCode, EngineSecret: secret });

/** h3yun's Python client: invoke(action, params). */
const python = (action: string, params: Record<string, unknown>) =>
  send('/OpenApi/Invoke', { 'Content-Type': 'application/json', ...auth() }, pyDumps({ ActionName: action, ...params }));
/** The official C# SDK (H3YunAPI.cs): Newtonsoft body, lower-case path, UTF-8 StringContent. */
const csharp = (params: Record<string, unknown>) =>
  send('/openapi/invoke', { 'content-type': 'application/json; charset=utf-8', ...auth() }, JSON.stringify(params));
/** The PHP (Hyperf) client: Guzzle json option. */
const php = (params: Record<string, unknown>) => send('/OpenApi/Invoke', { 'Content-Type': 'application/json', ...auth() }, phpEncode(params));

/** A client posting form parameters (Guzzle form_params: PHP's http_build_query, lists as `Key[0]=`). */
function phpForm(params: Record<string, unknown>) {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) {
    if (Array.isArray(v)) v.forEach((x, i) => q.append(`${k}[${i}]`, String(x)));
    else q.append(k, typeof v === 'boolean' ? (v ? '1' : '0') : String(v));
  }
  return send('/OpenApi/Invoke', { 'Content-Type': 'application/x-www-form-urlencoded', ...auth() }, q.toString());
}

/** The Python client's upload_attachment: a hand-built multipart body, the target in the query string. */
function pythonUpload(schemaCode: string, bizObjectId: string, property: string, fileName: string, content: Buffer, contentType = 'application/octet-stream', field = 'media') {
  const boundary = `----------${Date.now().toString(16)}`;
  const body = Buffer.concat([
    Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`, 'utf8'),
    content,
    Buffer.from(`\r\n--${boundary}--\r\n`, 'ascii'),
  ]);
  const query = new URLSearchParams({ SchemaCode: schemaCode, FilePropertyName: property, BizObjectId: bizObjectId });
  return send(`/OpenApi/UploadAttachment?${query}`, { 'Content-Type': `multipart/form-data; boundary=${boundary}`, ...auth() }, body);
}
/** The Python client's download_attachment: form-encoded attachmentId and EngineCode. */
const pythonDownload = (attachmentId: string, headers = auth()) =>
  send('/Api/DownloadBizObjectFile', { 'Content-Type': 'application/x-www-form-urlencoded', ...headers }, new URLSearchParams({ attachmentId, EngineCode: headers.EngineCode }).toString());

// ---- the organisation, forms and flow ----------------------------------------------------------------------------

const PLAIN = definition([
  { type: 'textBox', code: 'Title' },
  { type: 'checkboxList', code: 'Tags', options: { defaultItems: ['红', '绿', '蓝'] } },
  { type: 'number', code: 'Amount' },
  { type: 'attachment', code: 'Files' },
  { type: 'attachment', code: 'Small', options: { maxUploadSize: 1 } },
]);

beforeAll(async () => {
  let appCode: string;
  ({ t, admin, a, appCode } = await adminWithApp());
  app = appCode;
  const org = orgClient(t.app, admin);
  deptId = (await org.post('/v1/org/department/create', { parentId: await companyIdOf(t, admin.engineCode), name: '销售部' })).id;
  owner = await addMember(t, admin, { name: '业务员', departmentIds: [deptId] });
  approver = await addMember(t, admin, { name: '审批人' });
  outsider = (await registerPerson(t.app, { engineName: '另一家公司' })).engineCode;
  plain = (await createForm(a, appCode, { code: 'D000100compat' })).code as string;
  await publish(a, plain, PLAIN);
  flow = (await createForm(a, appCode, { displayName: '报销' }, FunctionNodeType.WorkflowModule)).code as string;
  await publish(a, flow, definition([{ type: 'textBox', code: 'Title', options: { required: true } }, { type: 'number', code: 'Amount' }, { type: 'attachment', code: 'Files' }]));
  const template = {
    activities: [
      { type: 'Start', code: 'Start', name: '发起' },
      { type: 'Approve', code: 'A', name: '审批', participants: { sources: [{ type: 'users', ids: [approver.userId] }] } },
      { type: 'End', code: 'End', name: '结束' },
    ],
    routes: [{ from: 'Start', to: 'A' }, { from: 'A', to: 'End' }],
  };
  await a.post('/v1/workflow/template/save', { schemaCode: flow, template });
  await a.post('/v1/workflow/template/publish', { schemaCode: flow });
  secret = (await issueSecret(a)).value;
});
afterAll(() => t.close());

const rowsOf = (code: string, where = sql`true`) =>
  engineSql<{ ObjectId: string; Title: string | null; Status: number; OwnerId: string; OwnerDeptId: string | null; CreatedBy: string; WorkflowInstanceId: string | null }>(
    t,
    sql`select * from ${tableRef(admin.engineCode, `i_${code.toLowerCase()}`)} where ${where}`,
  );
const instanceOf = async (id: string) => (await engineSql<{ id: string; originator: string; state: string }>(t, sql`select * from ${tableRef(admin.engineCode, 'wf_instances')} where id = ${id}`))[0];
const itemsOf = (instanceId: string) =>
  engineSql<{ id: string; activity_code: string; participant: string; finisher: string | null; state: string }>(
    t,
    sql`select * from ${tableRef(admin.engineCode, 'wf_work_items')} where instance_id = ${instanceId} order by created_time, sort`,
  );

// ---- the tests ---------------------------------------------------------------------------------------------------

describe('every operator code, with string-encoded Filters', () => {
  const titles = async (matcher: Record<string, unknown>, client: 'python' | 'php' = 'python') => {
    const filter = { FromRowNum: 0, ToRowNum: 500, RequireCount: false, ReturnItems: [], SortByCollection: [{ ItemName: 'Amount', Direction: 'Ascending' }], Matcher: matcher };
    const res = client === 'python'
      ? await python('LoadBizObjects', { SchemaCode: plain, Filter: pyCompact(filter) })
      : await php({ ActionName: 'LoadBizObjects', SchemaCode: plain, Filter: phpEncode(filter) });
    expect(res.body.ErrorMessage, JSON.stringify(matcher)).toBeNull();
    return res.body.ReturnData.BizObjectArray.map((r: { Amount: number }) => r.Amount);
  };
  const item = (Name: string, Operator: number, Value?: unknown) => ({ Type: 'Item', Name, Operator, ...(Value === undefined ? {} : { Value }) });

  beforeAll(async () => {
    const rows = [
      { Title: '甲公司', Tags: '红;绿', Amount: 1 },
      { Title: '乙公司', Tags: '绿', Amount: 2 },
      { Title: '50%折扣', Tags: '蓝;红', Amount: 3 },
      { Title: 'a_b商店', Tags: '', Amount: 4 },
      { Title: '', Amount: 5 },
      { Amount: 6 },
    ];
    const res = await python('CreateBizObjects', { SchemaCode: plain, BizObjectArray: rows.map(pyCompact), IsSubmit: 'true' });
    expect(res.body.ReturnData.BizObjectIdArray).toHaveLength(6);
  });

  it('compares with 0–5 and lists with 6, 7', async () => {
    expect(await titles(item('Amount', 0, '4'))).toEqual([5, 6]);
    expect(await titles(item('Amount', 1, 4))).toEqual([4, 5, 6]);
    expect(await titles(item('Amount', 2, '2'))).toEqual([2]);
    expect(await titles(item('Amount', 3, 2))).toEqual([1, 2]);
    expect(await titles(item('Amount', 4, 2))).toEqual([1]);
    expect(await titles(item('Amount', 5, 1))).toEqual([2, 3, 4, 5, 6]);
    expect(await titles(item('Title', 6, ['甲公司', '乙公司']))).toEqual([1, 2]);
    expect(await titles(item('Title', 7, ['甲公司', '乙公司']))).toEqual([3, 4, 5, 6]);
  });

  it('contains, starts and ends with (8, 13, 14, 22, 23, 24), LIKE wildcards taken literally', async () => {
    expect(await titles(item('Title', 8, '公司'))).toEqual([1, 2]);
    expect(await titles(item('Title', 24, '公司'))).toEqual([3, 4, 5, 6]);
    expect(await titles(item('Title', 13, '甲'))).toEqual([1]);
    expect(await titles(item('Title', 13, '50%'))).toEqual([3]);
    expect(await titles(item('Title', 13, 'a%'))).toEqual([]); // % is a character here, not "anything"
    expect(await titles(item('Title', 13, 'A_'))).toEqual([4]); // _ literal; case-insensitive like Contains
    expect(await titles(item('Title', 14, '商店'))).toEqual([4]);
    expect(await titles(item('Title', 14, '_商店'))).toEqual([]); // "b商店" does not end with a literal "_商店"
    expect(await titles(item('Title', 14, '%折扣'))).toEqual([3]);
    expect(await titles(item('Title', 22, '甲'))).toEqual([2, 3, 4, 5, 6]);
    expect(await titles(item('Title', 23, '公司'))).toEqual([3, 4, 5, 6]);
    // The same through the PHP client's escapes (\u and \/), and the code sent as a string.
    expect(await titles(item('Title', 14, '公司'), 'php')).toEqual([1, 2]);
    expect(await titles({ Type: 'Item', Name: 'Title', Operator: '13', Value: '乙' }, 'php')).toEqual([2]);
  });

  it('blanks with 18–21', async () => {
    for (const code of [18, 20]) expect(await titles(item('Title', code))).toEqual([5, 6]);
    for (const code of [19, 21]) expect(await titles(item('Title', code))).toEqual([1, 2, 3, 4]);
  });

  it('checkbox lists travel as "a;b": Equal is the whole set, In and Contains go item by item', async () => {
    expect(await titles(item('Tags', 2, '红;绿'))).toEqual([1]);
    expect(await titles(item('Tags', 2, '绿;红'))).toEqual([1]); // a set: the order does not matter
    expect(await titles(item('Tags', 2, '绿'))).toEqual([2]);
    expect(await titles(item('Tags', 5, '绿'))).toEqual([1, 3, 4, 5, 6]);
    expect(await titles(item('Tags', 6, '红;蓝'))).toEqual([1, 3]);
    expect(await titles(item('Tags', 6, ['绿']))).toEqual([1, 2]);
    expect(await titles(item('Tags', 6, ['蓝;红', '绿']))).toEqual([1, 2, 3]);
    expect(await titles(item('Tags', 7, '红'))).toEqual([2, 4, 5, 6]);
    expect(await titles(item('Tags', 8, '红'))).toEqual([1, 3]);
    expect(await titles(item('Tags', 8, '红;绿'))).toEqual([1]);
    expect(await titles(item('Tags', 24, '红'))).toEqual([2, 4, 5, 6]);
    expect(await titles(item('Tags', 13, '蓝'))).toEqual([3]);
    expect(await titles(item('Tags', 14, '绿'))).toEqual([1, 2]);
    expect(await titles(item('Tags', 18))).toEqual([4, 5, 6]);
    const one = await python('LoadBizObjects', { SchemaCode: plain, Filter: pyCompact({ Matcher: item('Amount', 2, 1) }) });
    expect(one.body.ReturnData.BizObjectArray[0].Tags).toBe('红;绿');
  });
});

describe('CreateBizObject: OwnerId and IsSubmit', () => {
  it('on a data form: IsSubmit false keeps a Draft, true makes it Effective; OwnerId sets the owner and department', async () => {
    const draft = await python('CreateBizObject', { SchemaCode: plain, BizObject: pyCompact({ Title: '草稿', OwnerId: owner.userId }), IsSubmit: 'false' });
    const done = await csharp({ ActionName: 'CreateBizObject', SchemaCode: plain, BizObject: JSON.stringify({ Title: '生效' }), IsSubmit: 'true' });
    const byPhp = await php({ ActionName: 'CreateBizObject', SchemaCode: plain, BizObject: phpEncode({ Title: 'PHP/生效', OwnerId: owner.userId }), IsSubmit: true });
    for (const r of [draft, done, byPhp]) expect(r.body).toMatchObject({ Successful: true, ReturnData: { WorkflowInstanceId: '' } });
    const [d] = await rowsOf(plain, sql`"ObjectId" = ${draft.body.ReturnData.BizObjectId}`);
    expect(d).toMatchObject({ Status: 0, OwnerId: owner.userId, OwnerDeptId: deptId, CreatedBy: (await rowsOf(plain, sql`"ObjectId" = ${done.body.ReturnData.BizObjectId}`))[0].CreatedBy });
    const [e] = await rowsOf(plain, sql`"ObjectId" = ${done.body.ReturnData.BizObjectId}`);
    expect(e.Status).toBe(1);
    expect(e.OwnerId).not.toBe(owner.userId); // none named: the secret's Administrator
    const [p] = await rowsOf(plain, sql`"ObjectId" = ${byPhp.body.ReturnData.BizObjectId}`);
    expect(p).toMatchObject({ Title: 'PHP/生效', Status: 1, OwnerId: owner.userId, OwnerDeptId: deptId });
    // LoadBizObject answers the owner.
    const loaded = await python('LoadBizObject', { SchemaCode: plain, BizObjectId: draft.body.ReturnData.BizObjectId });
    expect(loaded.body.ReturnData.BizObject).toMatchObject({ OwnerId: owner.userId, OwnerDeptId: deptId });
  });

  it('takes form-encoded calls too: BizObject and Filter strings, BizObjectArray as Key[n]', async () => {
    const made = await phpForm({ ActionName: 'CreateBizObjects', SchemaCode: plain, BizObjectArray: [phpEncode({ Title: '表单1', Tags: '红;蓝' }), phpEncode({ Title: '表单2' })], IsSubmit: 'true' });
    expect(made.body).toMatchObject({ Successful: true });
    expect(made.body.ReturnData.BizObjectIdArray).toHaveLength(2);
    const one = await phpForm({ ActionName: 'CreateBizObject', SchemaCode: plain, BizObject: phpEncode({ Title: '表单3', OwnerId: owner.userId }), IsSubmit: 'false' });
    expect((await rowsOf(plain, sql`"ObjectId" = ${one.body.ReturnData.BizObjectId}`))[0]).toMatchObject({ Status: 0, OwnerId: owner.userId });
    const read = await phpForm({ ActionName: 'LoadBizObjects', SchemaCode: plain, Filter: phpEncode({ FromRowNum: 0, ToRowNum: 10, RequireCount: true, Matcher: { Type: 'Item', Name: 'Title', Operator: 13, Value: '表单' } }) });
    expect(read.body.ReturnData.TotalCount).toBe(3);
    expect(read.body.ReturnData.BizObjectArray.find((r: { Title: string }) => r.Title === '表单1').Tags).toBe('红;蓝');
  });

  it('refuses an OwnerId that is not an active user of the engine, writing nothing', async () => {
    const before = (await rowsOf(plain)).length;
    const outsiderId = (await engineSql<{ id: string }>(t, sql`select id from ${tableRef(outsider, 'org_users')} limit 1`))[0].id;
    for (const ownerId of ['<userId>', '0190f3a0-0000-7000-8000-000000000000', outsiderId, 42]) {
      const res = await python('CreateBizObject', { SchemaCode: plain, BizObject: pyCompact({ Title: 'x', OwnerId: ownerId }), IsSubmit: 'true' });
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ Successful: false, ErrorCode: 320100, ReturnData: null });
      expect(res.body.ErrorMessage).toContain('BizObject.OwnerId');
    }
    const batch = await python('CreateBizObjects', { SchemaCode: flow, BizObjectArray: [pyCompact({ Title: '好' }), pyCompact({ Title: '坏', OwnerId: outsiderId })], IsSubmit: 'true' });
    expect(batch.body).toMatchObject({ Successful: false, ErrorCode: 320100 });
    expect(batch.body.ErrorMessage).toContain('BizObjectArray.1.OwnerId');
    expect((await rowsOf(plain)).length).toBe(before);
    expect(await rowsOf(flow, sql`"Title" = '好'`)).toEqual([]);
    // Update moves the owner, or refuses the same way.
    const id = (await rowsOf(plain))[0].ObjectId;
    expect((await python('UpdateBizObject', { SchemaCode: plain, BizObjectId: id, BizObject: pyCompact({ OwnerId: outsiderId }) })).body.ErrorCode).toBe(320100);
    expect((await python('UpdateBizObject', { SchemaCode: plain, BizObjectId: id, BizObject: pyCompact({ OwnerId: owner.userId }) })).body.Successful).toBe(true);
    expect((await rowsOf(plain, sql`"ObjectId" = ${id}`))[0]).toMatchObject({ OwnerId: owner.userId, OwnerDeptId: deptId });
  });

  it('on a workflow form: IsSubmit false parks a running instance on the start node, with the owner as originator', async () => {
    const res = await python('CreateBizObject', { SchemaCode: flow, BizObject: pyCompact({ Title: '待提交', Amount: 10, OwnerId: owner.userId }), IsSubmit: 'false' });
    expect(res.body.Successful).toBe(true);
    const { BizObjectId, WorkflowInstanceId } = res.body.ReturnData;
    expect(WorkflowInstanceId).toMatch(/^[0-9a-f-]{36}$/);
    const [row] = await rowsOf(flow, sql`"ObjectId" = ${BizObjectId}`);
    // Running (Status 2), not a draft: the instance runs and waits on its start node.
    expect(row).toMatchObject({ Status: 2, WorkflowInstanceId, OwnerId: owner.userId, OwnerDeptId: deptId });
    expect(await instanceOf(WorkflowInstanceId)).toMatchObject({ originator: owner.userId, state: 'Running' });
    const items = await itemsOf(WorkflowInstanceId);
    expect(items.map((i) => [i.activity_code, i.participant, i.finisher])).toEqual([['Start', owner.userId, null]]);
    // The owner finds it to submit: the start item is theirs and open; their submit moves the flow on.
    expect(items[0].state).not.toMatch(/Finished/);
    await orgClient(t.app, owner).post('/v1/workflow/instance/submit', { workItemId: items[0].id });
    const after = await itemsOf(WorkflowInstanceId);
    expect(after.map((i) => [i.activity_code, i.participant, i.finisher])).toEqual([['Start', owner.userId, owner.userId], ['A', approver.userId, null]]);
    expect((await rowsOf(flow, sql`"ObjectId" = ${BizObjectId}`))[0].Status).toBe(2);
  });

  it('on a workflow form: IsSubmit true submits the start node as the owner, the flow waits on the next node', async () => {
    const res = await csharp({ ActionName: 'CreateBizObject', SchemaCode: flow, BizObject: JSON.stringify({ Title: '已提交', Amount: 20, OwnerId: owner.userId }), IsSubmit: 'true' });
    const { BizObjectId, WorkflowInstanceId } = res.body.ReturnData;
    expect(WorkflowInstanceId).toMatch(/^[0-9a-f-]{36}$/);
    expect((await rowsOf(flow, sql`"ObjectId" = ${BizObjectId}`))[0]).toMatchObject({ Status: 2, OwnerId: owner.userId, WorkflowInstanceId });
    expect(await instanceOf(WorkflowInstanceId)).toMatchObject({ originator: owner.userId, state: 'Running' });
    const items = await itemsOf(WorkflowInstanceId);
    expect(items.map((i) => [i.activity_code, i.participant, i.finisher])).toEqual([['Start', owner.userId, owner.userId], ['A', approver.userId, null]]);
    // The form's rules hold (Title is required), and a refused record starts no flow.
    const before = (await engineSql<{ n: number }>(t, sql`select count(*)::int as n from ${tableRef(admin.engineCode, 'wf_instances')}`))[0].n;
    const missing = await python('CreateBizObject', { SchemaCode: flow, BizObject: pyCompact({ Amount: 1 }), IsSubmit: 'true' });
    expect(missing.body).toMatchObject({ Successful: false, ErrorCode: 777 });
    expect(missing.body.ErrorMessage).toContain('BizObject.Title');
    expect((await engineSql<{ n: number }>(t, sql`select count(*)::int as n from ${tableRef(admin.engineCode, 'wf_instances')}`))[0].n).toBe(before);
    // Without OwnerId the secret's Administrator submits.
    const bare = await python('CreateBizObject', { SchemaCode: flow, BizObject: pyCompact({ Title: '无负责人' }), IsSubmit: 'true' });
    expect((await instanceOf(bare.body.ReturnData.WorkflowInstanceId)).originator).toBe((await rowsOf(flow, sql`"ObjectId" = ${bare.body.ReturnData.BizObjectId}`))[0].CreatedBy);
  });
});

describe("the Python client's two checks", () => {
  it('IsSubmit false on a workflow form answers a running record parked on its start node, not a draft', async () => {
    const res = await python('CreateBizObject', { SchemaCode: flow, BizObject: pyCompact({ Title: '检查一' }), IsSubmit: 'false' });
    const { BizObjectId, WorkflowInstanceId } = res.body.ReturnData;
    const loaded = await python('LoadBizObject', { SchemaCode: flow, BizObjectId });
    expect(loaded.body.ReturnData.BizObject).toMatchObject({ Status: 2, WorkflowInstanceId });
    expect((await instanceOf(WorkflowInstanceId)).state).toBe('Running');
    const items = await itemsOf(WorkflowInstanceId);
    expect(items.map((i) => [i.activity_code, i.finisher])).toEqual([['Start', null]]);
    expect(items[0].participant).toBe((await instanceOf(WorkflowInstanceId)).originator);
  });

  it('CreateBizObjects answers ReturnData.Successful and ReturnData.Count beside BizObjectIdArray, as the helper sums them', async () => {
    const batches = [[{ Title: '计数1' }, { Title: '计数2' }, { Title: '计数3' }], [{ Title: '计数4' }]];
    let created = 0;
    for (const [i, batch] of batches.entries()) {
      const res = await python('CreateBizObjects', { SchemaCode: i ? flow : plain, BizObjectArray: batch.map(pyCompact), IsSubmit: 'true' });
      expect(res.body.Successful).toBe(true);
      const data = res.body.ReturnData;
      expect(data).toMatchObject({ Successful: true, Count: batch.length });
      expect(data.BizObjectIdArray).toHaveLength(batch.length);
      if (data.Successful) created += data.Count;
    }
    expect(created).toBe(4);
  });
});

describe('CreateBizObjects on a workflow form', () => {
  it('starts and submits 100 flows (the Python client batches 100), answering every id in order', async () => {
    const items = Array.from({ length: 100 }, (_, i) => pyCompact({ Title: `批量${i}`, Amount: i, ...(i % 2 ? { OwnerId: owner.userId } : {}) }));
    const res = await python('CreateBizObjects', { SchemaCode: flow, BizObjectArray: items, IsSubmit: 'true' });
    expect(res.body).toMatchObject({ Successful: true, ErrorMessage: null });
    const ids: string[] = res.body.ReturnData.BizObjectIdArray;
    expect(ids).toHaveLength(100);
    const rows = new Map((await rowsOf(flow, sql`"Title" like '批量%'`)).map((r) => [r.ObjectId, r]));
    expect(rows.size).toBe(100);
    ids.forEach((id, i) => {
      expect(rows.get(id)).toMatchObject({ Title: `批量${i}`, Status: 2 });
      if (i % 2) expect(rows.get(id)!.OwnerId).toBe(owner.userId);
    });
    const instances = await engineSql<{ n: number; running: number; byOwner: number }>(
      t,
      sql`select count(*)::int as n, count(*) filter (where i.state = 'Running')::int as running, count(*) filter (where i.originator = ${owner.userId})::int as "byOwner"
          from ${tableRef(admin.engineCode, 'wf_instances')} i where i.object_id in (${sql.join(ids)})`,
    );
    expect(instances[0]).toEqual({ n: 100, running: 100, byOwner: 50 });
  });

  it('IsSubmit false parks each; a record refused part-way stops the call and answers the ids created before it', async () => {
    const parked = await php({ ActionName: 'CreateBizObjects', SchemaCode: flow, BizObjectArray: [phpEncode({ Title: '停1' }), phpEncode({ Title: '停2' })], IsSubmit: false });
    const states = await engineSql<{ state: string }>(t, sql`select state from ${tableRef(admin.engineCode, 'wf_instances')} where object_id in (${sql.join(parked.body.ReturnData.BizObjectIdArray)})`);
    expect(states.map((s) => s.state)).toEqual(['Running', 'Running']);
    expect((await rowsOf(flow, sql`"Title" in ('停1', '停2')`)).map((r) => r.Status)).toEqual([2, 2]);
    const res = await python('CreateBizObjects', { SchemaCode: flow, BizObjectArray: [pyCompact({ Title: '先1' }), pyCompact({ Title: '先2' }), pyCompact({ Title: 'x'.repeat(201) }), pyCompact({ Title: '后' })], IsSubmit: 'true' });
    expect(res.body).toMatchObject({ Successful: false, ErrorCode: 777 });
    expect(res.body.ErrorMessage).toContain('BizObjectArray.2');
    expect(res.body.ReturnData.BizObjectIdArray).toHaveLength(2);
    expect((await rowsOf(flow, sql`"Title" in ('先1', '先2', '后')`)).map((r) => r.Title).sort()).toEqual(['先1', '先2']);
  });
});

describe('attachments: upload, then download the same bytes', () => {
  it('uploads with the Python client into a record field and downloads form-encoded and as JSON', async () => {
    const record = (await python('CreateBizObject', { SchemaCode: plain, BizObject: pyCompact({ Title: '带附件' }), IsSubmit: 'true' })).body.ReturnData.BizObjectId;
    const content = Buffer.concat([randomBytes(300_000), Buffer.from('\r\n--not-the-boundary\r\n')]);
    const up = await pythonUpload(plain, record, 'Files', '合同 2026.pdf', content, 'application/pdf');
    expect(up.status).toBe(200);
    expect(up.body).toMatchObject({ Successful: true, ErrorMessage: null });
    const id = up.body.ReturnData.AttachmentId;
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    expect(up.body.AttachmentId).toBe(id);
    const second = (await pythonUpload(plain, record, 'Files', 'b.txt', Buffer.from('第二个'), 'text/plain')).body.ReturnData.AttachmentId;

    const bo = (await python('LoadBizObject', { SchemaCode: plain, BizObjectId: record })).body.ReturnData.BizObject;
    expect(bo.Files.map((f: { id: string; name: string; size: number }) => [f.id, f.name, f.size])).toEqual([[id, '合同 2026.pdf', content.length], [second, 'b.txt', 9]]);
    expect(bo.Status).toBe(1);

    const down = await pythonDownload(id);
    expect(down.status).toBe(200);
    expect(down.raw.equals(content)).toBe(true);
    expect(String(down.headers['content-type'])).toContain('application/pdf');
    expect(String(down.headers['content-disposition'])).toContain('attachment');
    // A Java client's JSON body (h3yun-pro-doc) reads the same file.
    const java = await send('/Api/DownloadBizObjectFile', { 'Content-Type': 'application/json', ...auth() }, JSON.stringify({ attachmentId: second, EngineCode: admin.engineCode }));
    expect(java.raw.toString('utf8')).toBe('第二个');
  });

  it('attaches to a running workflow record without moving it', async () => {
    const created = (await python('CreateBizObject', { SchemaCode: flow, BizObject: pyCompact({ Title: '流程附件' }), IsSubmit: 'true' })).body.ReturnData;
    const up = await pythonUpload(flow, created.BizObjectId, 'Files', 'scan.png', Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'image/png');
    expect(up.body.Successful).toBe(true);
    expect((await rowsOf(flow, sql`"ObjectId" = ${created.BizObjectId}`))[0].Status).toBe(2);
    expect((await pythonDownload(up.body.ReturnData.AttachmentId)).raw.equals(Buffer.from([0x89, 0x50, 0x4e, 0x47]))).toBe(true);
  });

  it('refuses a wrong target, a body without the media part, a wrong secret and unknown attachments, keeping nothing', async () => {
    const record = (await python('CreateBizObject', { SchemaCode: plain, BizObject: pyCompact({ Title: '附件错误' }) })).body.ReturnData.BizObjectId;
    const files = async () => (await engineSql<{ n: number }>(t, sql`select count(*)::int as n from ${tableRef(admin.engineCode, 'files')}`))[0].n;
    const before = await files();
    const cases: [Promise<Reply>, number][] = [
      [pythonUpload(plain, record, 'Title', 'a.txt', Buffer.from('x')), 320101],
      [pythonUpload(plain, record, 'Nope', 'a.txt', Buffer.from('x')), 320101],
      [pythonUpload(plain, '0190f3a0-0000-7000-8000-000000000000', 'Files', 'a.txt', Buffer.from('x')), 250001],
      [pythonUpload('NoSuchForm', record, 'Files', 'a.txt', Buffer.from('x')), 230001],
      [pythonUpload(plain, record, 'Files', 'a.txt', Buffer.from('x'), 'text/plain', 'file'), 320102],
      [send(`/OpenApi/UploadAttachment?SchemaCode=${plain}&FilePropertyName=Files&BizObjectId=${record}`, { 'Content-Type': 'application/octet-stream', ...auth() }, Buffer.from('raw')), 320102],
    ];
    for (const [call, code] of cases) {
      const res = await call;
      expect(res.status, String(code)).toBe(200);
      expect(res.body, String(code)).toMatchObject({ Successful: false, ErrorCode: code });
    }
    expect(await files()).toBe(before);
    // Over the control's cap (1 MB): 413, refused while streaming, nothing kept.
    const big = await pythonUpload(plain, record, 'Small', 'big.bin', randomBytes(1024 * 1024 + 10));
    expect(big.status).toBe(413);
    expect(big.body).toMatchObject({ Successful: false, ErrorCode: 260002 });
    expect(await files()).toBe(before);
    expect((await pythonUpload(plain, record, 'Small', 'ok.bin', randomBytes(1000))).body.Successful).toBe(true);
    const noSecret = await send('/OpenApi/UploadAttachment?SchemaCode=x', { 'Content-Type': 'multipart/form-data; boundary=b', EngineCode: admin.engineCode, EngineSecret: 'nope' }, Buffer.from('--b--'));
    expect(noSecret.status).toBe(401);

    // Downloads refuse with a non-200 status, so a client never saves an error as the file.
    expect((await pythonDownload('0190f3a0-0000-7000-8000-000000000000')).status).toBe(404);
    expect((await pythonDownload('../../etc/passwd')).status).toBe(404);
    expect((await pythonDownload('0190f3a0-0000-7000-8000-000000000000', { EngineCode: admin.engineCode, EngineSecret: 'nope' })).status).toBe(401);
    const missing = await send('/Api/DownloadBizObjectFile', { 'Content-Type': 'application/x-www-form-urlencoded', ...auth() }, `EngineCode=${admin.engineCode}`);
    expect(missing.status).toBe(400);
    expect(missing.body).toMatchObject({ Successful: false, ErrorCode: 320003 });
  });

  it("never serves another engine's attachment", async () => {
    const other = await registerPerson(t.app, { engineName: '别家公司' });
    const otherSecret = (await issueSecret(orgClient(t.app, other))).value;
    const record = (await python('CreateBizObject', { SchemaCode: plain, BizObject: pyCompact({ Title: '本组织' }) })).body.ReturnData.BizObjectId;
    const id = (await pythonUpload(plain, record, 'Files', 'mine.txt', Buffer.from('mine'))).body.ReturnData.AttachmentId;
    const res = await pythonDownload(id, { EngineCode: other.engineCode, EngineSecret: otherSecret });
    expect(res.status).toBe(404);
    expect(res.raw.toString()).not.toContain('mine');
    expect((await pythonDownload(id)).raw.toString()).toBe('mine');
  });
});

describe('custom APIs through the clients’ generic invoke', () => {
  // An app's script (docs/decisions/0118) answers an ActionName none of the reserved ones names, SchemaCode the app.
  const SOURCE = `export const actions = {
  async QuoteOf(ctx: any, params: any) {
    const found = await ctx.records.query(${JSON.stringify('D000100compat')}, { pageSize: 1 });
    return { Customer: params.Customer, Discount: Number(params.Amount) > 1000 ? 0.9 : 1, Records: found.total };
  },
};`;

  it('answers the Python client’s invoke and the C# SDK with the script’s ReturnData', async () => {
    await a.post('/v1/codeeditor/save', { appCode: app, part: 'app-api', language: 'ts', source: SOURCE, baseVersion: 0 });
    const byPython = await python('QuoteOf', { SchemaCode: app, Customer: '华东贸易', Amount: '1500' });
    expect(byPython.body).toMatchObject({ Successful: true, ErrorMessage: null, ReturnData: { Customer: '华东贸易', Discount: 0.9 } });
    const byCsharp = await csharp({ ActionName: 'QuoteOf', SchemaCode: app, Customer: 'ACME', Amount: 10 });
    expect(byCsharp.body.ReturnData).toMatchObject({ Customer: 'ACME', Discount: 1 });
    const unknown = await python('NoSuchQuote', { SchemaCode: app });
    expect(unknown.body).toMatchObject({ Successful: false });
    const wrongKey = await send('/OpenApi/Invoke', { 'Content-Type': 'application/json', EngineCode: admin.engineCode, EngineSecret: 'wrong' }, JSON.stringify({ ActionName: 'QuoteOf', SchemaCode: app }));
    expect(wrongKey.body.Successful).toBe(false);
  });
});
