import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers.ts';
import type { OrgClient, Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';
import { invokeApi, issueSecret } from '../../../test/open-api-helpers.ts';

// test-databases: both — filters compiled to SQL (docs/testing.md "Runs on both databases").

// LoadBizObjects (docs/decisions/0021, 0030) on PGlite and PostgreSQL: a Matcher per operator code of the product, paging
// with FromRowNum / ToRowNum, RequireCount, ReturnItems, SortByCollection and the 500-row cap.

let t: TestApp, admin: Person, a: OrgClient, secret: string, code: string;
const api = (payload: unknown) => invokeApi(t.app, admin.engineCode, secret, payload);

/** Titles of the records a Filter finds, sorted by Amount ascending unless it sorts itself. */
async function titles(filter: Record<string, unknown>): Promise<string[]> {
  const res = await api({ ActionName: 'LoadBizObjects', SchemaCode: code, Filter: JSON.stringify({ SortByCollection: [{ ItemName: 'Amount', Direction: 'Ascending' }], ...filter }) });
  expect(res.body.ErrorMessage).toBeNull();
  return res.body.ReturnData.BizObjectArray.map((r: { Title: string | null }) => r.Title);
}
const item = (Name: string, Operator: number, Value?: unknown) => ({ Matcher: { Type: 'Item', Name, Operator, ...(Value === undefined ? {} : { Value }) } });

beforeAll(async () => {
  let appCode: string;
  ({ t, admin, a, appCode } = await adminWithApp());
  code = (await createForm(a, appCode)).code as string;
  await publish(a, code, definition([{ type: 'textBox', code: 'Title' }, { type: 'number', code: 'Amount' }, { type: 'dateTime', code: 'Due' }]));
  secret = (await issueSecret(a)).value;
  const rows = [
    { Title: '甲公司', Amount: 1, Due: '2026-11-01 09:00:00' },
    { Title: '乙公司', Amount: 2, Due: '2026-11-02 09:00:00' },
    { Title: '丙商店', Amount: 3, Due: '2026-11-03 09:00:00' },
    { Title: '', Amount: 4 },
    { Title: null, Amount: 5 },
  ];
  const res = await api({ ActionName: 'CreateBizObjects', SchemaCode: code, BizObjectArray: rows.map((r) => JSON.stringify(r)), IsSubmit: 'true' });
  expect(res.body.Successful).toBe(true);
});
afterAll(() => t.close());

describe('a Matcher per operator code', () => {
  it('compares numbers with 0–5', async () => {
    expect(await titles(item('Amount', 0, '3'))).toEqual(['', null]); // Above
    expect(await titles(item('Amount', 1, 3))).toEqual(['丙商店', '', null]); // NotBelow
    expect(await titles(item('Amount', 2, '2'))).toEqual(['乙公司']); // Equal
    expect(await titles(item('Amount', 3, 2))).toEqual(['甲公司', '乙公司']); // NotAbove
    expect(await titles(item('Amount', 4, 2))).toEqual(['甲公司']); // Below
    expect(await titles(item('Amount', 5, 1))).toEqual(['乙公司', '丙商店', '', null]); // NotEqual
  });

  it('reads dates in the product format as China time', async () => {
    expect(await titles(item('Due', 0, '2026-11-02 09:00:00'))).toEqual(['丙商店']);
    expect(await titles(item('Due', 1, '2026-11-02 09:00:00'))).toEqual(['乙公司', '丙商店']);
    expect(await titles(item('Due', 2, '2026-11-01'))).toEqual(['甲公司']);
  });

  it('lists, contains and blanks with 6, 7, 8, 24 and 18–21', async () => {
    expect(await titles(item('Title', 6, ['甲公司', '丙商店']))).toEqual(['甲公司', '丙商店']); // In
    expect(await titles(item('Title', 7, ['甲公司', '丙商店']))).toEqual(['乙公司', '', null]); // NotIn
    expect(await titles(item('Title', 8, '公司'))).toEqual(['甲公司', '乙公司']); // Contains
    expect(await titles(item('Title', 24, '公司'))).toEqual(['丙商店', '', null]); // NotContains
    for (const blank of [18, 20]) expect(await titles(item('Title', blank))).toEqual(['', null]);
    for (const notBlank of [19, 21]) expect(await titles(item('Title', notBlank))).toEqual(['甲公司', '乙公司', '丙商店']);
  });

  it('nests And / Or, and refuses unknown codes (starts / ends with: open-api-compat.test.ts)', async () => {
    const nested = { Matcher: { Type: 'Or', Matchers: [{ Type: 'Item', Name: 'Amount', Operator: 2, Value: 5 }, { Type: 'And', Matchers: [{ Type: 'Item', Name: 'Title', Operator: 8, Value: '公司' }, { Type: 'Item', Name: 'Amount', Operator: 0, Value: 1 }] }] } };
    expect(await titles(nested)).toEqual(['乙公司', null]);
    for (const op of [9, 12, 15, 99, -1]) {
      const res = await api({ ActionName: 'LoadBizObjects', SchemaCode: code, Filter: JSON.stringify(item('Title', op, '甲')) });
      expect(res.body).toMatchObject({ Successful: false, ErrorCode: 320003 });
      expect(res.body.ErrorMessage).toContain('Filter.Matcher.Operator');
    }
  });
});

describe('paging', () => {
  it('FromRowNum is inclusive, ToRowNum exclusive; RequireCount adds the total', async () => {
    expect(await titles({ FromRowNum: 1, ToRowNum: 3 })).toEqual(['乙公司', '丙商店']);
    expect(await titles({ FromRowNum: 4, ToRowNum: 100 })).toEqual([null]);
    expect(await titles({ FromRowNum: 10, ToRowNum: 20 })).toEqual([]);
    const counted = await api({ ActionName: 'LoadBizObjects', SchemaCode: code, Filter: JSON.stringify({ FromRowNum: 0, ToRowNum: 2, RequireCount: true, ...item('Amount', 0, 1) }) });
    expect(counted.body.ReturnData.TotalCount).toBe(4);
    expect(counted.body.ReturnData.BizObjectArray).toHaveLength(2);
    const uncounted = await api({ ActionName: 'LoadBizObjects', SchemaCode: code, Filter: JSON.stringify({ FromRowNum: 0, ToRowNum: 2, RequireCount: false }) });
    expect(uncounted.body.ReturnData.TotalCount).toBe(0);
    // Without a Filter: the first 500, newest first.
    const all = await api({ ActionName: 'LoadBizObjects', SchemaCode: code });
    expect(all.body.ReturnData.BizObjectArray).toHaveLength(5);
  });

  it('sorts by SortByCollection and returns only ReturnItems', async () => {
    expect(await titles({ SortByCollection: [{ ItemName: 'Amount', Direction: 'Descending' }], ToRowNum: 2 })).toEqual([null, '']);
    const res = await api({ ActionName: 'LoadBizObjects', SchemaCode: code, Filter: JSON.stringify({ ReturnItems: ['ObjectId', 'Amount'], ...item('Amount', 2, 3) }) });
    expect(Object.keys(res.body.ReturnData.BizObjectArray[0]).sort()).toEqual(['Amount', 'ObjectId']);
  });

  it('reads at most 500 rows a call', async () => {
    const ok = await api({ ActionName: 'LoadBizObjects', SchemaCode: code, Filter: '{"FromRowNum":100,"ToRowNum":600}' });
    expect(ok.body).toMatchObject({ Successful: true, ReturnData: { BizObjectArray: [] } });
    for (const filter of ['{"FromRowNum":0,"ToRowNum":501}', '{"FromRowNum":100,"ToRowNum":601}']) {
      const res = await api({ ActionName: 'LoadBizObjects', SchemaCode: code, Filter: filter });
      expect(res.body).toMatchObject({ Successful: false, ErrorCode: 320004, ReturnData: null });
    }
    const backwards = await api({ ActionName: 'LoadBizObjects', SchemaCode: code, Filter: '{"FromRowNum":5,"ToRowNum":2}' });
    expect(backwards.body).toMatchObject({ Successful: false, ErrorCode: 320003 });
  });
});
