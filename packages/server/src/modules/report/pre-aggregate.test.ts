import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { DATE_GROUPS } from '@tritium/shared/report/index';
import { engineDb } from '../../db/database.ts';
import type { TestApp } from '../../../test/helpers.ts';
import type { OrgClient, Person } from '../../../test/node-helpers.ts';
import { definition, engineSql, formWithDepartmentMember, publish, tableRef } from '../../../test/form-helpers.ts';

// test-databases: both — statement triggers with transition tables, ON CONFLICT on a NULLS NOT DISTINCT key.

// The report pre-aggregation (issue 22; docs/decisions/0074): a large form gets one built by the job runner, and from
// then on every widget it answers reads it — with the very numbers a scan of the form's table gives, for every
// measure and date grouping, for an administrator and for a member who sees their own department, after inserts,
// updates, deletes and set-wise writes. A min or max a removal may have taken away makes the widget scan until the job
// rebuilds. The scan is forced with an always-true condition on a column the pre-aggregation does not keep.

const NOW = Date.now();
let t: TestApp, admin: Person, a: OrgClient, code: string, table: string;
let member: Person & { userId: string }, m: OrgClient;
let A: string, B: string, C: string, D1: string;

const FORM = definition([
  { type: 'textBox', code: 'Title' },
  { type: 'dropDown', code: 'Kind', options: { defaultItems: ['x', 'y', 'z'] } },
  { type: 'number', code: 'Amount', options: { decimalPlaces: 2 } },
  { type: 'number', code: 'Qty' },
  { type: 'dateTime', code: 'OrderDate' },
]);

const edb = () => engineDb(t.database.db, admin.engineCode) as unknown as Kysely<any>;
let serial = 0;
function recordOf(i: number) {
  const inD1 = i % 4 < 2;
  const owner = inD1 ? B : A;
  // Every 9 days back, at hours 5 apart: days near midnight in UTC+8, ISO weeks across a new year.
  const date = new Date(NOW - 3_600_000 - (70 - i) * 9 * 86_400_000 - (i % 5) * 5 * 3_600_000).toISOString();
  return {
    ObjectId: randomUUID(), Name: `r${serial++}`, Status: i % 9 === 0 ? 0 : 1, CreatedBy: owner, ModifiedBy: owner, OwnerId: owner, OwnerDeptId: inD1 ? D1 : C,
    CreatedTime: date, ModifiedTime: date, Title: `订单${i}`, Kind: i % 11 === 0 ? null : ['x', 'y', 'z'][i % 3],
    Amount: i % 13 === 0 ? null : ((i * 37) % 100) + 0.25 * (i % 4), Qty: i % 6, OrderDate: i % 17 === 0 ? null : date,
  };
}

beforeAll(async () => {
  let appCode: string;
  ({ t, admin, a, appCode, code, table, A, B, C, D1, member, m } = await formWithDepartmentMember({ clock: () => new Date(NOW), config: { reportPreAggregateFromRows: 50 } }, FORM));
  await a.post('/v1/form/permission/group/save', {
    schemaCode: code,
    group: { name: '销售部', members: { users: [B] }, actions: ['view'], viewScope: 'ownDept', editScope: 'own', fieldRights: {} },
  });
  await edb().insertInto(table).values(Array.from({ length: 70 }, (_, i) => recordOf(i))).execute();
  await sql`analyze ${tableRef(admin.engineCode, table)}`.execute(t.database.db);
});
afterAll(() => t.close());

const widget = (over: Record<string, unknown> = {}) => ({ id: 'w1', type: 'table', layout: { x: 0, y: 0, w: 6, h: 6 }, source: { schemaCode: code }, ...over });
async function dataOk(c: OrgClient, w: Record<string, unknown>, filter?: unknown) {
  const r = await c.raw('POST', '/v1/report/data', { widget: w, ...(filter ? { filter } : {}) });
  if (!r.body.successful) throw new Error(JSON.stringify(r.body));
  return r.body.data;
}
/** Always true, on a column the pre-aggregation does not keep: the widget scans the table. */
const SCAN = { type: 'Or', children: [{ field: 'Title', operator: 'IsBlank' }, { field: 'Title', operator: 'NotBlank' }] };

const round = (v: unknown) => (typeof v === 'number' ? Math.round(v * 1e6) / 1e6 : v);
const numbers = (r: Record<string, unknown>) =>
  JSON.stringify({ rows: r.rows, subtotals: r.subtotals, columnTotals: r.columnTotals, totals: r.totals, comparison: r.comparison, truncated: r.truncated }, (_k, v) => round(v));

