import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { TestApp } from '../../../test/helpers.ts';
import type { OrgClient, Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';
import { invokeApi, issueSecret } from '../../../test/open-api-helpers.ts';

// POST /OpenApi/Invoke (docs/decisions/0021) on PGlite and PostgreSQL: the reference file's payloads as written
// (h3yun-facts §1.4, §1.5), every action, the product's value formats, record rules through record.service, and
// errors in the product's envelope without SQL text. Operators, paging and the caps: open-api-query.test.ts.

let t: TestApp, admin: Person, a: OrgClient, secret: string, appCode: string;
const SCHEMA = 'D000024chuangjian';

const FORM = definition([
  { type: 'textBox', code: 'F0000002' },
  { type: 'multiUser', code: 'F0000009' },
  { type: 'checkboxList', code: 'Like', options: { defaultItems: ['选项1', '选项2', '选项3'] } },
  { type: 'number', code: 'Amount', options: { decimalPlaces: 2 } },
  { type: 'dateTime', code: 'Due' },
  { type: 'checkbox', code: 'Done' },
  { type: 'areaSelect', code: 'Area' },
  { type: 'textBox', code: 'Must', options: { required: false } },
  { type: 'gridView', code: 'D000024Fdetail123', controls: [{ type: 'textBox', code: 'zh' }] },
]);

const api = (payload: unknown) => invokeApi(t.app, admin.engineCode, secret, payload);

beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
  await createForm(a, appCode, { code: SCHEMA });
  await publish(a, SCHEMA, FORM);
  secret = (await issueSecret(a)).value;
  // The reference payloads name users id1, id2, id3 (h3yun-facts §1.4): users with those ids exist in this engine, since
  // ids that name nobody are refused (docs/decisions/0029).
  for (const [i, id] of ['id1', 'id2', 'id3', 'id9'].entries()) {
    await sql`insert into ${sql.table(`e_${admin.engineCode}.org_users`)} (id, name, mobile, auth_type) values (${id}, ${id}, ${`1390000000${i}`}, 1)`.execute(t.database.db);
  }
});
afterAll(() => t.close());

