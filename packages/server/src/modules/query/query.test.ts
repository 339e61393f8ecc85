// Over 500 lines on purpose: one engine and one form set-up shared by every query-engine case (splitting would build it twice).
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely, type KyselyPlugin, type RootOperationNode } from 'kysely';
import { engineDb } from '../../db/database.ts';
import { registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addMember, createApp, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { companyIdOf } from '../../../test/org-helpers.ts';
import { adminWithApp, createForm, definition, indexesOf, publish } from '../../../test/form-helpers.ts';
import type { Db } from '../../db/types.ts';
import { columnStat, countRecords, distinctValues, queryRecords, queryWindow } from './query.service.ts';

// test-databases: both — the query engine's SQL, collation and types (docs/testing.md "Runs on both databases").

// The query engine over HTTP (docs/decisions/0013) on PGlite and PostgreSQL: every operator on every data type it
// applies to, nested groups, refused operator/type pairs and sorts, paging totals, statistics, distinct values,
// data scopes for two users, and engines kept apart. Records are written with SQL so owners and times are exact.

let t: TestApp, admin: Person, a: OrgClient, appCode: string, code: string;
let member: Person & { userId: string }, m: OrgClient;
let A: string, B: string, C: string, D1: string, D1a: string;
const ids: string[] = [];

const FORM = definition([
  { type: 'textBox', code: 'Title' },
  { type: 'textArea', code: 'Remark', options: { searchable: true } },
  { type: 'dropDown', code: 'Kind', options: { defaultItems: ['x', 'y', 'z'] } },
  { type: 'number', code: 'Amount', options: { decimalPlaces: 2 } },
  { type: 'dateTime', code: 'Due' },
  { type: 'checkbox', code: 'Done' },
  { type: 'checkboxList', code: 'Tags', options: { defaultItems: ['a', 'b', 'c'] } },
  { type: 'user', code: 'Buyer' },
  { type: 'multiUser', code: 'Watchers' },
  { type: 'department', code: 'Dept' },
  { type: 'multiDepartment', code: 'Depts' },
  { type: 'areaSelect', code: 'Area' },
  { type: 'map', code: 'Place' },
  { type: 'attachment', code: 'Files' },
  { type: 'gridView', code: 'Items', controls: [{ type: 'textBox', code: 'ItemName' }, { type: 'number', code: 'Qty' }] },
]);

const arr = (list: string[] | null) => (list === null ? null : list.length ? sql`array[${sql.join(list)}]::text[]` : sql`'{}'::text[]`);
const json = (v: unknown) => (v === null ? null : JSON.stringify(v));
const edb = () => engineDb(t.database.db, admin.engineCode) as unknown as Kysely<any>;

// Due dates around the end of October 2026 in Asia/Shanghai (UTC+8): 2026-11-01 is a Sunday.
const DUE = [
  '2026-10-31T15:59:59Z', // Sat 31 Oct 23:59:59 +08
  '2026-10-31T16:00:00Z', // Sun 1 Nov 00:00 +08
  '2026-11-01T15:59:59Z', // Sun 1 Nov 23:59:59 +08
  '2026-11-01T16:00:00Z', // Mon 2 Nov 00:00 +08
  '2026-10-25T16:00:00Z', // Mon 26 Oct 00:00 +08
  '2026-10-25T15:59:59Z', // Sun 25 Oct 23:59:59 +08
  null,
];

async function seed() {
  const table = `i_${code.toLowerCase()}`;
  const rows = [
    { Title: '客户甲有限公司', Remark: '长备注 北京', Kind: 'x', Amount: 10, Done: true, Tags: ['a', 'b'], Buyer: A, Watchers: [A, B], Dept: D1, Depts: [D1], Area: { adcode: '110101', adname: '北京市 北京市 东城区', detail: '' }, Place: { address: '北京市东城区', point: { lat: 39.9, lng: 116.4 } }, Files: [{ id: 'f1' }] },
    { Title: '客户乙 50%折扣', Remark: '', Kind: 'y', Amount: 20.5, Done: false, Tags: ['b'], Buyer: B, Watchers: [B], Dept: D1a, Depts: [D1a, C], Area: { adcode: '310000', adname: '上海市', detail: '' }, Place: null, Files: [] },
    { Title: 'a_b 公司', Remark: null, Kind: 'x', Amount: -3, Done: null, Tags: [], Buyer: null, Watchers: null, Dept: C, Depts: null, Area: { adcode: '440305', adname: '广东省 深圳市 南山区', detail: '' }, Place: { address: '深圳南山', point: { lat: 22.5, lng: 113.9 } }, Files: null },
    { Title: '', Remark: '上海', Kind: null, Amount: null, Done: true, Tags: null, Buyer: A, Watchers: [], Dept: null, Depts: [], Area: null, Place: null, Files: null },
    { Title: null, Remark: 'remark', Kind: 'z', Amount: 0, Done: false, Tags: ['c'], Buyer: A, Watchers: [A], Dept: D1, Depts: [C], Area: { adcode: '110000', adname: '北京市', detail: '' }, Place: null, Files: null },
    { Title: 'ABC', Remark: 'abc', Kind: 'x', Amount: 100, Done: true, Tags: ['a'], Buyer: B, Watchers: null, Dept: C, Depts: [D1], Area: null, Place: null, Files: null },
    { Title: 'zzz', Remark: null, Kind: null, Amount: null, Done: null, Tags: null, Buyer: null, Watchers: null, Dept: null, Depts: null, Area: null, Place: null, Files: null },
  ];
  const base = Date.parse('2026-11-10T00:00:00Z');
  for (const [i, r] of rows.entries()) {
    const id = randomUUID();
    ids.push(id);
    const owner = [1, 4, 5].includes(i) ? B : A;
    await edb()
      .insertInto(table)
      .values({
        ObjectId: id, Name: `r${i}`, Status: i === 6 ? 0 : 1, CreatedBy: owner, ModifiedBy: owner, OwnerId: owner, OwnerDeptId: owner === B ? D1 : C,
        CreatedTime: new Date(base - i * 60_000).toISOString(), ModifiedTime: new Date(base).toISOString(),
        ...r, Due: DUE[i], Tags: arr(r.Tags), Watchers: arr(r.Watchers), Depts: arr(r.Depts), Area: json(r.Area), Place: json(r.Place), Files: json(r.Files),
      })
      .execute();
  }
  const items = [[0, '螺丝', 1], [1, '螺母', 5], [3, '垫片', 2]] as const;
  for (const [i, name, qty] of items) {
    await edb().insertInto(`${table}__items`).values({ ParentObjectId: ids[i], SortKey: 0, ItemName: name, Qty: qty }).execute();
  }
}

beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
  code = (await createForm(a, appCode)).code as string;
  await publish(a, code, FORM);
  A = (await a.post('/v1/form/loaddata', { schemaCode: code })).system.CreatedBy;
  C = await companyIdOf(t, admin.engineCode);
  D1 = (await a.post('/v1/org/department/create', { parentId: C, name: '销售部' })).id;
  D1a = (await a.post('/v1/org/department/create', { parentId: D1, name: '销售一组' })).id;
  member = await addMember(t, admin, { name: '销售', departmentIds: [D1] });
  B = member.userId;
  m = nodeClient(t.app, member);
  await grant(a, code, B, 'access');
  await seed();
});
afterAll(() => t.close());