/** The widget as read from the pre-aggregation and by a scan: the same numbers, and the first really from it. */
async function sameAsScan(c: OrgClient, w: Record<string, unknown>, expectPre = true, filter?: unknown) {
  const pre = await dataOk(c, w, filter);
  const scan = await dataOk(c, w, filter ? { type: 'And', children: [filter, SCAN] } : SCAN);
  expect(scan.preAggregated).toBeUndefined();
  expect(!!pre.preAggregated).toBe(expectPre);
  expect(numbers(pre)).toBe(numbers(scan));
  return pre;
}

const ALL_MEASURES = [
  { aggregate: 'count' }, { aggregate: 'count', field: 'Amount' }, { aggregate: 'sum', field: 'Amount' }, { aggregate: 'avg', field: 'Amount' },
  { aggregate: 'min', field: 'Amount' }, { aggregate: 'max', field: 'Amount' }, { aggregate: 'avg', field: 'Qty' }, { aggregate: 'distinct', field: 'Kind' },
];
const WIDGETS: [string, Record<string, unknown>][] = [
  ...DATE_GROUPS.map((g): [string, Record<string, unknown>] => [`every measure by ${g} of a date`, { dimensions: [{ field: 'OrderDate', dateGroup: g }], measures: ALL_MEASURES }]),
  ['by the created time, month', { dimensions: [{ field: 'CreatedTime', dateGroup: 'month' }], measures: ALL_MEASURES }],
  ['options × department with totals', { type: 'pivot', dimensions: [{ field: 'OwnerDeptId' }, { field: 'Kind' }], measures: [{ aggregate: 'count' }, { aggregate: 'sum', field: 'Amount' }], totals: true }],
  ['a number card against last month', { type: 'number', measures: [{ aggregate: 'sum', field: 'Amount' }, { aggregate: 'count' }], compare: { dateField: 'OrderDate', period: 'month' } }],
  ['top 5 days by count', { type: 'bar', dimensions: [{ field: 'OrderDate', dateGroup: 'day' }], measures: [{ aggregate: 'count' }], sort: { by: 'measure', index: 0, direction: 'desc' }, topN: 5 }],
  ['status and a filter on an option', { dimensions: [{ field: 'Status' }], measures: [{ aggregate: 'count' }, { aggregate: 'max', field: 'Qty' }], filter: { field: 'Kind', operator: 'In', value: ['x', 'z'] } }],
];

async function everyWidgetSame() {
  for (const [, w] of WIDGETS) {
    await sameAsScan(a, widget(w));
    await sameAsScan(m, widget(w));
  }
}

/** Runs the waiting jobs (the pre-aggregation's build). */
async function runJobs() {
  while (await t.app.extras.jobs.runOnce());
}

