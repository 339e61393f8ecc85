import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers.ts';
import { registerPerson } from '../../../test/helpers.ts';
import { addMember, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish, saveDraft } from '../../../test/form-helpers.ts';

// test-databases: both — aggregates in SQL (docs/testing.md "Runs on both databases").

// Rollups (docs/decisions/0015): over a sub-table on every save, and over another form's Effective records that
// associate to the record, kept right when those records are added, changed, copied and removed; recompute calls.

let t: TestApp, a: OrgClient, appCode: string, admin: Person;
beforeAll(async () => ({ t, a, appCode, admin } = await adminWithApp()));
afterAll(() => t.close());

const exec = (schemaCode: string, actionCode: string, body: Record<string, unknown> = {}) => a.post('/v1/form/action/execute', { schemaCode, actionCode, ...body });
const load = (schemaCode: string, objectId: string) => a.post('/v1/form/loaddata', { schemaCode, objectId });

/** A customer form with rollups over orders, and an order form with line items and a sub-table rollup. */
async function customerAndOrders() {
  const customer = (await createForm(a, appCode)).code as string;
  const order = (await createForm(a, appCode)).code as string;
  await publish(a, customer, definition([{ type: 'textBox', code: 'CName' }]));
  await publish(a, order, definition([
    { type: 'associationQuery', code: 'Customer', options: { schemaCode: customer } },
    { type: 'gridView', code: 'Lines', controls: [{ type: 'number', code: 'Qty' }, { type: 'number', code: 'Price', options: { decimalPlaces: 2 } }, { type: 'formula', code: 'Amount', options: { expression: '{Lines.Qty}*{Lines.Price}', decimalPlaces: 2 } }] },
    { type: 'rollup', code: 'Total', options: { rollupType: 'sum', sourceCode: 'Lines', sourceField: 'Amount', decimalPlaces: 2 } },
    { type: 'rollup', code: 'BigLines', options: { rollupType: 'count', sourceCode: 'Lines', filter: '{Lines.Qty}>=10' } },
  ], { displayName: '订单' }));
  const rollup = (code: string, rollupType: string, sourceField: string | null, extra: Record<string, unknown> = {}) =>
    ({ type: 'rollup', code, options: { rollupType, sourceSchemaCode: order, sourceCode: 'Customer', sourceField, decimalPlaces: 2, ...extra } });
  await publish(a, customer, definition([
    { type: 'textBox', code: 'CName' },
    { type: 'number', code: 'Credit' },
    rollup('OrderTotal', 'sum', 'Total'),
    rollup('Orders', 'count', null),
    rollup('Largest', 'max', 'Total'),
    rollup('Smallest', 'min', 'Total'),
    rollup('BigOrders', 'count', null, { filter: '{Total}>100' }),
    rollup('NoLines', 'isNull', 'Total'),
    rollup('WithTotal', 'notNull', 'Total'),
    { type: 'formula', code: 'Left', options: { expression: '{Credit}-{OrderTotal}', decimalPlaces: 2 } },
  ]));
  return { customer, order };
}

