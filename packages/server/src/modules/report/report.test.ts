import { randomUUID } from 'node:crypto';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql, type Kysely } from 'kysely';
import { DATE_GROUPS, MEASURE_AGGREGATES, drillConditions, type DateGroup } from '@tritium/shared/report/index';
import { areaName } from '@tritium/shared/reference/areas';
import { engineDb } from '../../db/database.ts';
import { registerPerson, type TestApp } from '../../../test/helpers.ts';
import { createNode, FunctionNodeType, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { definition, engineSql, formWithDepartmentMember, tableRef } from '../../../test/form-helpers.ts';

// test-databases: both — GROUP BY, GROUPING SETS, windows and date grouping compiled to SQL, and the data-version triggers.

// Reports and dashboards (issue 22; docs/decisions/0044) over HTTP: every measure under every date grouping equals
// SQL run directly on the form's table; a member whose permission group sees their own department gets only that
// department's numbers; hidden fields and other engines' forms are refused; results are cached until the form's data
// changes; boards are stored per node and changed only by the app's administrators. Records are written with SQL so
// owners, departments and dates are exact.

// The reports' clock (the app's `clock`): fixed for the run.
const NOW = Date.now();
let t: TestApp, admin: Person, a: OrgClient, appCode: string, code: string, table: string;
let member: Person & { userId: string }, m: OrgClient;
let A: string, B: string, C: string, D1: string;

const FORM = definition([
  { type: 'textBox', code: 'Title' },
  { type: 'dropDown', code: 'Kind', options: { defaultItems: ['x', 'y', 'z'] } },
  { type: 'number', code: 'Amount', options: { decimalPlaces: 2 } },
  { type: 'number', code: 'Qty' },
  { type: 'dateTime', code: 'OrderDate' },
  { type: 'user', code: 'Buyer' },
  { type: 'areaSelect', code: 'Region' },
  { type: 'gridView', code: 'Items', controls: [{ type: 'textBox', code: 'ItemName' }, { type: 'number', code: 'Cost', options: { decimalPlaces: 2 } }] },
]);

/** Towns, a city and a province's own code, in four provinces; every seventh record has none. */
const REGIONS = ['440305', '440106', '110101', '330106', '650102', '440300'];
const regionOf = (i: number) => (i % 7 === 0 ? null : JSON.stringify({ adcode: REGIONS[i % REGIONS.length]!, adname: areaName(REGIONS[i % REGIONS.length]!), detail: '' }));

const edb = () => engineDb(t.database.db, admin.engineCode) as unknown as Kysely<any>;

async function insertRecord(i: number) {
  const id = randomUUID();
  const inD1 = i % 4 < 2;
  const owner = inD1 ? B : A;
  // Dates every 11 days back from an hour ago, at hours 7 apart: about two years, so years, quarters, ISO weeks across
  // a new year and days near midnight in UTC+8 all occur.
  const date = new Date(NOW - 3_600_000 - (59 - i) * 11 * 86_400_000 - (i % 3) * 7 * 3_600_000);
  await edb()
    .insertInto(table)
    .values({
      ObjectId: id, Name: `r${i}`, Status: 1, CreatedBy: owner, ModifiedBy: owner, OwnerId: owner, OwnerDeptId: inD1 ? D1 : C,
      CreatedTime: date.toISOString(), ModifiedTime: date.toISOString(),
      Title: `订单${i}`, Kind: i % 11 === 0 ? null : ['x', 'y', 'z'][i % 3], Amount: (i * 37) % 100 + 0.25 * (i % 4), Qty: i % 5, OrderDate: date.toISOString(), Buyer: i % 2 ? A : B, Region: regionOf(i),
    })
    .execute();
  for (let k = 0; k < i % 3; k++) await edb().insertInto(`${table}__items`).values({ ParentObjectId: id, SortKey: k, ItemName: `件${k}`, Cost: 10 + k + i }).execute();
}

beforeAll(async () => {
  ({ t, admin, a, appCode, code, table, A, B, C, D1, member, m } = await formWithDepartmentMember({ clock: () => new Date(NOW) }, FORM));
  for (let i = 0; i < 60; i++) await insertRecord(i);
});
afterAll(() => t.close());

const widget = (over: Record<string, unknown> = {}) => ({ id: 'w1', type: 'table', layout: { x: 0, y: 0, w: 6, h: 6 }, source: { schemaCode: code }, ...over });
const data = (c: OrgClient, w: Record<string, unknown>, filter?: unknown) => c.raw('POST', '/v1/report/data', { widget: w, ...(filter ? { filter } : {}) });
async function dataOk(c: OrgClient, w: Record<string, unknown>, filter?: unknown) {
  const r = await data(c, w, filter);
  if (!r.body.successful) throw new Error(JSON.stringify(r.body));
  return r.body.data;
}

const SHANGHAI = sql`'Asia/Shanghai'`;
/** The group key of a date as the report names it, built from extract() parts (not the report's own to_char). */
function keyOf(group: DateGroup, p: { y: number; q: number; mo: number; iy: number; w: number; d: number }): string {
  const two = (n: number) => String(n).padStart(2, '0');
  switch (group) {
    case 'year': return `${p.y}`;
    case 'quarter': return `${p.y}-Q${p.q}`;
    case 'month': return `${p.y}-${two(p.mo)}`;
    case 'week': return `${p.iy}-W${two(p.w)}`;
    default: return `${p.y}-${two(p.mo)}-${two(p.d)}`;
  }
}

describe('numbers equal SQL run directly', () => {
  it.each(DATE_GROUPS)('every measure grouped by %s of a date', async (group) => {
    const res = await dataOk(a, widget({
      dimensions: [{ field: 'OrderDate', dateGroup: group }],
      measures: MEASURE_AGGREGATES.map((aggregate) => (aggregate === 'count' ? { aggregate } : { aggregate, field: aggregate === 'distinct' ? 'Kind' : 'Amount' })),
    }));
    const local = sql`(${sql.ref('OrderDate')} at time zone ${SHANGHAI})`;
    const direct = await engineSql<Record<string, string | number | null>>(t, sql`
      select extract(year from ${local})::int as y, extract(quarter from ${local})::int as q, extract(month from ${local})::int as mo,
             extract(isoyear from ${local})::int as iy, extract(week from ${local})::int as w, extract(day from ${local})::int as d,
             ${sql.ref('Amount')} as amount, ${sql.ref('Kind')} as kind
      from ${tableRef(admin.engineCode, table)}`);
    const groups = new Map<string, { amounts: number[]; kinds: Set<string> }>();
    for (const r of direct) {
      const key = keyOf(group, r as never);
      const g = groups.get(key) ?? { amounts: [], kinds: new Set() };
      g.amounts.push(Number(r.amount));
      if (r.kind != null) g.kinds.add(String(r.kind));
      groups.set(key, g);
    }
    const expected = [...groups.entries()].sort(([x], [y]) => x.localeCompare(y)).map(([key, g]) => [
      key, g.amounts.length, g.amounts.reduce((s, v) => s + v, 0), g.amounts.reduce((s, v) => s + v, 0) / g.amounts.length, Math.max(...g.amounts), Math.min(...g.amounts), g.kinds.size,
    ]);
    expect(res.rows.length).toBe(expected.length);
    res.rows.forEach((row: unknown[], i: number) => {
      const e = expected[i]!;
      expect(row[0]).toBe(e[0]);
      expect(row[1]).toBe(e[1]);
      expect(row[2]).toBeCloseTo(e[2] as number, 6);
      expect(row[3]).toBeCloseTo(e[3] as number, 6);
      expect(row.slice(4)).toEqual(e.slice(4));
    });
    expect(res.columns.map((c: { key: string }) => c.key)).toEqual(['d0', 'm0', 'm1', 'm2', 'm3', 'm4', 'm5']);
  });

  it('users and departments as dimensions, with their names', async () => {
    const res = await dataOk(a, widget({ dimensions: [{ field: 'OwnerDeptId' }, { field: 'Buyer' }], measures: [{ aggregate: 'sum', field: 'Qty' }] }));
    const direct = await engineSql<{ dept: string; buyer: string; qty: string }>(t, sql`
      select ${sql.ref('OwnerDeptId')} as dept, ${sql.ref('Buyer')} as buyer, sum(${sql.ref('Qty')})::text as qty
      from ${tableRef(admin.engineCode, table)} group by 1, 2`);
    expect(res.rows.map((r: unknown[]) => `${r[0]}/${r[1]}=${r[2]}`).sort()).toEqual(direct.map((r) => `${r.dept}/${r.buyer}=${Number(r.qty)}`).sort());
    expect(res.labels).toMatchObject({ [D1]: '销售部', [B]: '销售' });
  });

  it('a sub-table widget sums its rows by a field of their record', async () => {
    const res = await dataOk(a, widget({ source: { schemaCode: code, gridCode: 'Items' }, dimensions: [{ field: 'Kind' }], measures: [{ aggregate: 'sum', field: 'Items.Cost' }, { aggregate: 'count' }] }));
    const direct = await engineSql<{ kind: string | null; cost: string; n: number }>(t, sql`
      select m.${sql.ref('Kind')} as kind, sum(g.${sql.ref('Cost')})::text as cost, count(*)::int as n
      from ${tableRef(admin.engineCode, `${table}__items`)} g join ${tableRef(admin.engineCode, table)} m on m.${sql.ref('ObjectId')} = g.${sql.ref('ParentObjectId')}
      group by 1 order by 1 nulls last`);
    expect(res.rows).toEqual(direct.map((r) => [r.kind, Number(r.cost), r.n]));
  });

  it('top N by a measure, with subtotals, column totals and a total over every group', async () => {
    const res = await dataOk(a, widget({ dimensions: [{ field: 'Kind' }, { field: 'Qty' }], measures: [{ aggregate: 'sum', field: 'Amount' }], sort: { by: 'measure', index: 0, direction: 'desc' }, topN: 3, totals: true }));
    const direct = await engineSql<{ kind: string | null; qty: number; s: string }>(t, sql`
      select ${sql.ref('Kind')} as kind, ${sql.ref('Qty')}::int as qty, sum(${sql.ref('Amount')})::text as s from ${tableRef(admin.engineCode, table)} group by 1, 2 order by sum(${sql.ref('Amount')}) desc, 1 nulls last, 2 limit 3`);
    expect(res.rows.map((r: unknown[]) => r[2])).toEqual(direct.map((r) => Number(r.s)));
    expect(res.truncated).toBe(true);
    const [total] = await engineSql<{ s: string }>(t, sql`select sum(${sql.ref('Amount')})::text as s from ${tableRef(admin.engineCode, table)}`);
    expect(res.totals[2]).toBeCloseTo(Number(total!.s), 6);
    const kinds = await engineSql<{ kind: string | null; s: string }>(t, sql`select ${sql.ref('Kind')} as kind, sum(${sql.ref('Amount')})::text as s from ${tableRef(admin.engineCode, table)} group by 1`);
    expect(res.subtotals.map((r: unknown[]) => `${r[0]}=${Number(r[2]).toFixed(2)}`).sort()).toEqual(kinds.map((r) => `${r.kind}=${Number(r.s).toFixed(2)}`).sort());
    const qtys = await engineSql<{ qty: number; s: string }>(t, sql`select ${sql.ref('Qty')}::int as qty, sum(${sql.ref('Amount')})::text as s from ${tableRef(admin.engineCode, table)} group by 1`);
    expect(res.columnTotals.map((r: unknown[]) => `${r[1]}=${Number(r[2]).toFixed(2)}`).sort()).toEqual(qtys.map((r) => `${r.qty}=${Number(r.s).toFixed(2)}`).sort());
  });

  it('a number card compares this month with the last (the clock the app is given)', async () => {
    // Month starts in Shanghai (UTC+8, no daylight saving), as instants.
    const local = new Date(NOW + 8 * 3_600_000);
    const start = (k: number) => new Date(Date.UTC(local.getUTCFullYear(), local.getUTCMonth() + k, 1) - 8 * 3_600_000).toISOString();
    const res = await dataOk(a, widget({ type: 'number', measures: [{ aggregate: 'sum', field: 'Amount' }], compare: { dateField: 'OrderDate', period: 'month' } }));
    const [r] = await engineSql<{ cur: string | null; prev: string | null; all: string }>(t, sql`
      select sum(${sql.ref('Amount')}) filter (where ${sql.ref('OrderDate')} >= ${start(0)} and ${sql.ref('OrderDate')} < ${start(1)})::text as cur,
             sum(${sql.ref('Amount')}) filter (where ${sql.ref('OrderDate')} >= ${start(-1)} and ${sql.ref('OrderDate')} < ${start(0)})::text as prev,
             sum(${sql.ref('Amount')})::text as all
      from ${tableRef(admin.engineCode, table)}`);
    expect(res.rows).toEqual([[Number(r!.all)]]);
    const n = (v: string | null) => (v == null ? null : Number(v));
    expect(res.comparison).toEqual({ current: [n(r!.cur)], previous: [n(r!.prev)], from: start(0), to: start(1) });
    expect(r!.prev).not.toBeNull();
  });

  it('a map counts and sums per province of an area field, named as the area control names them', async () => {
    const res = await dataOk(a, widget({ type: 'map', dimensions: [{ field: 'Region' }], measures: [{ aggregate: 'count' }, { aggregate: 'sum', field: 'Amount' }] }));
    const direct = await engineSql<{ adcode: string | null; amount: string }>(t, sql`select ${sql.ref('Region')}->>'adcode' as adcode, ${sql.ref('Amount')}::text as amount from ${tableRef(admin.engineCode, table)}`);
    const byProvince = new Map<string | null, [number, number]>();
    for (const r of direct) {
      const key = r.adcode ? `${r.adcode.slice(0, 2)}0000` : null;
      const [n, sum] = byProvince.get(key) ?? [0, 0];
      byProvince.set(key, [n + 1, sum + Number(r.amount)]);
    }
    expect(res.rows.map((r: unknown[]) => r[0])).toEqual(['110000', '330000', '440000', '650000', null]);
    for (const row of res.rows) {
      expect(row[1]).toBe(byProvince.get(row[0])![0]);
      expect(row[2]).toBeCloseTo(byProvince.get(row[0])![1], 6);
    }
    expect(res.labels).toMatchObject({ '110000': '北京市', '440000': '广东省', '650000': '新疆维吾尔自治区' });
    // A click on a province lists the records inside it: as many as the map counts.
    const [leaf] = drillConditions([{ field: 'Region' }], ['440000'], ['address']);
    const inside = await dataOk(a, widget({ type: 'number', measures: [{ aggregate: 'count' }] }), leaf);
    expect(inside.rows).toEqual([[byProvince.get('440000')![0]]]);
  });

  it('a map needs an area field as its dimension', async () => {
    expect((await data(a, widget({ type: 'map', dimensions: [{ field: 'Kind' }], measures: [{ aggregate: 'count' }] }))).body).toMatchObject({ successful: false, errorCode: 370002 });
    const none = await data(a, widget({ type: 'map', measures: [{ aggregate: 'count' }] }));
    expect(none.body).toMatchObject({ successful: false, errorCode: 777 });
    expect(JSON.stringify(none.body.detail)).toContain('地址字段');
  });

  it('a run-time filter narrows the numbers', async () => {
    const res = await dataOk(a, widget({ type: 'number', measures: [{ aggregate: 'count' }] }), { field: 'OrderDate', operator: 'Between', value: ['2025-01-01', '2025-12-31'] });
    const [r] = await engineSql<{ n: number }>(t, sql`select count(*)::int as n from ${tableRef(admin.engineCode, table)} where (${sql.ref('OrderDate')} at time zone ${SHANGHAI})::date between '2025-01-01' and '2025-12-31'`);
    expect(res.rows).toEqual([[r!.n]]);
  });
});

describe('within what the viewer may see', () => {
  beforeAll(async () => {
    await a.post('/v1/form/permission/group/save', {
      schemaCode: code,
      group: { name: '销售部', members: { users: [B] }, actions: ['view'], viewScope: 'ownDept', editScope: 'own', fieldRights: { Amount: 'hidden' } },
    });
  });

  it('a member whose group sees their own department gets only that department\'s numbers', async () => {
    const w = widget({ dimensions: [{ field: 'Kind' }], measures: [{ aggregate: 'count' }, { aggregate: 'sum', field: 'Qty' }] });
    const mine = await dataOk(m, w);
    const direct = await engineSql<{ kind: string | null; n: number; q: string }>(t, sql`
      select ${sql.ref('Kind')} as kind, count(*)::int as n, sum(${sql.ref('Qty')})::text as q from ${tableRef(admin.engineCode, table)}
      where ${sql.ref('OwnerDeptId')} = ${D1} group by 1 order by 1 nulls last`);
    expect(mine.rows).toEqual(direct.map((r) => [r.kind, r.n, Number(r.q)]));
    const all = await dataOk(a, w);
    expect(all.rows.reduce((s: number, r: number[]) => s + r[1]!, 0)).toBe(60);
    expect(mine.rows.reduce((s: number, r: number[]) => s + r[1]!, 0)).toBe(30);
  });

  it('a member\'s map holds only their department\'s records', async () => {
    const w = widget({ type: 'map', dimensions: [{ field: 'Region' }], measures: [{ aggregate: 'count' }] });
    const direct = await engineSql<{ p: string | null; n: number }>(t, sql`
      select left(${sql.ref('Region')}->>'adcode', 2) as p, count(*)::int as n from ${tableRef(admin.engineCode, table)}
      where ${sql.ref('OwnerDeptId')} = ${D1} group by 1`);
    const mine = await dataOk(m, w);
    expect(Object.fromEntries(mine.rows.map((r: unknown[]) => [r[0], r[1]]))).toEqual(Object.fromEntries(direct.map((r) => [r.p ? `${r.p}0000` : null, r.n])));
  });

  it('a hidden field cannot be a measure, a dimension or a filter', async () => {
    for (const w of [
      widget({ measures: [{ aggregate: 'sum', field: 'Amount' }] }),
      widget({ dimensions: [{ field: 'Amount' }], measures: [{ aggregate: 'count' }] }),
    ]) {
      const r = await data(m, w);
      expect(r.body).toMatchObject({ successful: false, errorCode: 370001 });
      expect(r.body.errorMessage).toContain('Amount');
    }
    const filtered = await data(m, widget({ measures: [{ aggregate: 'count' }] }), { field: 'Amount', operator: 'Above', value: 1 });
    expect(filtered.body).toMatchObject({ successful: false, errorCode: 777 });
    // The administrator still may.
    expect((await dataOk(a, widget({ measures: [{ aggregate: 'sum', field: 'Amount' }] }))).rows).toHaveLength(1);
  });

  it('the fields offered to a widget leave out what the viewer may not see, and name the sub-table columns', async () => {
    const mine = await m.get('/v1/report/fields', { schemaCode: code });
    const codes = mine.fields.map((f: { code: string }) => f.code);
    expect(codes).toEqual(expect.arrayContaining(['Title', 'Kind', 'Qty', 'OrderDate', 'Items.Cost', 'CreatedTime']));
    expect(codes).not.toContain('Amount');
    expect(mine.grids).toEqual([{ code: 'Items', title: '子表' }]);
    expect((await a.get('/v1/report/fields', { schemaCode: code })).fields.map((f: { code: string }) => f.code)).toContain('Amount');
  });

  it('a field that cannot be summed, and a sub-table column on a record widget, are refused', async () => {
    expect((await data(a, widget({ measures: [{ aggregate: 'sum', field: 'Title' }] }))).body).toMatchObject({ successful: false, errorCode: 370002 });
    expect((await data(a, widget({ dimensions: [{ field: 'Items.Cost' }], measures: [{ aggregate: 'count' }] }))).body).toMatchObject({ successful: false, errorCode: 370001 });
    expect((await data(a, widget({ source: undefined, measures: [{ aggregate: 'count' }] }))).body).toMatchObject({ successful: false, errorCode: 370004 });
  });

  it('another engine\'s form is refused, and nothing of it answered', async () => {
    const stranger = await registerPerson(t.app, { engineName: '别家公司' });
    const s = nodeClient(t.app, stranger);
    const r = await data(s, widget({ measures: [{ aggregate: 'count' }] }));
    expect(r.body.successful).toBe(false);
    expect(r.body.data).toBeUndefined();
    expect(r.body.errorCode).toBe(230001);
  });
});

describe('the cache', () => {
  it('answers again from memory until the form\'s data changes, whoever writes it', async () => {
    const w = widget({ id: 'cache', type: 'number', measures: [{ aggregate: 'count' }] });
    const first = await dataOk(a, w);
    const second = await dataOk(a, w);
    expect(first.cached).toBe(false);
    expect(second).toEqual({ ...first, cached: true });
    await insertRecord(60);
    const third = await dataOk(a, w);
    expect(third.cached).toBe(false);
    expect(third.rows[0][0]).toBe(first.rows[0][0] + 1);
    // Another viewer's scope is another entry: the member never gets the administrator's numbers.
    const mine = await dataOk(m, w);
    expect(mine.cached).toBe(false);
    expect(mine.rows[0][0]).toBeLessThan(third.rows[0][0]);
    await edb().deleteFrom(table).where('Name', '=', 'r60').execute();
    expect((await dataOk(a, w)).rows[0][0]).toBe(first.rows[0][0]);
  });
});

describe('export to xlsx', () => {
  it('writes the widget\'s groups, formats and total as the viewer sees them', async () => {
    const w = widget({ title: '区域/汇总', dimensions: [{ field: 'OwnerDeptId' }], measures: [{ aggregate: 'count' }, { aggregate: 'sum', field: 'Amount', format: { decimals: 2, thousands: true, percent: false, unit: '元' } }], totals: true });
    const shown = await dataOk(a, w);
    const res = await t.app.inject({ method: 'POST', url: '/v1/report/export', headers: { authorization: `Bearer ${admin.token}`, enginecode: admin.engineCode }, payload: { widget: w } });
    expect(res.headers['content-type']).toContain('spreadsheetml');
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(res.rawPayload as never);
    const sheet = book.worksheets[0]!;
    const rows = sheet.getSheetValues().slice(1).map((r) => (r as unknown[]).slice(1));
    expect(rows[0]).toEqual(['所属部门', '记录数', '数值求和']);
    expect(rows.slice(1, -1)).toEqual(shown.rows.map((r: unknown[]) => [shown.labels[r[0] as string], r[1], r[2]]));
    expect(rows.at(-1)).toEqual(['合计', shown.totals[1], shown.totals[2]]);
    expect(sheet.getColumn(3).numFmt).toBe('#,##0.00" 元"');
    // The member's export holds only what the member sees.
    const mine = await m.raw('POST', '/v1/report/export', { widget: widget({ dimensions: [{ field: 'Amount' }], measures: [{ aggregate: 'count' }] }) });
    expect(mine.body).toMatchObject({ successful: false, errorCode: 370001 });
  });
});

describe('boards', () => {
  let dashboard: string;
  beforeAll(async () => {
    dashboard = (await createNode(a, appCode, FunctionNodeType.DashBoardModule, { displayName: '销售看板' })).code;
  });
  const board = () => ({ refreshSeconds: 60, widgets: [widget({ type: 'bar', dimensions: [{ field: 'Kind' }], measures: [{ aggregate: 'count' }] }), { id: 'note', type: 'text', layout: { x: 6, y: 0, w: 6, h: 2 }, text: '说明' }], filters: [{ id: 'when', kind: 'dateRange', label: '日期', bindings: [{ widgetId: 'w1', field: 'OrderDate' }] }] });

  it('an administrator saves a board; a member reads it and may not change it', async () => {
    expect(await a.get('/v1/dashboard/load', { code: dashboard })).toMatchObject({ definition: { widgets: [], filters: [], refreshSeconds: 0 }, canDesign: true, modifiedTime: null });
    const saved = await a.post('/v1/dashboard/save', { code: dashboard, definition: board() });
    expect(saved).toMatchObject({ code: dashboard, displayName: '销售看板', nodeType: 270, definition: { refreshSeconds: 60 } });
    expect((await m.get('/v1/dashboard/load', { code: dashboard })).definition.widgets).toHaveLength(2);
    expect((await m.get('/v1/dashboard/load', { code: dashboard })).canDesign).toBe(false);
    const refused = await m.raw('POST', '/v1/dashboard/save', { code: dashboard, definition: { widgets: [] } });
    expect(refused.status).toBe(403);
    expect(refused.body.errorCode).toBe(370005);
    expect((await a.get('/v1/dashboard/load', { code: dashboard })).definition.widgets).toHaveLength(2);
  });

  it('bad boards are refused with the reasons and change nothing', async () => {
    const bad = await a.raw('POST', '/v1/dashboard/save', { code: dashboard, definition: { ...board(), refreshSeconds: 5, filters: [{ ...board().filters[0], bindings: [{ widgetId: 'nope', field: 'OrderDate' }] }] } });
    expect(bad.body).toMatchObject({ successful: false, errorCode: 777 });
    const paths = bad.body.detail.issues.map((i: { path: string }) => i.path).join(' ');
    expect(paths).toContain('refreshSeconds');
    expect(paths).toContain('widgetId');
    expect((await a.get('/v1/dashboard/load', { code: dashboard })).definition.refreshSeconds).toBe(60);
    expect((await a.raw('POST', '/v1/dashboard/save', { code, definition: board() })).body).toMatchObject({ successful: false, errorCode: 370003 });
  });
});

describe('departments with their hierarchy', () => {
  it('rolls a department dimension up to the level asked, the company staying itself', async () => {
    const D1a = (await a.post('/v1/org/department/create', { parentId: D1, name: '销售一组' })).id;
    const D1a1 = (await a.post('/v1/org/department/create', { parentId: D1a, name: '销售一组一班' })).id;
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    for (const [i, dept] of [D1a, D1a1, D1a1].entries()) {
      await edb().insertInto(table).values({ ObjectId: ids[i], Name: `dept${i}`, Status: 1, CreatedBy: A, ModifiedBy: A, OwnerId: A, OwnerDeptId: dept, CreatedTime: new Date().toISOString(), ModifiedTime: new Date().toISOString() }).execute();
    }
    const count = (rows: unknown[][]) => Object.fromEntries(rows.map((r) => [r[0] as string, r[1] as number]));
    const direct = await engineSql<{ dept: string; n: number }>(t, sql`select ${sql.ref('OwnerDeptId')} as dept, count(*)::int as n from ${tableRef(admin.engineCode, table)} group by 1`);
    const n = (dept: string) => direct.find((r) => r.dept === dept)?.n ?? 0;
    const w = (departmentLevel?: number) => widget({ dimensions: [{ field: 'OwnerDeptId', ...(departmentLevel ? { departmentLevel } : {}) }], measures: [{ aggregate: 'count' }] });
    expect(count((await dataOk(a, w())).rows)).toEqual({ [C]: n(C), [D1]: n(D1), [D1a]: 1, [D1a1]: 2 });
    expect(count((await dataOk(a, w(1))).rows)).toEqual({ [C]: n(C), [D1]: n(D1) + 3 });
    const level2 = await dataOk(a, w(2));
    expect(count(level2.rows)).toEqual({ [C]: n(C), [D1]: n(D1), [D1a]: 3 });
    expect(level2.labels[D1a]).toBe('销售一组');
    // Drilling into a rolled-up department lists it and the departments below it: as many records as its group counts.
    for (const [dept, level] of [[D1a, 2], [D1, 1]] as const) {
      const leaves = drillConditions([{ field: 'OwnerDeptId', departmentLevel: level }], [dept], ['unit']);
      const inside = await dataOk(a, widget({ type: 'number', measures: [{ aggregate: 'count' }] }), leaves[0]);
      expect(inside.rows).toEqual([[count((await dataOk(a, w(level))).rows)[dept]]]);
    }
    // Only department fields roll up.
    expect((await data(a, widget({ dimensions: [{ field: 'Kind', departmentLevel: 1 }], measures: [{ aggregate: 'count' }] }))).body).toMatchObject({ successful: false, errorCode: 370002 });
    await edb().deleteFrom(table).where('ObjectId', 'in', ids).execute();
  });
});

describe('data status', () => {
  it('counts Effective records only, unless the source includes drafts or the widget groups or filters by Status', async () => {
    const ids = [randomUUID(), randomUUID(), randomUUID()];
    for (const [i, status] of [0, 2, 3].entries()) {
      await edb().insertInto(table).values({ ObjectId: ids[i], Name: `s${i}`, Status: status, CreatedBy: A, ModifiedBy: A, OwnerId: A, OwnerDeptId: C, CreatedTime: new Date().toISOString(), ModifiedTime: new Date().toISOString(), Qty: 100 }).execute();
    }
    try {
      const [{ n }] = (await engineSql<{ n: number }>(t, sql`select count(*)::int as n from ${tableRef(admin.engineCode, table)} where ${sql.ref('Status')} = 1`)) as [{ n: number }];
      const card = (over: Record<string, unknown> = {}) => widget({ type: 'number', measures: [{ aggregate: 'count' }, { aggregate: 'sum', field: 'Qty' }], ...over });
      const effective = await dataOk(a, card());
      expect(effective.rows[0][0]).toBe(n);
      expect((await dataOk(a, card({ source: { schemaCode: code, includeDrafts: true } }))).rows[0].slice(0, 1)).toEqual([n + 3]);
      expect((await dataOk(a, card({ source: { schemaCode: code, includeDrafts: true } }))).rows[0][1]).toBe(effective.rows[0][1] + 300);
      const byStatus = await dataOk(a, widget({ dimensions: [{ field: 'Status' }], measures: [{ aggregate: 'count' }] }));
      expect(byStatus.rows).toEqual([[0, 1], [1, n], [2, 1], [3, 1]]);
      expect((await dataOk(a, card({ filter: { field: 'Status', operator: 'Equal', value: 0 } }))).rows[0]).toEqual([1, 100]);
      // A board's condition on Status is the widget asking too.
      expect((await dataOk(a, card(), { field: 'Status', operator: 'In', value: [2, 3] })).rows[0]).toEqual([2, 200]);
    } finally {
      await edb().deleteFrom(table).where('ObjectId', 'in', ids).execute();
    }
  });
});