const query = (client: OrgClient, body: Record<string, unknown>) => client.raw('POST', '/v1/bizdata/query', { schemaCode: code, pageIndex: 0, pageSize: -1, ...body });

/** The indexes (0–6) of the records a filter matches, ascending. */
async function matching(filter: unknown, client: OrgClient = a): Promise<number[]> {
  const r = await query(client, { filter });
  if (!r.body.successful) throw new Error(JSON.stringify(r.body));
  return r.body.data.list.map((row: any) => ids.indexOf(row.ObjectId)).sort((x: number, y: number) => x - y);
}

const leaf = (field: string, operator: string, value?: unknown) => ({ field, operator, ...(value === undefined ? {} : { value }) });

describe('operators on every data type', () => {
  const cases: [string, string, unknown, number[]][] = [
    // short text (text box varchar, drop-down text)
    ['Title', 'Equal', 'ABC', [5]],
    ['Title', 'NotEqual', 'ABC', [0, 1, 2, 3, 4, 6]],
    ['Title', 'Contains', '客户', [0, 1]],
    ['Title', 'Contains', 'abc', [5]],
    ['Title', 'Contains', '%', [1]],
    ['Title', 'Contains', '_', [2]],
    ['Title', 'NotContains', '客户', [2, 3, 4, 5, 6]],
    ['Title', 'Contained', '客户甲有限公司的订单', [0]],
    ['Title', 'NotContained', '客户甲有限公司的订单', [1, 2, 3, 4, 5, 6]],
    ['Title', 'In', ['ABC', 'zzz'], [5, 6]],
    ['Title', 'NotIn', ['ABC', 'zzz'], [0, 1, 2, 3, 4]],
    ['Title', 'IsBlank', undefined, [3, 4]],
    ['Title', 'NotBlank', undefined, [0, 1, 2, 5, 6]],
    ['Kind', 'Equal', 'x', [0, 2, 5]],
    ['Kind', 'In', ['x', 'z'], [0, 2, 4, 5]],
    ['Kind', 'NotIn', ['x'], [1, 3, 4, 6]],
    ['Name', 'Contains', 'r1', [1]],
    // long text
    ['Remark', 'Contains', '北京', [0]],
    ['Remark', 'Equal', 'abc', [5]],
    ['Remark', 'NotEqual', 'abc', [0, 1, 2, 3, 4, 6]],
    ['Remark', 'NotContains', '北京', [1, 2, 3, 4, 5, 6]],
    ['Remark', 'Contained', '上海浦东', [3]],
    ['Remark', 'NotContained', '上海浦东', [0, 1, 2, 4, 5, 6]],
    ['Remark', 'IsBlank', undefined, [1, 2, 6]],
    ['Remark', 'NotBlank', undefined, [0, 3, 4, 5]],
    // numbers (decimal; Status is int)
    ['Amount', 'Equal', 10, [0]],
    ['Amount', 'NotEqual', 10, [1, 2, 3, 4, 5, 6]],
    ['Amount', 'Above', 10, [1, 5]],
    ['Amount', 'NotBelow', '10', [0, 1, 5]],
    ['Amount', 'Below', 0, [2]],
    ['Amount', 'NotAbove', 0, [2, 4]],
    ['Amount', 'Between', [0, 20.5], [0, 1, 4]],
    ['Amount', 'Between', [null, 0], [2, 4]],
    ['Amount', 'Between', [20, null], [1, 5]],
    ['Amount', 'In', [0, 100], [4, 5]],
    ['Amount', 'NotIn', [0, 100], [0, 1, 2, 3, 6]],
    ['Amount', 'IsBlank', undefined, [3, 6]],
    ['Amount', 'NotBlank', undefined, [0, 1, 2, 4, 5]],
    ['Status', 'Equal', 0, [6]],
    ['Status', 'In', [1], [0, 1, 2, 3, 4, 5]],
    // date-time: a date is its whole day in Asia/Shanghai; an instant compares as an instant
    ['Due', 'Equal', '2026-11-01', [1, 2]],
    ['Due', 'NotEqual', '2026-11-01', [0, 3, 4, 5, 6]],
    ['Due', 'Above', '2026-11-01', [3]],
    ['Due', 'NotBelow', '2026-11-01', [1, 2, 3]],
    ['Due', 'Below', '2026-11-01', [0, 4, 5]],
    ['Due', 'NotAbove', '2026-11-01', [0, 1, 2, 4, 5]],
    ['Due', 'Between', ['2026-10-26', '2026-10-31'], [0, 4]],
    ['Due', 'Equal', '2026-11-01T00:00:00+08:00', [1]],
    ['Due', 'Above', '2026-10-31T16:00:00Z', [2, 3]],
    ['Due', 'IsBlank', undefined, [6]],
    ['Due', 'NotBlank', undefined, [0, 1, 2, 3, 4, 5]],
    // bool
    ['Done', 'Equal', true, [0, 3, 5]],
    ['Done', 'Equal', false, [1, 4]],
    ['Done', 'NotEqual', true, [1, 2, 4, 6]],
    ['Done', 'IsBlank', undefined, [2, 6]],
    ['Done', 'NotBlank', undefined, [0, 1, 3, 4, 5]],
    // text[] (checkbox list)
    ['Tags', 'Contains', ['a'], [0, 5]],
    ['Tags', 'Contains', ['a', 'b'], [0]],
    ['Tags', 'NotContains', 'a', [1, 2, 3, 4, 6]],
    ['Tags', 'Contained', ['a', 'b'], [0, 1, 5]],
    ['Tags', 'NotContained', ['a', 'b'], [2, 3, 4, 6]],
    ['Tags', 'In', ['a', 'c'], [0, 4, 5]],
    ['Tags', 'NotIn', ['a', 'c'], [1, 2, 3, 6]],
    ['Tags', 'Equal', ['b', 'a'], [0]],
    ['Tags', 'NotEqual', ['b', 'a'], [1, 2, 3, 4, 5, 6]],
    ['Tags', 'IsBlank', undefined, [2, 3, 6]],
    ['Tags', 'NotBlank', undefined, [0, 1, 4, 5]],
    // user, department (single), system who fields
    ['Buyer', 'IsBlank', undefined, [2, 6]],
    ['Buyer', 'NotBlank', undefined, [0, 1, 3, 4, 5]],
    ['Buyer', 'Dynamic', 'CurrentUser', [0, 3, 4]],
    ['OwnerId', 'Dynamic', 'CurrentUser', [0, 2, 3, 6]],
    ['Dept', 'IsBlank', undefined, [3, 6]],
    // area: a province covers its cities and towns
    ['Area', 'Contains', '110000', [0, 4]],
    ['Area', 'Contains', '440000', [2]],
    ['Area', 'Contains', '440300', [2]],
    ['Area', 'Contains', '北京', [0, 4]],
    ['Area', 'NotContains', '110000', [1, 2, 3, 5, 6]],
    ['Area', 'In', ['310000', '440000'], [1, 2]],
    ['Area', 'NotIn', ['110000'], [1, 2, 3, 5, 6]],
    ['Area', 'Equal', '110101', [0]],
    ['Area', 'NotEqual', '110101', [1, 2, 3, 4, 5, 6]],
    ['Area', 'IsBlank', undefined, [3, 5, 6]],
    ['Area', 'NotBlank', undefined, [0, 1, 2, 4]],
    // map location
    ['Place', 'Contains', '南山', [2]],
    ['Place', 'NotContains', '南山', [0, 1, 3, 4, 5, 6]],
    ['Place', 'IsBlank', undefined, [1, 3, 4, 5, 6]],
    ['Place', 'NotBlank', undefined, [0, 2]],
    // files: [] is blank
    ['Files', 'IsBlank', undefined, [1, 2, 3, 4, 5, 6]],
    ['Files', 'NotBlank', undefined, [0]],
    // sub-table columns: any row matches (EXISTS on the child table)
    ['Items.ItemName', 'Contains', '螺', [0, 1]],
    ['Items.ItemName', 'Equal', '垫片', [3]],
    ['Items.Qty', 'Above', 1, [1, 3]],
    ['Items.Qty', 'Between', [1, 1], [0]],
  ];
  it.each(cases)('%s %s %j', async (field, operator, value, expected) => {
    expect(await matching(leaf(field, operator, value))).toEqual(expected);
  });

  it('compares ids: users, departments, ObjectId (a uuid)', async () => {
    expect(await matching(leaf('Buyer', 'Equal', B))).toEqual([1, 5]);
    expect(await matching(leaf('Buyer', 'NotEqual', B))).toEqual([0, 2, 3, 4, 6]);
    expect(await matching(leaf('Buyer', 'In', [A]))).toEqual([0, 3, 4]);
    expect(await matching(leaf('Buyer', 'NotIn', [A]))).toEqual([1, 2, 5, 6]);
    expect(await matching(leaf('Dept', 'Equal', D1))).toEqual([0, 4]);
    expect(await matching(leaf('Dept', 'NotEqual', D1))).toEqual([1, 2, 3, 5, 6]);
    expect(await matching(leaf('Dept', 'In', [D1a, C]))).toEqual([1, 2, 5]);
    expect(await matching(leaf('Dept', 'NotIn', [D1a, C]))).toEqual([0, 3, 4, 6]);
    // Contains on a department: it or one below it.
    expect(await matching(leaf('Dept', 'Contains', D1))).toEqual([0, 1, 4]);
    expect(await matching(leaf('Dept', 'Contains', D1a))).toEqual([1]);
    expect(await matching(leaf('Dept', 'Contains', C))).toEqual([0, 1, 2, 4, 5]);
    expect(await matching(leaf('ObjectId', 'Equal', ids[2]))).toEqual([2]);
    expect(await matching(leaf('ObjectId', 'In', [ids[0], ids[1]]))).toEqual([0, 1]);
    expect(await matching(leaf('OwnerDeptId', 'Equal', D1))).toEqual([1, 4, 5]);
  });

  it('reads multi-user and multi-department columns as lists', async () => {
    expect(await matching(leaf('Watchers', 'Contains', [B]))).toEqual([0, 1]);
    expect(await matching(leaf('Watchers', 'NotContains', [B]))).toEqual([2, 3, 4, 5, 6]);
    expect(await matching(leaf('Watchers', 'In', [A, B]))).toEqual([0, 1, 4]);
    expect(await matching(leaf('Watchers', 'NotIn', [A]))).toEqual([1, 2, 3, 5, 6]);
    expect(await matching(leaf('Watchers', 'Contained', [A]))).toEqual([4]);
    expect(await matching(leaf('Watchers', 'NotContained', [A]))).toEqual([0, 1, 2, 3, 5, 6]);
    expect(await matching(leaf('Watchers', 'Equal', [B, A]))).toEqual([0]);
    expect(await matching(leaf('Watchers', 'NotEqual', [B, A]))).toEqual([1, 2, 3, 4, 5, 6]);
    expect(await matching(leaf('Watchers', 'IsBlank'))).toEqual([2, 3, 5, 6]);
    expect(await matching(leaf('Watchers', 'NotBlank'))).toEqual([0, 1, 4]);
    expect(await matching(leaf('Watchers', 'Dynamic', 'CurrentUser'))).toEqual([0, 4]);
    expect(await matching(leaf('Depts', 'Contains', [D1]))).toEqual([0, 5]);
    expect(await matching(leaf('Depts', 'In', [D1a, C]))).toEqual([1, 4]);
    expect(await matching(leaf('Depts', 'IsBlank'))).toEqual([2, 3, 6]);
  });

  it('computes my department (and the departments below) for the caller', async () => {
    expect(await matching(leaf('Dept', 'Dynamic', 'MyDepartment'), m)).toEqual([0, 4]);
    expect(await matching(leaf('Dept', 'Dynamic', 'MyDepartmentAndSub'), m)).toEqual([0, 1, 4]);
    expect(await matching(leaf('Depts', 'Dynamic', 'MyDepartment'), m)).toEqual([0, 5]);
    expect(await matching(leaf('Depts', 'Dynamic', 'MyDepartmentAndSub'), m)).toEqual([0, 1, 5]);
    expect(await matching(leaf('Buyer', 'Dynamic', 'CurrentUser'), m)).toEqual([1, 5]);
    expect(await matching(leaf('Dept', 'Dynamic', 'MyDepartment'))).toEqual([2, 5]);
    expect(await matching(leaf('Dept', 'Dynamic', 'MyDepartmentAndSub'))).toEqual([0, 1, 2, 4, 5]);
  });

  it('nests And / Or groups', async () => {
    const or = { type: 'Or', children: [{ type: 'And', children: [leaf('Kind', 'Equal', 'x'), leaf('Amount', 'Above', 0)] }, leaf('Title', 'Equal', 'zzz')] };
    expect(await matching(or)).toEqual([0, 5, 6]);
    expect(await matching({ type: 'And', children: [or, { type: 'Or', children: [leaf('Done', 'Equal', true), leaf('Done', 'IsBlank')] }] })).toEqual([0, 5, 6]);
    expect(await matching({ type: 'And', children: [] })).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(await matching({ type: 'Or', children: [] })).toEqual([]);
    let deep: any = leaf('Kind', 'Equal', 'x');
    for (let i = 0; i < 5; i++) deep = { type: 'And', children: [deep] };
    expect(await matching(deep)).toEqual([0, 2, 5]);
    const tooDeep = { type: 'And', children: [deep] };
    expect((await query(a, { filter: tooDeep })).body.errorCode).toBe(777);
  });
});