describe('rollups', () => {
  it('over a sub-table: computed on save from the rows, whatever the client sent', async () => {
    const { order } = await customerAndOrders();
    const saved = await exec(order, 'Save', { values: { Total: 99999, BigLines: 7 }, children: { Lines: [{ Qty: 2, Price: 3.5 }, { Qty: 10, Price: 1 }] } });
    expect((await load(order, saved.objectId)).values).toMatchObject({ Total: 17, BigLines: 1 });
    await exec(order, 'Save', { objectId: saved.objectId, children: { Lines: [{ Qty: 20, Price: 1 }, { Qty: 11, Price: 2 }, { Qty: 1, Price: 1 }] } });
    expect((await load(order, saved.objectId)).values).toMatchObject({ Total: 43, BigLines: 2 });
    await exec(order, 'Save', { objectId: saved.objectId, children: { Lines: [] } });
    expect((await load(order, saved.objectId)).values).toMatchObject({ Total: 0, BigLines: 0 });
  });

  it('a rollup over a formula column that reads another rollup is stored settled, as the browser shows it', async () => {
    const code = (await createForm(a, appCode)).code as string;
    await publish(a, code, definition([
      { type: 'gridView', code: 'Lines', controls: [{ type: 'number', code: 'X' }, { type: 'formula', code: 'Share', options: { expression: '{Lines.X}*{Sum}', decimalPlaces: 2 } }] },
      { type: 'rollup', code: 'Sum', options: { rollupType: 'sum', sourceCode: 'Lines', sourceField: 'X', decimalPlaces: 2 } },
      { type: 'rollup', code: 'Shares', options: { rollupType: 'sum', sourceCode: 'Lines', sourceField: 'Share', decimalPlaces: 2 } },
    ]));
    // Sum = 1 + 2 = 3; Share = 3 and 6; Shares = 9 (one round of rollups stored Shares from the stale Share column).
    const saved = await exec(code, 'Save', { children: { Lines: [{ X: 1 }, { X: 2 }] } });
    const loaded = await load(code, saved.objectId);
    expect(loaded.values).toMatchObject({ Sum: 3, Shares: 9 });
    expect(loaded.children.Lines.map((row: { Share: number }) => row.Share)).toEqual([3, 6]);
  });

  it('over the Effective records of another form: kept right as they are added, changed, copied and removed', async () => {
    const { customer, order } = await customerAndOrders();
    const c1 = (await exec(customer, 'Submit', { values: { CName: '甲', Credit: 1000, OrderTotal: 5 } })).objectId;
    const c2 = (await exec(customer, 'Submit', { values: { CName: '乙', Credit: 100 } })).objectId;
    const values = async (id: string) => (await load(customer, id)).values;
    expect(await values(c1)).toMatchObject({ OrderTotal: 0, Orders: 0, Largest: null, Left: 1000 });

    const o1 = (await exec(order, 'Submit', { values: { Customer: c1 }, children: { Lines: [{ Qty: 2, Price: 50 }] } })).objectId;
    const o2 = (await exec(order, 'Submit', { values: { Customer: c1 }, children: { Lines: [{ Qty: 1, Price: 300 }] } })).objectId;
    // A draft does not count until it is submitted.
    const draft = (await exec(order, 'Save', { values: { Customer: c1 }, children: { Lines: [{ Qty: 1, Price: 7 }] } })).objectId;
    expect(await values(c1)).toMatchObject({ OrderTotal: 400, Orders: 2, Largest: 300, Smallest: 100, BigOrders: 1, NoLines: 0, WithTotal: 2, Left: 600 });
    await exec(order, 'Submit', { objectId: draft });
    expect(await values(c1)).toMatchObject({ OrderTotal: 407, Orders: 3, Smallest: 7 });

    // A line changed; an order moved to another customer: both customers follow.
    await exec(order, 'Save', { objectId: o1, children: { Lines: [{ Qty: 3, Price: 50 }] } });
    expect(await values(c1)).toMatchObject({ OrderTotal: 457, BigOrders: 2 });
    await exec(order, 'Save', { objectId: o2, values: { Customer: c2 } });
    expect(await values(c1)).toMatchObject({ OrderTotal: 157, Orders: 2, Largest: 150 });
    expect(await values(c2)).toMatchObject({ OrderTotal: 300, Orders: 1, Left: -200 });

    // A copy is a Draft: it counts once submitted. Removal takes the order out.
    const copy = (await exec(order, 'Copy', { objectId: o1 })).objectId;
    expect(await values(c1)).toMatchObject({ Orders: 2 });
    await exec(order, 'Submit', { objectId: copy });
    expect(await values(c1)).toMatchObject({ OrderTotal: 307, Orders: 3 });
    await exec(order, 'Remove', { objectId: o1 });
    await exec(order, 'Remove', { objectId: copy });
    expect(await values(c1)).toMatchObject({ OrderTotal: 7, Orders: 1, Left: 993 });

    // A value the client sends for a rollup is not stored.
    await exec(customer, 'Save', { objectId: c2, values: { OrderTotal: 1, Orders: 99 } });
    expect(await values(c2)).toMatchObject({ OrderTotal: 300, Orders: 1 });
  });

  it('recompute: a rollup added to a form with records is filled by the job, with progress; one record at once', async () => {
    const customer = (await createForm(a, appCode)).code as string;
    const order = (await createForm(a, appCode)).code as string;
    await publish(a, customer, definition([{ type: 'textBox', code: 'CName' }]));
    await publish(a, order, definition([{ type: 'associationQuery', code: 'Customer', options: { schemaCode: customer } }, { type: 'number', code: 'Amount' }]));
    const c = (await exec(customer, 'Submit', { values: { CName: '丙' } })).objectId;
    for (const amount of [5, 6]) await exec(order, 'Submit', { values: { Customer: c, Amount: amount } });
    await publish(a, customer, definition([{ type: 'textBox', code: 'CName' }, { type: 'rollup', code: 'Sum', options: { sourceSchemaCode: order, sourceCode: 'Customer', sourceField: 'Amount' } }]));
    expect((await load(customer, c)).values.Sum).toBeNull();

    const { actionId } = await a.post('/v1/form/rollup/recompute', { schemaCode: customer });
    expect(await t.app.extras.jobs.runOnce()).toBe(true);
    const progress = await a.get(`/v1/form/rollup/progress?actionId=${actionId}`);
    expect(progress).toMatchObject({ isComplete: true, progress: 100, result: { records: 1, changed: 1 } });
    expect((await load(customer, c)).values.Sum).toBe(11);

    await t.database.db.withSchema(`e_${admin.engineCode}`).updateTable((await tableOf(customer)) as never).set({ Sum: 0 } as never).execute();
    const one = await a.post('/v1/form/rollup/recomputerecord', { schemaCode: customer, objectId: c });
    expect(one).toEqual({ objectId: c, values: { Sum: 11 }, changed: true });
  });

  it('publish refuses a rollup whose source does not associate to the form, and rollups reading each other across forms', async () => {
    const x = (await createForm(a, appCode)).code as string;
    const y = (await createForm(a, appCode)).code as string;
    await publish(a, x, definition([{ type: 'textBox', code: 'N' }]));
    const yControls = [{ type: 'associationQuery', code: 'ToX', options: { schemaCode: x } }, { type: 'formula', code: 'W', options: { expression: '{V}*2' } }];
    await publish(a, y, definition([...yControls, { type: 'number', code: 'V' }]));
    const notLinked = definition([{ type: 'rollup', code: 'R', options: { sourceSchemaCode: y, sourceCode: 'W', sourceField: 'W' } }]);
    const refused = await a.raw('POST', '/v1/formdesign/publish', { schemaCode: x, version: await saveDraft(a, x, notLinked), confirm: [] });
    expect(refused.body.errorCode).toBe(240052);

    // X.R sums Y.W = {V}*2; Y.V made a rollup of X.R closes the loop X.R → Y.W → Y.V → X.R.
    await publish(a, x, definition([{ type: 'associationQuery', code: 'ToY', options: { schemaCode: y } }, { type: 'rollup', code: 'R', options: { sourceSchemaCode: y, sourceCode: 'ToX', sourceField: 'W' } }]), ['N']);
    const cyclic = definition([...yControls, { type: 'rollup', code: 'V', options: { sourceSchemaCode: x, sourceCode: 'ToY', sourceField: 'R' } }]);
    const cycle = await a.raw('POST', '/v1/formdesign/publish', { schemaCode: y, version: await saveDraft(a, y, cyclic), confirm: [] });
    expect(cycle.body.errorCode).toBe(240053);
    expect(cycle.body.detail.cycles).toHaveLength(1);
    expect([...cycle.body.detail.cycles[0]].sort()).toEqual([`${x}:r`, `${y}:v`, `${y}:w`].map((k) => k.toLowerCase()).sort());
  });

  it('another engine cannot recompute or read the job; a plain member cannot recompute', async () => {
    const { customer } = await customerAndOrders();
    const { actionId } = await a.post('/v1/form/rollup/recompute', { schemaCode: customer });
    const stranger = nodeClient(t.app, await registerPerson(t.app));
    expect((await stranger.raw('POST', '/v1/form/rollup/recompute', { schemaCode: customer })).body.errorCode).toBe(230001);
    expect((await stranger.raw('GET', `/v1/form/rollup/progress?actionId=${actionId}`)).body.errorCode).toBe(230007);
    const m = await addMember(t, admin);
    await grant(a, customer, m.userId, 'access');
    const member = nodeClient(t.app, m);
    expect((await member.post('/v1/form/loaddata', { schemaCode: customer })).isNew).toBe(true);
    expect((await member.raw('POST', '/v1/form/rollup/recompute', { schemaCode: customer })).body.errorCode).toBe(230005);
    await t.app.extras.jobs.runOnce();
  });
});

async function tableOf(schemaCode: string): Promise<string> {
  const row = await t.database.db.withSchema(`e_${admin.engineCode}`).selectFrom('form_tables' as never).select('table_name' as never).where('schema_code' as never, '=', schemaCode as never).where('grid_key' as never, '=', '' as never).executeTakeFirstOrThrow();
  return (row as { table_name: string }).table_name;
}
