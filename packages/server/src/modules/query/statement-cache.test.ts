import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, type TestApp } from '../../../test/helpers.ts';
import { createApp, nodeClient, type OrgClient } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';
import type { Db } from '../../db/types.ts';
import { cacheSizeOf, SHAPES_PER_FORM, STATEMENTS_KEPT, statementsOf } from './statement-cache.ts';

// test-databases: both — the cached text runs on either driver.

// The query engine's statements remembered per form and shape (docs/decisions/0100): a second call of a shape binds
// its own values (never the first call's), every kind of window (the default order's lateral page, a chosen order,
// a page without its total) answers as a freshly built one would, a publish starts the form's statements afresh,
// and two engines' forms under the same code never share one.

let t: TestApp, a: OrgClient, appCode: string, code: string;

const FORM = definition([
  { type: 'textBox', code: 'Title' },
  { type: 'number', code: 'Qty', options: { decimalPlaces: 0 } },
]);

const leaf = (field: string, operator: string, value?: unknown) => ({ field, operator, ...(value === undefined ? {} : { value }) });
const query = (client: OrgClient, schemaCode: string, body: Record<string, unknown>) => client.post('/v1/bizdata/query', { schemaCode, pageIndex: 0, pageSize: 20, ...body });
const shapes = () => cacheSizeOf(t.database.db).shapes;

beforeAll(async () => {
  ({ t, a, appCode } = await adminWithApp());
  code = (await createForm(a, appCode)).code as string;
  await publish(a, code, FORM);
  // Titles 甲0…甲9 and 乙0…乙9, Qty 0…9 each.
  for (const word of ['甲', '乙']) {
    const records = Array.from({ length: 10 }, (_, i) => ({ Title: `${word}${i}`, Qty: i }));
    for (const values of records) await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values });
  }
});
afterAll(() => t.close());