describe('refusals (777 with detail.issues, no SQL text)', () => {
  const refused: [unknown, string][] = [
    [leaf('Nope', 'Equal', 'x'), 'filter.field'],
    [leaf('Title', 'Above', 'x'), 'filter.operator'],
    [leaf('Remark', 'In', ['x']), 'filter.operator'],
    [leaf('Amount', 'Contains', '1'), 'filter.operator'],
    [leaf('Amount', 'Equal', 'abc'), 'filter.value'],
    [leaf('Status', 'Equal', 1.5), 'filter.value'],
    [leaf('Amount', 'Between', [null, null]), 'filter.value'],
    [leaf('Due', 'Equal', 'next tuesday'), 'filter.value'],
    [leaf('Due', 'Dynamic', 'CurrentUser'), 'filter.value'],
    [leaf('Buyer', 'Dynamic', 'Today'), 'filter.value'],
    [leaf('Buyer', 'Contains', 'x'), 'filter.operator'],
    [leaf('Tags', 'Above', 'a'), 'filter.operator'],
    [leaf('Tags', 'In', []), 'filter.value'],
    [leaf('Done', 'Equal', 'maybe'), 'filter.value'],
    [leaf('Area', 'Equal', '北京'), 'filter.value'],
    [leaf('Place', 'Equal', 'x'), 'filter.operator'],
    [leaf('Files', 'Contains', 'x'), 'filter.operator'],
    [leaf('ObjectId', 'Equal', 'not-a-uuid'), 'filter.value'],
    [leaf('Items', 'IsBlank'), 'filter.field'],
    [leaf('Items.Nope', 'Equal', 1), 'filter.field'],
    [{ type: 'And', children: [leaf('Title', 'Equal', 'x'), { type: 'Or', children: [leaf('Nope', 'Equal', 1)] }] }, 'filter.children.1.children.0.field'],
  ];
  it.each(refused)('%j → %s', async (filter, path) => {
    const r = await query(a, { filter });
    expect(r.body.errorCode).toBe(777);
    expect(r.body.detail.issues.map((i: any) => i.path)).toContain(path);
    expect(JSON.stringify(r.body)).not.toMatch(/select |where |ilike/i);
  });

  it('sorts only on short text, date-time, int, bool and number columns', async () => {
    for (const field of ['Title', 'Kind', 'Amount', 'Due', 'Done', 'Status', 'CreatedTime', 'Name', 'SeqNo']) {
      expect((await query(a, { sort: [{ field, direction: 'asc' }] })).body.successful, field).toBe(true);
    }
    for (const field of ['Remark', 'Tags', 'Buyer', 'OwnerId', 'Area', 'Files', 'Items', 'Nope']) {
      const r = await query(a, { sort: [{ field, direction: 'asc' }] });
      expect(r.body.errorCode, field).toBe(777);
      expect(r.body.detail.issues[0].path).toBe('sort.0.field');
    }
    const byAmount = await query(a, { sort: [{ field: 'Amount', direction: 'desc' }], filter: leaf('Amount', 'NotBlank') });
    expect(byAmount.body.data.list.map((r: any) => r.Amount)).toEqual([100, 20.5, 10, 0, -3]);
    const byTitle = await query(a, { sort: [{ field: 'Title', direction: 'asc' }], filter: leaf('Title', 'In', ['zzz', 'ABC']) });
    expect(byTitle.body.data.list.map((r: any) => r.Title)).toEqual(['ABC', 'zzz']);
  });

  it('keeps the older equality list working next to the filter', async () => {
    const r = await query(a, { filters: [{ field: 'Kind', value: 'x' }], filter: leaf('Amount', 'Above', 0) });
    expect(r.body.data.list.map((row: any) => ids.indexOf(row.ObjectId)).sort()).toEqual([0, 5]);
    const blank = await query(a, { filters: [{ field: 'Amount', value: null }] });
    expect(blank.body.data.total).toBe(2);
    expect((await query(a, { filters: [{ field: 'Tags', value: 'a' }] })).body.errorCode).toBe(777);
  });
});