describe('the reference payloads', () => {
  let createdId: string;

  it('CreateBizObject as written creates an Effective record with its multi-select ids and sub-table rows', async () => {
    const me = (await a.post('/v1/form/loaddata', { schemaCode: SCHEMA })).system.CreatedBy;
    // h3yun-facts §1.4, exactly as written (the BizObject string on one line), its <userId> placeholders filled.
    const res = await api({ "ActionName":"CreateBizObject", "SchemaCode":"D000024chuangjian",
      "BizObject":"{\"CreatedBy\":\"<userId>\",\"OwnerId\":\"<userId>\",\"F0000002\":\"123\",\"F0000009\":\"id1;id2;id3\",\"D000024Fdetail123\":[{\"zh\":\"123\"},{\"zh\":\"312\"}]}".replaceAll('<userId>', me),
      "IsSubmit":"true" });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ Successful: true, ErrorMessage: null, DataType: 0, ReturnData: { WorkflowInstanceId: '' } });
    createdId = res.body.ReturnData.BizObjectId;
    expect(createdId).toMatch(/^[0-9a-f-]{36}$/);

    const loaded = await api({ ActionName: 'LoadBizObject', SchemaCode: SCHEMA, BizObjectId: createdId });
    const bo = loaded.body.ReturnData.BizObject;
    expect(bo).toMatchObject({ ObjectId: createdId, Status: 1, F0000002: '123', F0000009: ['id1', 'id2', 'id3'], Name: '123' });
    // The creator is the secret's Administrator; the owner is the OwnerId named (here the same person).
    expect(bo.CreatedBy).toBe(me);
    expect(bo.OwnerId).toBe(me);
    expect(bo.CreatedTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    expect(bo.D000024Fdetail123.map((r: { zh: string }) => r.zh)).toEqual(['123', '312']);
  });

  it('LoadBizObjects as written filters by SeqNo and an Or group with Contains', async () => {
    const b = await api({ ActionName: 'CreateBizObject', SchemaCode: SCHEMA, BizObject: JSON.stringify({ F0000002: '第二条', Like: '选项1;选项2' }), IsSubmit: 'true' });
    const id = b.body.ReturnData.BizObjectId;
    await sql`update ${sql.table(`e_${admin.engineCode}.i_${SCHEMA.toLowerCase()}`)} set "SeqNo" = '201900000001' where "ObjectId" = ${id}`.execute(t.database.db);
    // h3yun-facts §1.5, exactly as written but for the SchemaCode ("..." there).
    const res = await api({ "ActionName":"LoadBizObjects", "SchemaCode":"D000024chuangjian",
      "Filter":"{\"FromRowNum\":0,\"ToRowNum\":500,\"RequireCount\":false,\"ReturnItems\":[],\"SortByCollection\":[],\"Matcher\":{\"Type\":\"And\",\"Matchers\":[{\"Type\":\"Item\",\"Name\":\"SeqNo\",\"Operator\":2,\"Value\":\"201900000001\"},{\"Type\":\"Or\",\"Matchers\":[{\"Type\":\"Item\",\"Name\":\"Like\",\"Operator\":8,\"Value\":\"选项2\"}]}]}}" });
    expect(res.body.Successful).toBe(true);
    expect(res.body.ReturnData.TotalCount).toBe(0);
    expect(res.body.ReturnData.BizObjectArray.map((r: { ObjectId: string }) => r.ObjectId)).toEqual([id]);
    expect(res.body.ReturnData.BizObjectArray[0]).toMatchObject({ SeqNo: '201900000001', Like: '选项1;选项2', F0000002: '第二条' });
  });

  it('UpdateBizObject changes only the codes sent; RemoveBizObject deletes', async () => {
    // More decimals than the field keeps: refused, naming the field, rather than rounded.
    const refused = await api({ ActionName: 'UpdateBizObject', SchemaCode: SCHEMA, BizObjectId: createdId, BizObject: '{"Amount":"12.345"}' });
    expect(refused.body).toMatchObject({ Successful: false, ErrorCode: 777 });
    expect(refused.body.ErrorMessage).toContain('Amount');
    expect(refused.body.ErrorMessage).toContain('最多2位小数');
    const up = await api({ ActionName: 'UpdateBizObject', SchemaCode: SCHEMA, BizObjectId: createdId, BizObject: '{"F0000009":"id9","Amount":"12.35","Due":"2026-11-23 10:30:00","Done":"true","Area":"{\\"adcode\\":\\"440305\\",\\"adname\\":\\"广东省 深圳市 南山区\\",\\"Detail\\":\\"科技园\\"}"}' });
    expect(up.body).toMatchObject({ Successful: true, ErrorMessage: null, ReturnData: {} });
    const bo = (await api({ ActionName: 'LoadBizObject', SchemaCode: SCHEMA, BizObjectId: createdId })).body.ReturnData.BizObject;
    expect(bo).toMatchObject({ F0000002: '123', F0000009: ['id9'], Amount: 12.35, Due: '2026-11-23 10:30:00', Done: true, Status: 1 });
    expect(JSON.parse(bo.Area)).toEqual({ adcode: '440305', adname: '广东省 深圳市 南山区', Detail: '科技园' });
    expect(bo.D000024Fdetail123).toHaveLength(2);

    const removed = await api({ ActionName: 'RemoveBizObject', SchemaCode: SCHEMA, BizObjectId: createdId });
    expect(removed.body).toMatchObject({ Successful: true, ReturnData: {} });
    const gone = await api({ ActionName: 'LoadBizObject', SchemaCode: SCHEMA, BizObjectId: createdId });
    expect(gone.body).toMatchObject({ Successful: false, ErrorCode: 250001, ReturnData: null });
    expect((await api({ ActionName: 'RemoveBizObject', SchemaCode: SCHEMA, BizObjectId: 'not-an-id' })).body).toMatchObject({ Successful: false, ErrorCode: 250001 });
  });
});

describe('IsSubmit and CreateBizObjects', () => {
  it('IsSubmit "false" (or absent) saves a Draft, "true" an Effective record', async () => {
    const status = async (extra: Record<string, unknown>) => {
      const res = await api({ ActionName: 'CreateBizObject', SchemaCode: SCHEMA, BizObject: '{"F0000002":"状态"}', ...extra });
      return (await api({ ActionName: 'LoadBizObject', SchemaCode: SCHEMA, BizObjectId: res.body.ReturnData.BizObjectId })).body.ReturnData.BizObject.Status;
    };
    expect(await status({ IsSubmit: 'false' })).toBe(0);
    expect(await status({})).toBe(0);
    expect(await status({ IsSubmit: true })).toBe(1);
    expect(await status({ IsSubmit: 'True' })).toBe(1);
    expect((await api({ ActionName: 'CreateBizObject', SchemaCode: SCHEMA, BizObject: '{}', IsSubmit: 'yes' })).body).toMatchObject({ Successful: false, ErrorCode: 320003 });
    // A Draft updated stays a Draft (Update is a save, not a submit).
    const draft = (await api({ ActionName: 'CreateBizObject', SchemaCode: SCHEMA, BizObject: '{"F0000002":"草稿"}', IsSubmit: 'false' })).body.ReturnData.BizObjectId;
    await api({ ActionName: 'UpdateBizObject', SchemaCode: SCHEMA, BizObjectId: draft, BizObject: '{"F0000002":"草稿2"}' });
    expect((await api({ ActionName: 'LoadBizObject', SchemaCode: SCHEMA, BizObjectId: draft })).body.ReturnData.BizObject).toMatchObject({ Status: 0, F0000002: '草稿2' });
  });

  it('CreateBizObjects creates all or nothing and names the item at fault', async () => {
    const before = await count();
    const res = await api({ ActionName: 'CreateBizObjects', SchemaCode: SCHEMA, BizObjectArray: ['{"F0000002":"批量1"}', '{"F0000002":"批量2","Amount":3}'], IsSubmit: 'true' });
    expect(res.body.Successful).toBe(true);
    expect(res.body.ReturnData.BizObjectIdArray).toHaveLength(2);
    expect(await count()).toBe(before + 2);
    const bad = await api({ ActionName: 'CreateBizObjects', SchemaCode: SCHEMA, BizObjectArray: ['{"F0000002":"好"}', '{"Nope":"x"}', '{"Amount":"abc"}'], IsSubmit: 'true' });
    expect(bad.body).toMatchObject({ Successful: false, ErrorCode: 777 });
    expect(bad.body.ErrorMessage).toContain('BizObjectArray.1.Nope');
    expect(await count()).toBe(before + 2);
    const tooMany = await api({ ActionName: 'CreateBizObjects', SchemaCode: SCHEMA, BizObjectArray: Array.from({ length: 501 }, () => '{}'), IsSubmit: 'false' });
    expect(tooMany.body).toMatchObject({ Successful: false, ErrorCode: 320004 });
    expect(await count()).toBe(before + 2);
  });
});