describe('statements remembered per shape', () => {
  it('binds each call its own values: one statement for one shape, answers as the values ask', async () => {
    const before = shapes();
    const contains = (word: string, from: number, to: number) => ({ type: 'And', children: [leaf('Title', 'Contains', word), leaf('Qty', 'Between', [from, to])] });
    const first = await query(a, code, { filter: contains('甲', 2, 4), sort: [{ field: 'Qty', direction: 'desc' }] });
    expect(first.list.map((r: any) => r.Title)).toEqual(['甲4', '甲3', '甲2']);
    expect(first.total).toBe(3);
    expect(shapes()).toBe(before + 1);
    const second = await query(a, code, { filter: contains('乙', 5, 9), sort: [{ field: 'Qty', direction: 'desc' }] });
    expect(second.list.map((r: any) => r.Title)).toEqual(['乙9', '乙8', '乙7', '乙6', '乙5']);
    expect(second.total).toBe(5);
    // The page's place is a value too.
    const page = await query(a, code, { filter: contains('乙', 5, 9), sort: [{ field: 'Qty', direction: 'desc' }], pageIndex: 1, pageSize: 1 });
    expect(page.list.map((r: any) => r.Title)).toEqual(['乙8']);
    expect(page.total).toBe(5);
    expect(page.hasMore).toBe(true);
    expect(shapes()).toBe(before + 1);
  });

  it('keeps the default order (the lateral page) and a count apart from a chosen order, each answering alike', async () => {
    const before = shapes();
    const byQty = (qty: number) => leaf('Qty', 'Equal', qty);
    for (const qty of [1, 7, 3]) {
      const r = await query(a, code, { filter: byQty(qty) });
      // Default order: CreatedTime desc, so 乙 (created later) first.
      expect(r.list.map((x: any) => x.Title)).toEqual([`乙${qty}`, `甲${qty}`]);
      expect(r.total).toBe(2);
      const count = await query(a, code, { filter: byQty(qty), pageSize: 1 });
      expect([count.total, count.list.length]).toEqual([2, 1]);
    }
    // A page size is a value, not a shape.
    expect(shapes()).toBe(before + 1);
    const none = await query(a, code, { filter: byQty(42) });
    expect([none.list, none.total]).toEqual([[], 0]);
  });

  it('starts a form afresh when it is published again: the new column is read, the old statements are gone', async () => {
    await query(a, code, { filter: leaf('Title', 'Contains', '甲') });
    await query(a, code, { filter: leaf('Qty', 'NotBelow', 5) });
    expect(shapes()).toBeGreaterThanOrEqual(2);
    await publish(a, code, definition([
      { type: 'textBox', code: 'Title' },
      { type: 'number', code: 'Qty', options: { decimalPlaces: 0 } },
      { type: 'textBox', code: 'Note' },
    ]));
    await a.post('/v1/form/action/execute', { schemaCode: code, actionCode: 'Submit', values: { Title: '甲新', Qty: 100, Note: '新字段' } });
    const r = await query(a, code, { filter: leaf('Title', 'Contains', '甲'), sort: [{ field: 'Qty', direction: 'desc' }], pageSize: 1 });
    expect(r.list[0]).toMatchObject({ Title: '甲新', Note: '新字段' });
    expect(r.total).toBe(11);
    // Only the shape asked since the publish: the older version's statements were dropped with it.
    expect(shapes()).toBe(1);
  });

  it("never answers one engine's form from another engine's statement under the same code", async () => {
    const other = await registerPerson(t.app);
    const o = nodeClient(t.app, other);
    const otherApp = (await createApp(o)).code;
    const same = (await createForm(o, otherApp, { code })).code as string;
    expect(same).toBe(code);
    await publish(o, same, FORM);
    await o.post('/v1/form/action/execute', { schemaCode: same, actionCode: 'Submit', values: { Title: '丙1', Qty: 1 } });
    const filter = leaf('Qty', 'Equal', 1);
    const mine = await query(a, code, { filter });
    const theirs = await query(o, same, { filter });
    expect(mine.list.map((r: any) => r.Title)).toEqual(['乙1', '甲1']);
    expect(theirs.list.map((r: any) => r.Title)).toEqual(['丙1']);
    expect(cacheSizeOf(t.database.db).forms).toBeGreaterThanOrEqual(2);
  });
});

describe('the cache stays bounded', () => {
  it('keeps at most SHAPES_PER_FORM shapes a form and STATEMENTS_KEPT statements in all, forgetting the least recently used form', () => {
    const db = {} as Db;
    const form = (n: number) => ({ engineCode: 'e1', schemaCode: `F${n}`, objectId: `o${n}`, version: 1, mainTable: `i_f${n}` });
    const one = statementsOf(db, form(0));
    for (let i = 0; i < SHAPES_PER_FORM + 10; i++) one.remember(`shape ${i}`, { sql: `select ${i}`, whereCopies: 1 });
    expect(cacheSizeOf(db).shapes).toBe(SHAPES_PER_FORM);
    expect(one.get('shape 0')).toBeUndefined();
    expect(one.get(`shape ${SHAPES_PER_FORM + 9}`)).toEqual({ sql: `select ${SHAPES_PER_FORM + 9}`, whereCopies: 1 });
    const forms = Math.ceil((STATEMENTS_KEPT * 2) / SHAPES_PER_FORM);
    for (let n = 1; n <= forms; n++) {
      const f = statementsOf(db, form(n));
      for (let i = 0; i < SHAPES_PER_FORM; i++) f.remember(`shape ${i}`, 'uncached');
      // Form 1 is used again now and then: it is never the least recently used one.
      if (n % 5 === 0) statementsOf(db, form(1));
    }
    expect(cacheSizeOf(db).shapes).toBeLessThanOrEqual(STATEMENTS_KEPT);
    expect(statementsOf(db, form(1)).get('shape 0')).toBe('uncached');
    expect(statementsOf(db, form(0)).get(`shape ${SHAPES_PER_FORM + 9}`)).toBeUndefined();
  });
});