describe('paging, statistics and distinct values', () => {
  it('answers the page and the total together, for every page size', async () => {
    const sizes = [1, 5, 10, 20, 50, 100, 200, 500];
    for (const pageSize of sizes) {
      const r = (await query(a, { pageSize, pageIndex: 0 })).body.data;
      expect(r.total).toBe(7);
      expect(r.list).toHaveLength(Math.min(7, pageSize));
      expect(r.hasMore).toBe(pageSize < 7);
    }
    const second = (await query(a, { pageSize: 5, pageIndex: 1 })).body.data;
    expect(second.list.map((r: any) => r.ObjectId)).toEqual([ids[5], ids[6]]);
    expect(second).toMatchObject({ total: 7, hasMore: false });
    const past = (await query(a, { pageSize: 5, pageIndex: 9 })).body.data;
    expect(past).toEqual({ list: [], total: 7, hasMore: false });
    const filtered = (await query(a, { pageSize: 1, pageIndex: 1, filter: leaf('Kind', 'Equal', 'x') })).body.data;
    expect(filtered.list.map((r: any) => r.ObjectId)).toEqual([ids[2]]);
    expect(filtered).toMatchObject({ total: 3, hasMore: true });
    expect((await query(a, { pageSize: 7 })).body.errorCode).toBe(777);
    expect((await query(a, { status: [0] })).body.data.total).toBe(1);
  });

  it('counts without a page: the same totals as the list, under filters, statuses and scopes (docs/decisions/0119)', async () => {
    const count = async (client: OrgClient, body: Record<string, unknown>) => (await client.raw('POST', '/v1/bizdata/count', { schemaCode: code, ...body })).body;
    const cases: Record<string, unknown>[] = [{}, { filter: leaf('Kind', 'Equal', 'x') }, { status: [0] }, { filter: leaf('Title', 'Contains', '客户') }, { scope: 'own' }, { scope: 'relevant', filter: leaf('Kind', 'Equal', 'x') }];
    for (const client of [a, m]) {
      for (const body of cases) expect((await count(client, body)).data, JSON.stringify(body)).toEqual({ total: (await query(client, body)).body.data.total });
    }
    expect((await count(a, { filter: leaf('Nope', 'Equal', 1) })).errorCode).toBe(777);
    expect((await count(a, { scope: 'everyone' })).errorCode).toBe(777);
  });

  it('sums, averages and bounds a number column under a filter', async () => {
    const stat = (body: Record<string, unknown>) => a.raw('POST', '/v1/bizdata/column/stat', { schemaCode: code, ...body });
    expect((await stat({ field: 'Amount' })).body.data).toEqual({ count: 5, sum: 127.5, avg: 25.5, min: -3, max: 100 });
    expect((await stat({ field: 'Amount', filter: leaf('Kind', 'Equal', 'x') })).body.data).toEqual({ count: 3, sum: 107, avg: 107 / 3, min: -3, max: 100 });
    expect((await stat({ field: 'Items.Qty' })).body.data).toMatchObject({ count: 3, sum: 8, min: 1, max: 5 });
    expect((await stat({ field: 'Items.Qty', filter: leaf('Kind', 'Equal', 'x') })).body.data).toMatchObject({ count: 1, sum: 1 });
    expect((await stat({ field: 'Amount', filter: leaf('Title', 'Equal', 'none') })).body.data).toEqual({ count: 0, sum: 0, avg: null, min: null, max: null });
    expect((await stat({ field: 'Title' })).body.errorCode).toBe(777);
    expect((await stat({ field: 'Amount', filter: leaf('Nope', 'Equal', 1) })).body.detail.issues[0].path).toBe('filter.field');
  });

  it('lists the distinct values of a column, paged, list items for multi-value columns', async () => {
    const distinct = (body: Record<string, unknown>) => a.raw('POST', '/v1/bizdata/distinctPropertyValue', { schemaCode: code, ...body });
    expect((await distinct({ field: 'Kind' })).body.data).toEqual({ list: [{ value: 'x', count: 3 }, { value: 'y', count: 1 }, { value: 'z', count: 1 }], total: 3, hasMore: false });
    expect((await distinct({ field: 'Tags' })).body.data.list).toEqual([{ value: 'a', count: 2 }, { value: 'b', count: 2 }, { value: 'c', count: 1 }]);
    expect((await distinct({ field: 'Tags', pageSize: 1, pageIndex: 1 })).body.data).toEqual({ list: [{ value: 'b', count: 2 }], total: 3, hasMore: true });
    expect((await distinct({ field: 'Amount', filter: leaf('Kind', 'Equal', 'x') })).body.data.list).toEqual([{ value: -3, count: 1 }, { value: 10, count: 1 }, { value: 100, count: 1 }]);
    expect((await distinct({ field: 'Kind', scope: 'own' })).body.data.list).toEqual([{ value: 'x', count: 2 }]);
    expect((await distinct({ field: 'Files' })).body.errorCode).toBe(777);
  });
});

