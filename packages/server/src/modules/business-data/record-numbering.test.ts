import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { TestApp } from '../../../test/helpers.ts';
import type { OrgClient, Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, engineSql, publish, tableRef } from '../../../test/form-helpers.ts';
import { invokeApi, issueSecret } from '../../../test/open-api-helpers.ts';

// test-databases: both — the counter's bump, the records, their sub-table rows and data-log rows in one statement.

// docs/decisions/0095: a new record's sequence number formed by its insert (the counter bumped in the same statement)
// when its Name does not hold it, by a statement of its own when it does; either way the numbers run on without a
// gap or a repeat, the answer names the number stored, and a refused batch writes nothing and takes no number.

let t: TestApp, admin: Person, a: OrgClient, appCode: string, secret: string;
beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
  secret = (await issueSecret(a)).value;
});
afterAll(() => t.close());

const FORM = definition(
  [
    { type: 'textBox', code: 'Title' },
    { type: 'number', code: 'Amount', options: { decimalPlaces: 2 } },
    { type: 'checkboxList', code: 'Tags', options: { defaultItems: ['a', 'b'] } },
    { type: 'seqNo', code: 'SeqNo', options: { seqNoStructure: [{ type: 'fixedValue', value: 'NO-' }, { type: 'increment', digits: 2 }, { type: 'fixedValue', value: '-X' }], resetMode: 'none' } },
    { type: 'gridView', code: 'Items', controls: [{ type: 'textBox', code: 'ItemName' }] },
  ],
  { enableDataLog: true },
);

async function published(): Promise<string> {
  const code = (await createForm(a, appCode, {})).code as string;
  await publish(a, code, FORM);
  return code;
}

const stored = (code: string) =>
  engineSql<{ ObjectId: string; SeqNo: string; Name: string; Tags: string[] | null; items: number; logs: number }>(
    t,
    sql`select m."ObjectId", m."SeqNo", m."Name", m."Tags",
      (select count(*)::int from ${tableRef(admin.engineCode, `i_${code.toLowerCase()}__items`)} c where c."ParentObjectId" = m."ObjectId") as items,
      (select count(*)::int from ${tableRef(admin.engineCode, 'form_data_logs')} l where l.object_id = m."ObjectId") as logs
      from ${tableRef(admin.engineCode, `i_${code.toLowerCase()}`)} m`,
  );
const number = (n: number) => `NO-${String(n).padStart(2, '0')}-X`;
const createMany = (code: string, objects: unknown[]) =>
  invokeApi(t.app, admin.engineCode, secret, { ActionName: 'CreateBizObjects', SchemaCode: code, BizObjectArray: objects.map((o) => JSON.stringify(o)), IsSubmit: 'true' });

describe('sequence numbers formed by the insert', () => {
  it('numbers parallel creates and a batch past the digits without a gap or a repeat, each as answered and stored', async () => {
    const code = await published();
    const singles = await Promise.all(
      Array.from({ length: 20 }, (_, i) => a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Title: `单${i}`, Tags: ['a'] }, children: { Items: [{ ItemName: '甲' }] } })),
    );
    const batch = await createMany(code, Array.from({ length: 100 }, (_, i) => ({ Title: `批${i}`, Amount: i, Tags: ['b'] })));
    expect(batch.body.Successful).toBe(true);
    const rows = await stored(code);
    expect(rows).toHaveLength(120);
    // 120 numbers of two digits padded: the 100th and later keep every digit.
    expect(rows.map((r) => r.SeqNo).sort()).toEqual(Array.from({ length: 120 }, (_, i) => number(i + 1)).sort());
    const byId = new Map(rows.map((r) => [r.ObjectId, r]));
    for (const [i, s] of singles.entries()) {
      expect(byId.get(s.objectId)).toMatchObject({ SeqNo: s.seqNo, Name: `单${i}`, Tags: ['a'], items: 1, logs: 1 });
      expect(s.name).toBe(`单${i}`);
    }
    // The batch's records are numbered in their order.
    const batchNumbers = (batch.body.ReturnData.BizObjectIdArray as string[]).map((id) => byId.get(id)!.SeqNo);
    const tails = batchNumbers.map((n) => Number(n.slice(3, -2)));
    expect(tails).toEqual(Array.from({ length: 100 }, (_, i) => tails[0]! + i));
    expect(rows.every((r) => r.logs === 1)).toBe(true);
  });

  it('takes the number first when the Name holds it, and the numbers still run on', async () => {
    const code = await published();
    const named = await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Title: '有标题' } });
    // No text to name the record by: its Name is the form's name and its number.
    const unnamed = await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Amount: 1 } });
    const batch = await createMany(code, [{ Title: '甲' }, { Amount: 2 }, { Title: '乙' }]);
    expect(batch.body.Successful).toBe(true);
    expect(named.seqNo).toBe(number(1));
    expect(unnamed.seqNo).toBe(number(2));
    expect(unnamed.name).toMatch(new RegExp(`-${number(2)}$`));
    const rows = await stored(code);
    const byId = new Map(rows.map((r) => [r.ObjectId, r]));
    expect(byId.get(unnamed.objectId)!.Name).toBe(unnamed.name);
    const ids = batch.body.ReturnData.BizObjectIdArray as string[];
    expect(ids.map((id) => byId.get(id)!.SeqNo)).toEqual([number(3), number(4), number(5)]);
    expect(byId.get(ids[1]!)!.Name).toMatch(new RegExp(`-${number(4)}$`));
  });

  it('writes nothing and takes no number for a batch with a refused record', async () => {
    const code = await published();
    await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Title: '先' } });
    const refused = await createMany(code, [{ Title: '好' }, { Title: 'bad\u0000text' }]);
    expect(refused.body.Successful).toBe(false);
    const wrongType = await createMany(code, [{ Title: '好' }, { Amount: 'not a number' }]);
    expect(wrongType.body.Successful).toBe(false);
    expect(wrongType.body.ErrorMessage).toMatch(/BizObjectArray\.1/);
    expect(await stored(code)).toHaveLength(1);
    const next = await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Title: '后' } });
    expect(next.seqNo).toBe(number(2));
  });
});
