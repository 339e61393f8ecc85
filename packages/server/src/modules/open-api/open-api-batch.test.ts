import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { TestApp } from '../../../test/helpers.ts';
import { addMember, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, engineSql, publish, saveDraft, tableRef } from '../../../test/form-helpers.ts';
import { invokeApi, issueSecret } from '../../../test/open-api-helpers.ts';

// test-databases: both — set-wise writes (docs/testing.md "Runs on both databases").

// CreateBizObjects on a data form, written set-wise (docs/decisions/0033): what a record-by-record save did still
// holds — numbers, owners, sub-table rows, the data log, NoRepeat, required fields, business rules and rollups over
// the batch — and a refused record leaves nothing written, naming its place in the array.

let t: TestApp, admin: Person, a: OrgClient, secret: string, appCode: string;
const api = (payload: Record<string, unknown>) => invokeApi(t.app, admin.engineCode, secret, payload);
const create = (schemaCode: string, items: Record<string, unknown>[], submit = true) =>
  api({ ActionName: 'CreateBizObjects', SchemaCode: schemaCode, BizObjectArray: items.map((i) => JSON.stringify(i)), IsSubmit: String(submit) });
const rowsOf = (schemaCode: string) => engineSql<Record<string, any>>(t, sql`select * from ${tableRef(admin.engineCode, `i_${schemaCode.toLowerCase()}`)} order by "SeqNo"`);

beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
  secret = (await issueSecret(a)).value;
});
afterAll(() => t.close());