describe('data scopes', () => {
  const scoped = async (client: OrgClient, scope: string) => {
    const r = await query(client, { scope });
    return r.body.data.list.map((row: any) => ids.indexOf(row.ObjectId)).sort((x: number, y: number) => x - y);
  };
  it('narrows to own, own department, relevant and their unions, for each of two users', async () => {
    // B owns 1, 4, 5 (owner department D1); A owns 0, 2, 3, 6 (the company). B is in D1.
    expect(await scoped(m, 'own')).toEqual([1, 4, 5]);
    expect(await scoped(a, 'own')).toEqual([0, 2, 3, 6]);
    expect(await scoped(m, 'ownDept')).toEqual([1, 4, 5]);
    expect(await scoped(a, 'ownDept')).toEqual([0, 2, 3, 6]);
    // relevant: the caller is the creator, the owner, or in a user / multi-user field.
    expect(await scoped(m, 'relevant')).toEqual([0, 1, 4, 5]);
    expect(await scoped(a, 'relevant')).toEqual([0, 2, 3, 4, 6]);
    expect(await scoped(m, 'ownAndRelevant')).toEqual([0, 1, 4, 5]);
    expect(await scoped(m, 'ownAndOwnDept')).toEqual([1, 4, 5]);
    expect(await scoped(m, 'all')).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect((await query(m, {})).body.data.total).toBe(7);
    expect((await query(m, { scope: 'own', filter: leaf('Kind', 'Equal', 'x') })).body.data.total).toBe(1);
    expect((await query(m, { scope: 'everyone' })).body.errorCode).toBe(777);
  });

  it('counts a member of the department as own department once a record is theirs there', async () => {
    await edb().updateTable(`i_${code.toLowerCase()}`).set({ OwnerDeptId: D1 }).where('ObjectId', '=', ids[2]).execute();
    try {
      expect(await scoped(m, 'ownDept')).toEqual([1, 2, 4, 5]);
      expect(await scoped(m, 'ownAndOwnDept')).toEqual([1, 2, 4, 5]);
    } finally {
      await edb().updateTable(`i_${code.toLowerCase()}`).set({ OwnerDeptId: C }).where('ObjectId', '=', ids[2]).execute();
    }
  });
});