describe('the pre-aggregation of a large form', () => {
  it('is queued when a widget reads the form, built by the job runner, then read by every widget it answers', async () => {
    const first = await dataOk(a, widget({ type: 'number', measures: [{ aggregate: 'count' }] }));
    expect(first.preAggregated).toBeUndefined();
    const [job] = await engineSql<{ state: string }>(t, sql`select state from platform.jobs where kind = 'report.pre-aggregate' and engine_code = ${admin.engineCode}`);
    expect(job?.state).toBe('Waiting');
    await runJobs();
    const [done] = await engineSql<{ state: string; progress: number }>(t, sql`select state, progress from platform.jobs where kind = 'report.pre-aggregate' and engine_code = ${admin.engineCode}`);
    expect(done).toMatchObject({ state: 'Finished', progress: 100 });
    const [n] = await engineSql<{ groups: number }>(t, sql`select count(*)::int as groups from ${tableRef(admin.engineCode, `${table}__agg`)}`);
    expect(n!.groups).toBeGreaterThan(0);
    expect(n!.groups).toBeLessThanOrEqual(70);
    await everyWidgetSame();
  });

  it.each(WIDGETS)('%s: the same numbers as a scan, for the administrator and for a member who sees their department', async (_name, w) => {
    await sameAsScan(a, widget(w));
    const mine = await sameAsScan(m, widget(w));
    const all = await dataOk(a, widget({ type: 'number', measures: [{ aggregate: 'count' }] }));
    const own = await dataOk(m, widget({ type: 'number', measures: [{ aggregate: 'count' }] }));
    expect(own.preAggregated).toBe(true);
    // A widget counts Effective records (every ninth record is a Draft).
    const [d1] = await engineSql<{ n: number }>(t, sql`select count(*)::int as n from ${tableRef(admin.engineCode, table)} where ${sql.ref('OwnerDeptId')} = ${D1} and ${sql.ref('Status')} = 1`);
    expect(own.rows).toEqual([[d1!.n]]);
    expect(all.rows[0][0]).toBeGreaterThan(own.rows[0][0]);
    expect(mine.columns.length).toBeGreaterThan(0);
  });

  it('stays equal after inserts, set-wise writes, updates that move records between groups, and deletes', async () => {
    await edb().insertInto(table).values(recordOf(3)).execute();
    await everyWidgetSame();
    // An import-like write: many rows in one statement, new groups among them.
    await edb().insertInto(table).values(Array.from({ length: 25 }, (_, i) => recordOf(100 + i))).execute();
    await everyWidgetSame();
    await sql`update ${tableRef(admin.engineCode, table)} set ${sql.ref('Kind')} = 'y', ${sql.ref('Amount')} = ${sql.ref('Amount')} + 1 where ${sql.ref('Qty')} = 2`.execute(t.database.db);
    await sql`update ${tableRef(admin.engineCode, table)} set ${sql.ref('OrderDate')} = ${sql.ref('OrderDate')} - interval '20 hours', ${sql.ref('OwnerDeptId')} = ${C} where ${sql.ref('Qty')} = 3`.execute(t.database.db);
    await sql`update ${tableRef(admin.engineCode, table)} set ${sql.ref('Amount')} = null where ${sql.ref('Qty')} = 4`.execute(t.database.db);
    // Deletes that empty whole groups, and one that removes the largest Qty (a max the pre-aggregation cannot recompute).
    await sql`delete from ${tableRef(admin.engineCode, table)} where ${sql.ref('Kind')} = 'z' and ${sql.ref('Status')} = 0`.execute(t.database.db);
    await sql`delete from ${tableRef(admin.engineCode, table)} where ${sql.ref('Qty')} = 5`.execute(t.database.db);
    const [gone] = await engineSql<{ n: number }>(t, sql`select count(*)::int as n from ${tableRef(admin.engineCode, `${table}__agg`)} where ${sql.ref('__n')} = 0`);
    expect(gone!.n).toBeGreaterThan(0);
    // Count, sum, average and distinct still read from it; a min or max scans until the rebuild.
    await sameAsScan(a, widget({ dimensions: [{ field: 'OrderDate', dateGroup: 'month' }], measures: [{ aggregate: 'count' }, { aggregate: 'sum', field: 'Amount' }, { aggregate: 'avg', field: 'Qty' }, { aggregate: 'distinct', field: 'Kind' }] }));
    await sameAsScan(m, widget({ dimensions: [{ field: 'Kind' }], measures: [{ aggregate: 'max', field: 'Qty' }] }), false);
    await runJobs();
    await everyWidgetSame();
    const [jobs] = await engineSql<{ n: number }>(t, sql`select count(*)::int as n from platform.jobs where kind = 'report.pre-aggregate' and engine_code = ${admin.engineCode} and state = 'Finished'`);
    expect(jobs!.n).toBe(2);
  });

  it('a rolled-back write leaves it as it was; a truncate empties it, and writes after it count again', async () => {
    const groups = async () => (await engineSql<{ n: number }>(t, sql`select count(*)::int as n from ${tableRef(admin.engineCode, `${table}__agg`)} where ${sql.ref('__n')} > 0`))[0]!.n;
    const before = await groups();
    await expect(t.database.db.transaction().execute(async (trx) => {
      await sql`delete from ${tableRef(admin.engineCode, table)}`.execute(trx);
      throw new Error('undone');
    })).rejects.toThrow('undone');
    expect(await groups()).toBe(before);
    await everyWidgetSame();
    await sql`truncate ${tableRef(admin.engineCode, table)}`.execute(t.database.db);
    const [left] = await engineSql<{ n: number }>(t, sql`select count(*)::int as n from ${tableRef(admin.engineCode, `${table}__agg`)}`);
    expect(left!.n).toBe(0);
    await everyWidgetSame();
    await edb().insertInto(table).values(Array.from({ length: 60 }, (_, i) => recordOf(i * 2))).execute();
    await everyWidgetSame();
  });

  it('answers date filters by whole days (a board\'s date range, a drill-down, dynamic ranges) with the numbers of a scan', async () => {
    const day = (back: number) => new Date(NOW - back * 86_400_000 + 8 * 3_600_000).toISOString().slice(0, 10);
    const w = widget({ dimensions: [{ field: 'Kind' }, { field: 'OrderDate', dateGroup: 'month' }], measures: [{ aggregate: 'count' }, { aggregate: 'sum', field: 'Amount' }, { aggregate: 'avg', field: 'Qty' }] });
    const filters = [
      { field: 'OrderDate', operator: 'Between', value: [day(200), day(40)] },
      { field: 'OrderDate', operator: 'Between', value: [null, day(90)] },
      { field: 'CreatedTime', operator: 'Between', value: [day(300), null] },
      { field: 'OrderDate', operator: 'Equal', value: day(10) },
      { field: 'OrderDate', operator: 'Above', value: day(100) },
      { field: 'OrderDate', operator: 'NotAbove', value: day(100) },
      { field: 'OrderDate', operator: 'Below', value: day(55) },
      { field: 'OrderDate', operator: 'NotBelow', value: day(55) },
      { field: 'OrderDate', operator: 'Dynamic', value: 'Last30Days' },
      { field: 'CreatedTime', operator: 'Dynamic', value: 'ThisYear' },
      { field: 'OrderDate', operator: 'IsBlank' },
      { type: 'And', children: [{ field: 'OrderDate', operator: 'NotBlank' }, { field: 'Kind', operator: 'In', value: ['x', 'y'] }] },
    ];
    for (const filter of filters) {
      await sameAsScan(a, w, true, filter);
      await sameAsScan(m, w, true, filter);
    }
    // A widget's own filter, and a board's range on top of it.
    await sameAsScan(m, { ...w, filter: { field: 'OrderDate', operator: 'Dynamic', value: 'LastYear' } }, true, filters[0]);
  });

  it('widgets it cannot answer exactly scan: a bound inside a day, a sub-set of scopes it does not keep, a distinct count of a number', async () => {
    await sameAsScan(a, widget({ dimensions: [{ field: 'Kind' }], measures: [{ aggregate: 'count' }] }));
    for (const filter of [
      { field: 'OrderDate', operator: 'Between', value: ['2025-01-01', '2025-12-31T12:00:00Z'] },
      { field: 'OrderDate', operator: 'Above', value: '2025-06-01T08:30:00+08:00' },
      { field: 'OrderDate', operator: 'Equal', value: new Date(NOW - 86_400_000).toISOString() },
    ]) await sameAsScan(a, widget({ dimensions: [{ field: 'Kind' }], measures: [{ aggregate: 'count' }] }), false, filter);
    const distinct = await dataOk(a, widget({ dimensions: [{ field: 'Kind' }], measures: [{ aggregate: 'distinct', field: 'Amount' }] }));
    expect(distinct.preAggregated).toBeUndefined();
  });

  it('a publish that drops a column drops the pre-aggregation first: writes go on, widgets scan, the next read queues it again', async () => {
    const without = definition([
      { type: 'textBox', code: 'Title' },
      { type: 'dropDown', code: 'Kind', options: { defaultItems: ['x', 'y', 'z'] } },
      { type: 'number', code: 'Amount', options: { decimalPlaces: 2 } },
      { type: 'dateTime', code: 'OrderDate' },
    ]);
    const published = await publish(a, code, without, [`${table}.Qty`]);
    expect(published).toBeTruthy();
    const [left] = await engineSql<{ r: string | null }>(t, sql`select to_regclass(${`e_${admin.engineCode}.${table}__agg`})::text as r`);
    expect(left!.r).toBeNull();
    const { Qty: _, ...row } = recordOf(7);
    await edb().insertInto(table).values(row).execute();
    await sql`analyze ${tableRef(admin.engineCode, table)}`.execute(t.database.db);
    const w = widget({ dimensions: [{ field: 'Kind' }], measures: [{ aggregate: 'count' }, { aggregate: 'sum', field: 'Amount' }] });
    expect((await dataOk(a, w)).preAggregated).toBeUndefined();
    await runJobs();
    // A cached answer stays valid (the same numbers): the pre-aggregation is read once the data changes again.
    await sql`update ${tableRef(admin.engineCode, table)} set ${sql.ref('Title')} = 'x' where ${sql.ref('Name')} = ${row.Name}`.execute(t.database.db);
    await sameAsScan(a, w);
    await sameAsScan(m, w);
  });
});