async function count(): Promise<number> {
  const r = await sql<{ n: number }>`select count(*)::int as n from ${sql.table(`e_${admin.engineCode}.i_${SCHEMA.toLowerCase()}`)}`.execute(t.database.db);
  return r.rows[0].n;
}

describe('errors in the product envelope', () => {
  it('answers unknown actions, forms and fields, bad JSON and rule breaks without SQL text', async () => {
    const cases: [unknown, number, string?][] = [
      [{ ActionName: 'StartWorkflow', SchemaCode: SCHEMA }, 320002],
      [{ ActionName: 'LoadBizObjects', SchemaCode: 'NoSuchForm' }, 230001],
      [{ ActionName: 'LoadBizObjects', SchemaCode: SCHEMA, Filter: '{"Matcher":{"Type":"Item","Name":"Nope","Operator":2,"Value":"1"}}' }, 777, 'Filter.Matcher.Name'],
      [{ ActionName: 'LoadBizObjects', SchemaCode: SCHEMA, Filter: '{"Matcher":{"Type":"And","Matchers":[{"Type":"Item","Name":"Done","Operator":8,"Value":"1"}]}}' }, 777, 'Filter.Matcher.Matchers.0.Operator'],
      [{ ActionName: 'LoadBizObjects', SchemaCode: SCHEMA, Filter: '{"Matcher":{"Type":"Item","Name":"x;drop table y","Operator":2,"Value":"1"}}' }, 320003, 'Filter.Matcher.Name'],
      [{ ActionName: 'LoadBizObjects', SchemaCode: SCHEMA, Filter: '{not json' }, 320003, 'Filter'],
      [{ ActionName: 'LoadBizObjects', SchemaCode: SCHEMA, Filter: '{"SortByCollection":[{"ItemName":"D000024Fdetail123","Direction":"Descending"}]}' }, 777, 'Filter.SortByCollection.0.ItemName'],
      [{ ActionName: 'LoadBizObjects', SchemaCode: SCHEMA, Filter: '{"ReturnItems":["F0000002","Nope"]}' }, 320003, 'Filter.ReturnItems.1'],
      [{ ActionName: 'CreateBizObject', SchemaCode: SCHEMA, BizObject: '{"F0000002":"' + 'x'.repeat(201) + '"}' }, 777, 'BizObject.F0000002'],
      [{ ActionName: 'CreateBizObject', SchemaCode: SCHEMA, BizObject: '{"Due":"明天"}' }, 777, 'BizObject.Due'],
      [{ ActionName: 'CreateBizObject', SchemaCode: SCHEMA, BizObject: '[1]' }, 320003, 'BizObject'],
      [{ ActionName: 'UpdateBizObject', SchemaCode: SCHEMA, BizObjectId: '0190f3a0-0000-7000-8000-000000000000', BizObject: '{}' }, 250001],
      ['not json at all', 320003],
    ];
    for (const [payload, code, where] of cases) {
      const res = await api(payload);
      expect(res.status, JSON.stringify(payload).slice(0, 80)).toBe(200);
      expect(res.body, JSON.stringify(payload).slice(0, 80)).toMatchObject({ Successful: false, ErrorCode: code, ReturnData: null });
      if (where) expect(res.body.ErrorMessage).toContain(where);
      expect(res.body.ErrorMessage).not.toMatch(/select |insert |update |delete |from "|syntax|relation/i);
    }
  });

  it('is served under the lower-case path of the official SDK too', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/openapi/invoke', headers: { EngineCode: admin.engineCode, EngineSecret: secret }, payload: { ActionName: 'LoadBizObjects', SchemaCode: SCHEMA, Filter: '{"ToRowNum":1}' } });
    expect(res.json()).toMatchObject({ Successful: true });
    expect(res.json().ReturnData.BizObjectArray).toHaveLength(1);
  });
});