describe('engines and indexes', () => {
  it("never answers another engine's records", async () => {
    const other = await registerPerson(t.app);
    const o = nodeClient(t.app, other);
    const otherApp = (await createApp(o)).code;
    const otherForm = (await createForm(o, otherApp)).code as string;
    await publish(o, otherForm, definition([{ type: 'textBox', code: 'Title' }]));
    await o.post('/v1/form/action/execute', { schemaCode: otherForm, actionCode: 'Submit', values: { Title: '客户丙' } });
    const mine = await o.post('/v1/bizdata/query', { schemaCode: otherForm, pageIndex: 0, pageSize: 10, filter: leaf('Title', 'Contains', '客户') });
    expect(mine.list.map((r: any) => r.Title)).toEqual(['客户丙']);
    expect((await o.raw('POST', '/v1/bizdata/query', { schemaCode: code, pageIndex: 0, pageSize: 10 })).status).toBe(404);
    expect((await o.raw('POST', '/v1/bizdata/column/stat', { schemaCode: code, field: 'Amount' })).status).toBe(404);
    expect((await a.raw('POST', '/v1/bizdata/query', { schemaCode: otherForm, pageIndex: 0, pageSize: 10 })).status).toBe(404);
  });

  it('gives searchable text columns trigram indexes on publish, which a contains filter can use', async () => {
    const table = `i_${code.toLowerCase()}`;
    const indexes = Object.values(await indexesOf(t, admin.engineCode, table)).filter((d) => d.includes('gin_trgm_ops'));
    // Name, SeqNo, the text box, the text area and the drop-down (full-text search reads them too, decision 0040);
    // not the checkbox list, numbers or ids.
    expect(indexes).toHaveLength(5);
    // On the lowered twins (decision 0103), which a contains filter reads.
    expect(indexes.join()).toMatch(/"~Title"/);
    const plan = await t.database.db.transaction().execute(async (trx) => {
      await sql`set local enable_seqscan = off`.execute(trx);
      const r = await sql<{ 'QUERY PLAN': string }>`explain select "ObjectId" from ${sql.id(`e_${admin.engineCode}`, table)} where "~Title" like lower(${'%客户%'})`.execute(trx);
      return r.rows.map((row) => row['QUERY PLAN']).join('\n');
    });
    expect(plan).toMatch(/Bitmap Index Scan on xt_/);
    // A text box removed on the next publish takes its index with it.
    const other = (await createForm(a, appCode)).code as string;
    const trgm = async () => Object.values(await indexesOf(t, admin.engineCode, `i_${other.toLowerCase()}`)).filter((d) => d.includes('gin_trgm_ops'));
    await publish(a, other, definition([{ type: 'textBox', code: 'Title' }, { type: 'textBox', code: 'Subject' }]));
    expect(await trgm()).toHaveLength(4);
    await publish(a, other, definition([{ type: 'textBox', code: 'Title' }]));
    expect((await trgm()).join()).not.toMatch(/Subject/);
    expect(await trgm()).toHaveLength(3);
  });
});