describe('CreateBizObjects set-wise', () => {
  it('numbers the batch in order, sets each owner, writes the sub-table rows and one data-log row per record', async () => {
    const code = (await createForm(a, appCode)).code as string;
    await publish(a, code, definition([
      { type: 'textBox', code: 'Title', options: { required: true } },
      { type: 'number', code: 'Qty' },
      { type: 'seqNo', code: 'SeqNo' },
      { type: 'gridView', code: 'Lines', controls: [{ type: 'textBox', code: 'Item' }] },
    ]));
    const member = await addMember(t, admin);
    const me: string = (await a.post('/v1/form/loaddata', { schemaCode: code })).system.CreatedBy;
    await create(code, [{ Title: '先' }]);
    const items = [
      { Title: '甲', Qty: 1, Lines: [{ Item: 'a' }, { Item: 'b' }] },
      { Title: '乙', Qty: 2, OwnerId: member.userId },
      { Title: '丙', Qty: 3, Lines: [{ Item: 'c' }] },
    ];
    const res = await create(code, items);
    expect(res.body).toMatchObject({ Successful: true });
    const ids: string[] = res.body.ReturnData.BizObjectIdArray;
    expect(ids).toHaveLength(3);
    const rows = (await rowsOf(code)).slice(1);
    expect(rows.map((r) => [r.ObjectId, r.Title, r.Status, r.Name])).toEqual([[ids[0], '甲', 1, '甲'], [ids[1], '乙', 1, '乙'], [ids[2], '丙', 1, '丙']]);
    // One counter, consecutive numbers after the earlier record's.
    const numbers = rows.map((r) => Number(String(r.SeqNo).slice(-8)));
    expect(numbers).toEqual([2, 3, 4]);
    const memberDept = (await engineSql<{ main_department_id: string }>(t, sql`select main_department_id from ${tableRef(admin.engineCode, 'org_users')} where id = ${member.userId}`))[0]!.main_department_id;
    expect(rows[1]).toMatchObject({ OwnerId: member.userId, OwnerDeptId: memberDept, CreatedBy: me });
    expect(rows[0]).toMatchObject({ OwnerId: me, CreatedBy: me });
    const lines = await engineSql<{ ParentObjectId: string; Item: string; SortKey: number }>(t, sql`select * from ${tableRef(admin.engineCode, `i_${code.toLowerCase()}__lines`)} order by "ParentObjectId", "SortKey"`);
    expect(lines.filter((l) => l.ParentObjectId === ids[0]).map((l) => l.Item)).toEqual(['a', 'b']);
    expect(lines.filter((l) => l.ParentObjectId === ids[2]).map((l) => l.Item)).toEqual(['c']);
    const logs = await engineSql<{ object_id: string }>(t, sql`select object_id from ${tableRef(admin.engineCode, 'form_data_logs')} where object_id in (${sql.join(ids)})`);
    expect(logs.map((l) => l.object_id).sort()).toEqual([...ids].sort());
    // What the API reads back is what a single create would have stored.
    const loaded = await api({ ActionName: 'LoadBizObject', SchemaCode: code, BizObjectId: ids[0] });
    expect(loaded.body.ReturnData.BizObject).toMatchObject({ Title: '甲', Qty: 1, Lines: [{ Item: 'a' }, { Item: 'b' }] });
  });

  it('refuses the whole batch for one bad record, naming it, and takes no number', async () => {
    const code = (await createForm(a, appCode)).code as string;
    await publish(a, code, definition([{ type: 'textBox', code: 'Title', options: { required: true } }, { type: 'textBox', code: 'Key', options: { noRepeat: true, displayName: '编号' } }]));
    expect((await create(code, [{ Title: 'x', Key: 'k1' }])).body.Successful).toBe(true);
    const missing = await create(code, [{ Title: '好', Key: 'k2' }, { Key: 'k3' }]);
    expect(missing.body).toMatchObject({ Successful: false, ErrorCode: 777 });
    expect(missing.body.ErrorMessage).toContain('BizObjectArray.1.Title');
    // NoRepeat: against a stored record, and between two records of the same batch.
    const stored = await create(code, [{ Title: 'a', Key: 'k4' }, { Title: 'b', Key: 'k1' }]);
    expect(stored.body).toMatchObject({ Successful: false, ErrorCode: 250004, ErrorMessage: '编号的值已存在，不能重复' });
    const twice = await create(code, [{ Title: 'a', Key: 'k5' }, { Title: 'b', Key: 'k6' }, { Title: 'c', Key: 'k5' }]);
    expect(twice.body).toMatchObject({ Successful: false, ErrorCode: 250004, ErrorMessage: '编号的值已存在，不能重复' });
    const owner = await create(code, [{ Title: 'a', Key: 'k7' }, { Title: 'b', Key: 'k8', OwnerId: '0190f3a0-0000-7000-8000-000000000000' }]);
    expect(owner.body).toMatchObject({ Successful: false, ErrorCode: 320100 });
    expect(owner.body.ErrorMessage).toContain('BizObjectArray.1.OwnerId');
    const rows = await rowsOf(code);
    expect(rows.map((r) => r.Key)).toEqual(['k1']);
    // The refused batches took no number: the next record follows the first.
    expect((await create(code, [{ Title: 'y', Key: 'k9' }])).body.Successful).toBe(true);
    expect((await rowsOf(code)).map((r) => Number(String(r.SeqNo).slice(-8)))).toEqual([1, 2]);
  });

  it('runs the business rules of every record made effective and refreshes the rollups that read the batch', async () => {
    const customer = (await createForm(a, appCode)).code as string;
    const order = (await createForm(a, appCode)).code as string;
    const trace = (await createForm(a, appCode)).code as string;
    await publish(a, customer, definition([{ type: 'textBox', code: 'CName' }]));
    await publish(a, trace, definition([{ type: 'textBox', code: 'Ref' }, { type: 'number', code: 'Amount' }]));
    const orderDef = definition([{ type: 'associationQuery', code: 'Customer', options: { schemaCode: customer } }, { type: 'number', code: 'Amount' }]);
    await saveDraft(a, order, orderDef);
    const rules = [{ id: 'E1', name: 'E1', on: 'effective', action: 'insert', targetSchemaCode: trace, mappings: [{ field: 'Ref', value: { type: 'field', code: 'ObjectId' } }, { field: 'Amount', value: { type: 'field', code: 'Amount' } }] }];
    expect((await a.post('/v1/form/businessrule/save', { schemaCode: order, rules })).issues).toEqual([]);
    await publish(a, order, orderDef);
    await publish(a, customer, definition([
      { type: 'textBox', code: 'CName' },
      { type: 'rollup', code: 'Total', options: { rollupType: 'sum', sourceSchemaCode: order, sourceCode: 'Customer', sourceField: 'Amount' } },
      { type: 'rollup', code: 'Orders', options: { rollupType: 'count', sourceSchemaCode: order, sourceCode: 'Customer', sourceField: null } },
    ]));
    const [c1, c2] = (await create(customer, [{ CName: '一' }, { CName: '二' }])).body.ReturnData.BizObjectIdArray as string[];
    const made = await create(order, [{ Customer: c1, Amount: 10 }, { Customer: c2, Amount: 5 }, { Customer: c1, Amount: 7 }]);
    expect(made.body).toMatchObject({ Successful: true });
    const ids: string[] = made.body.ReturnData.BizObjectIdArray;
    const traced = await rowsOf(trace);
    expect(traced.map((r) => [r.Ref, Number(r.Amount)])).toEqual([[ids[0], 10], [ids[1], 5], [ids[2], 7]]);
    const totals = await rowsOf(customer);
    expect(totals.map((r) => [r.ObjectId, Number(r.Total), Number(r.Orders)])).toEqual([[c1, 17, 2], [c2, 5, 1]]);
    // Drafts run no effective rule and count in no rollup (rollups read Effective records).
    expect((await create(order, [{ Customer: c2, Amount: 100 }], false)).body.Successful).toBe(true);
    expect(await rowsOf(trace)).toHaveLength(3);
    expect((await rowsOf(customer)).map((r) => Number(r.Total))).toEqual([17, 5]);
  });
});
