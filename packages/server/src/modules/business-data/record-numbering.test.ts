import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { TestApp } from '../../../test/helpers.ts';
import type { OrgClient, Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, engineSql, publish, tableRef } from '../../../test/form-helpers.ts';
import { invokeApi, issueSecret } from '../../../test/open-api-helpers.ts';
import { drainJobs, task, uploadSheet, xlsxOf } from '../data-port/data-port.fixtures.ts';

// test-databases: both — the counter's bump, the records, their sub-table rows and data-log rows in one statement.

// docs/decisions/0095: a new record's sequence number formed by its insert (the counter bumped in the same statement)
// when its Name does not hold it, by a statement of its own when it does; either way the numbers run on without a
// gap or a repeat, the answer names the number stored, and a refused batch writes nothing and takes no number.
// docs/decisions/0099: an import numbers its records the same way, its batches in flight (PostgreSQL) taking their
// numbers in file order outside their transactions, and single creates running meanwhile get numbers of their own.

let t: TestApp, admin: Person, a: OrgClient, appCode: string, secret: string;
beforeAll(async () => {
  // Small import batches, so that an import of a few hundred rows is many batches (two in flight on PostgreSQL).
  const before = process.env.TRITIUM_IMPORT_BATCH_SIZE;
  process.env.TRITIUM_IMPORT_BATCH_SIZE = '25';
  try {
    ({ t, admin, a, appCode } = await adminWithApp());
  } finally {
    if (before === undefined) delete process.env.TRITIUM_IMPORT_BATCH_SIZE;
    else process.env.TRITIUM_IMPORT_BATCH_SIZE = before;
  }
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

describe('sequence numbers of an import', () => {
  const startImport = async (code: string, rows: unknown[][]) => {
    const fileId = await uploadSheet(t, admin, 'numbers.xlsx', await xlsxOf(rows));
    return (await a.post('/v1/dataImport/addImportTask', { schemaCode: code, fileId })).taskId as string;
  };
  const single = (code: string, i: number) => a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Title: `单${i}` } });

  it('numbers an import and single creates running meanwhile without a gap or a repeat, the import in file order', async () => {
    const code = await published();
    // 300 rows (12 batches of 25), two refused by their amount: refused rows take no number.
    const lines = Array.from({ length: 300 }, (_, i) => [`导${i}`, i === 40 || i === 260 ? 'abc' : i]);
    const taskId = await startImport(code, [['Title', 'Amount'], ...lines]);
    const [, singles] = await Promise.all([drainJobs(t), Promise.all(Array.from({ length: 30 }, (_, i) => single(code, i)))]);
    expect(await task(a, taskId)).toMatchObject({ state: 'Finished', inserted: 298, rejected: 2 });
    const rows = await stored(code);
    expect(rows).toHaveLength(328);
    expect(rows.map((r) => r.SeqNo).sort()).toEqual(Array.from({ length: 328 }, (_, i) => number(i + 1)).sort());
    const byId = new Map(rows.map((r) => [r.ObjectId, r]));
    for (const s of singles) expect(byId.get(s.objectId)!.SeqNo).toBe(s.seqNo);
    // The imported records' numbers rise with their file rows.
    const imported = rows.filter((r) => r.Name.startsWith('导')).sort((x, y) => Number(x.Name.slice(1)) - Number(y.Name.slice(1)));
    expect(imported).toHaveLength(298);
    const tails = imported.map((r) => Number(r.SeqNo.slice(3, -2)));
    expect(tails.every((n, i) => i === 0 || n > tails[i - 1]!)).toBe(true);
  });

  it('names records that hold their number after the number each got, and a later save goes on from the last', async () => {
    const code = await published();
    await single(code, 0);
    // No text to name a record by: its Name is the form's name and its number, taken before the insert.
    const taskId = await startImport(code, [['Amount'], ...Array.from({ length: 60 }, (_, i) => [i])]);
    await drainJobs(t);
    expect(await task(a, taskId)).toMatchObject({ state: 'Finished', inserted: 60 });
    const next = await single(code, 1);
    expect(next.seqNo).toBe(number(62));
    const rows = await stored(code);
    expect(rows.map((r) => r.SeqNo).sort()).toEqual(Array.from({ length: 62 }, (_, i) => number(i + 1)).sort());
    for (const r of rows) if (!r.Name.startsWith('单')) expect(r.Name).toBe(`客户信息-${r.SeqNo}`);
  });
});