describe('the engine itself', () => {
  /** Runs a service call with a clock and records every statement it sends. */
  async function run<T>(call: (ctx: any, now: Date) => Promise<T>, now = new Date()) {
    // Subqueries pass transformQuery too (when they become nodes); only executed statements reach transformResult.
    const seen = new Map<unknown, RootOperationNode>();
    const nodes: RootOperationNode[] = [];
    const counter: KyselyPlugin = {
      transformQuery: ({ node, queryId }) => (seen.set(queryId.queryId, node), node),
      transformResult: async ({ result, queryId }) => (nodes.push(seen.get(queryId.queryId)!), result),
    };
    const db = t.database.db.withPlugin(counter) as unknown as Db;
    const result = await call({ db, engineCode: admin.engineCode, userId: A, authType: 1 }, now);
    const statements = nodes.map((node) => t.database.db.getExecutor().compileQuery(node, { queryId: 'q' } as never).sql);
    return { result, onRecords: statements.filter((s) => s.includes(`"i_${code.toLowerCase()}"`)) };
  }

  it('answers filter, scope, sort, page and total from ONE statement (and one for stat and distinct)', async () => {
    const filter = { type: 'Or', children: [leaf('Title', 'Contains', '客户'), leaf('Items.Qty', 'Above', 1), leaf('Dept', 'Dynamic', 'MyDepartmentAndSub')] };
    const q = await run((ctx) => queryRecords(ctx, { schemaCode: code, pageIndex: 0, pageSize: 5, filter: filter as never, scope: 'ownAndRelevant', status: [1], sort: [{ field: 'Amount', direction: 'desc' }] }));
    expect(q.onRecords).toHaveLength(1);
    expect(q.onRecords[0]).not.toContain('客户'); // values travel as parameters
    expect(q.result.total).toBeGreaterThan(0);
    expect((await run((ctx) => columnStat(ctx, { schemaCode: code, field: 'Items.Qty', filter: filter as never }))).onRecords).toHaveLength(1);
    expect((await run((ctx) => distinctValues(ctx, { schemaCode: code, field: 'Tags', pageIndex: 0, pageSize: 10, filter: filter as never }))).onRecords).toHaveLength(1);
  });

  it('counts with one count statement: no page, no order, no row read whole (docs/decisions/0119)', async () => {
    const filter = leaf('Title', 'Contains', '客户');
    const listed = (await run((ctx) => queryRecords(ctx, { schemaCode: code, pageIndex: 0, pageSize: -1, filter: filter as never, scope: 'ownAndRelevant' }))).result.total;
    expect(listed).toBeGreaterThan(0);
    for (let i = 0; i < 2; i++) {
      // The second call binds the remembered statement (docs/decisions/0100): the same answer.
      const c = await run((ctx) => countRecords(ctx, { schemaCode: code, filter: filter as never, scope: 'ownAndRelevant' }));
      expect(c.result).toBe(listed);
      expect(c.onRecords).toHaveLength(1);
      expect(c.onRecords[0]).toMatch(/count\(\*\)/);
      expect(c.onRecords[0]).not.toMatch(/order by|limit|offset|"Title",/i);
    }
    // The open API's RequireCount with an empty window (FromRowNum = ToRowNum) is the same count.
    const w = await run((ctx) => queryWindow(ctx, { schemaCode: code, filter: filter as never, sort: [{ field: 'Amount', direction: 'desc' }] }, { offset: 0, limit: 0, count: true }));
    expect(w.result).toMatchObject({ list: [], total: 2 });
    expect(w.onRecords[0]).not.toMatch(/order by|limit/i);
  });

  // Sun 1 Nov 2026 01:30 in Shanghai is still Sat 31 Oct in UTC: the ranges must follow Shanghai.
  const dynamicCases: [string, number[]][] = [
    ['Today', [1, 2]],
    ['Yesterday', [0]],
    ['Tomorrow', [3]],
    ['ThisWeek', [0, 1, 2, 4]],
    ['LastWeek', [5]],
    ['NextWeek', [3]],
    ['ThisMonth', [1, 2, 3]],
    ['LastMonth', [0, 4, 5]],
    ['NextMonth', []],
    ['ThisQuarter', [0, 1, 2, 3, 4, 5]],
    ['LastQuarter', []],
    ['ThisYear', [0, 1, 2, 3, 4, 5]],
    ['LastYear', []],
    ['Last7Days', [0, 1, 2, 4]],
    ['Last30Days', [0, 1, 2, 4, 5]],
  ];
  it.each(dynamicCases)('Dynamic %s around the month end (clock injected)', async (value, expected) => {
    const { result } = await run((ctx, now) => queryRecords(ctx, { schemaCode: code, pageIndex: 0, pageSize: -1, filter: leaf('Due', 'Dynamic', value) as never }, { now }), new Date('2026-10-31T17:30:00Z'));
    expect(result.list.map((r) => ids.indexOf(String(r.ObjectId))).sort((x, y) => x - y)).toEqual(expected);
  });

  it('moves the ranges with the clock: half an hour before midnight in Shanghai it is still October', async () => {
    const at = new Date('2026-10-31T15:30:00Z');
    const matched = async (value: string) =>
      (await run((ctx, now) => queryRecords(ctx, { schemaCode: code, pageIndex: 0, pageSize: -1, filter: leaf('Due', 'Dynamic', value) as never }, { now }), at)).result.list
        .map((r) => ids.indexOf(String(r.ObjectId)))
        .sort((x, y) => x - y);
    expect(await matched('Today')).toEqual([0]);
    expect(await matched('Tomorrow')).toEqual([1, 2]);
    expect(await matched('ThisMonth')).toEqual([0, 4, 5]);
    expect(await matched('NextMonth')).toEqual([1, 2, 3]);
  });
});
