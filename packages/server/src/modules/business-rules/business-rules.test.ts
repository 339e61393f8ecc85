import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, type TestApp } from '../../../test/helpers.ts';
import { FunctionNodeType, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish, saveDraft } from '../../../test/form-helpers.ts';

// Business rules (docs/decisions/0015) through the calls: every kind on effective, void in reverse order, none on a
// draft save or a disagree, no workflow started by a rule's write, a refused write rolling back the action, cycles
// refused at publish, checkreference listing dependants, engines kept apart.

let t: TestApp, admin: Person, a: OrgClient, appCode: string;
beforeAll(async () => ({ t, admin, a, appCode } = await adminWithApp()));
afterAll(() => t.close());

const exec = (schemaCode: string, actionCode: string, body: Record<string, unknown> = {}) => a.post('/v1/form/action/execute', { schemaCode, actionCode, ...body });
const field = (code: string) => ({ type: 'field', code });
const constant = (value: unknown) => ({ type: 'constant', value });
const formula = (expression: string) => ({ type: 'formula', expression });
type Rule = Record<string, unknown>;
const rule = (id: string, on: string, action: string, targetSchemaCode: string, more: Rule = {}): Rule => ({ id, name: id, on, action, targetSchemaCode, ...more });

async function rows(schemaCode: string, sortBy = 'SeqNo') {
  const r = await a.post('/v1/bizdata/query', { schemaCode, pageIndex: 0, pageSize: 100, sort: [{ field: sortBy, direction: 'asc' }] });
  return r.list as Record<string, unknown>[];
}

async function publishRules(schemaCode: string, def: unknown, rules: Rule[]) {
  await saveDraft(a, schemaCode, def);
  const saved = await a.post('/v1/form/businessrule/save', { schemaCode, rules });
  expect(saved.issues).toEqual([]);
  return publish(a, schemaCode, def);
}

/** Stock (by product), a trace of what ran, a summary per customer, and an order form whose rules write them. */
async function setup() {
  const stock = (await createForm(a, appCode, { displayName: '库存' })).code as string;
  const trace = (await createForm(a, appCode, { displayName: '记录' })).code as string;
  const summary = (await createForm(a, appCode, { displayName: '汇总' })).code as string;
  const order = (await createForm(a, appCode, { displayName: '订单' })).code as string;
  await publish(a, stock, definition([{ type: 'textBox', code: 'Product', options: { noRepeat: true } }, { type: 'number', code: 'Qty', options: { rangeRule: { min: 0 } } }]));
  await publish(a, trace, definition([{ type: 'textBox', code: 'Step' }, { type: 'textBox', code: 'Ref' }, { type: 'number', code: 'Amount', options: { decimalPlaces: 2 } }]));
  await publish(a, summary, definition([{ type: 'textBox', code: 'Customer' }, { type: 'number', code: 'Orders' }]));
  const orderDef = definition([
    { type: 'textBox', code: 'Customer' },
    { type: 'gridView', code: 'Lines', controls: [{ type: 'textBox', code: 'Product' }, { type: 'number', code: 'Qty' }] },
    { type: 'formula', code: 'Units', options: { expression: 'SUM({Lines.Qty})' } },
  ]);
  await publishRules(order, orderDef, [
    rule('E1', 'effective', 'insert', trace, { mappings: [{ field: 'Step', value: constant('E1') }, { field: 'Ref', value: field('ObjectId') }, { field: 'Amount', value: formula('{Units}*1.1234') }] }),
    rule('E2', 'effective', 'update', stock, { forEachRow: 'Lines', conditions: [{ field: 'Product', value: field('Lines.Product') }], mappings: [{ field: 'Qty', op: 'subtract', value: field('Lines.Qty') }] }),
    rule('E3', 'effective', 'upsert', summary, { conditions: [{ field: 'Customer', value: field('Customer') }], mappings: [{ field: 'Orders', op: 'add', value: constant(1) }] }),
    rule('E4', 'effective', 'insert', trace, { mappings: [{ field: 'Step', value: constant('E4') }, { field: 'Ref', value: field('ObjectId') }] }),
    rule('V1', 'void', 'insert', trace, { mappings: [{ field: 'Step', value: constant('V1') }, { field: 'Ref', value: field('ObjectId') }] }),
    rule('V2', 'void', 'update', stock, { forEachRow: 'Lines', conditions: [{ field: 'Product', value: field('Lines.Product') }], mappings: [{ field: 'Qty', op: 'add', value: field('Lines.Qty') }] }),
    rule('V3', 'void', 'delete', trace, { conditions: [{ field: 'Ref', value: field('ObjectId') }, { field: 'Step', value: constant('E1') }] }),
    rule('V4', 'void', 'insert', trace, { mappings: [{ field: 'Step', value: constant('V4') }, { field: 'Ref', value: field('ObjectId') }] }),
  ]);
  for (const [product, qty] of [['苹果', 10], ['梨', 5]] as const) await exec(stock, 'Submit', { values: { Product: product, Qty: qty } });
  return { stock, trace, summary, order, orderDef };
}

const stockOf = async (stock: string) => Object.fromEntries((await rows(stock)).map((r) => [r.Product, r.Qty]));
const steps = async (trace: string) => (await rows(trace)).map((r) => r.Step);

describe('business rules', () => {
  it('on effective top to bottom (insert, update per row, upsert); on void bottom to top (delete among them); not on a draft save or an edit', async () => {
    const { stock, trace, summary, order } = await setup();
    const lines = [{ Product: '苹果', Qty: 3 }, { Product: '梨', Qty: 1 }];
    const draft = (await exec(order, 'Save', { values: { Customer: '甲' }, children: { Lines: lines } })).objectId;
    expect(await steps(trace)).toEqual([]);
    await exec(order, 'Submit', { objectId: draft });
    expect(await steps(trace)).toEqual(['E1', 'E4']);
    // A rule's computed number takes the target field's 2 decimal places (4 × 1.1234 = 4.4936), as a formula control does.
    expect((await rows(trace))[0]).toMatchObject({ Ref: draft, Amount: 4.49, Status: 1 });
    expect(await stockOf(stock)).toEqual({ 苹果: 7, 梨: 4 });
    expect((await rows(summary)).map((r) => [r.Customer, r.Orders])).toEqual([['甲', 1]]);

    // A second order of the same customer: the summary is updated, not inserted again.
    const second = (await exec(order, 'Submit', { values: { Customer: '甲' }, children: { Lines: [{ Product: '苹果', Qty: 2 }] } })).objectId;
    expect((await rows(summary)).map((r) => [r.Customer, r.Orders])).toEqual([['甲', 2]]);
    expect(await stockOf(stock)).toEqual({ 苹果: 5, 梨: 4 });
    // Editing an Effective record does not make it effective again.
    await exec(order, 'Save', { objectId: second, values: { Customer: '甲' } });
    expect((await rows(summary))[0].Orders).toBe(2);

    await exec(order, 'Remove', { objectId: draft });
    // V4 first, then V3 (removes the E1 of this order), V2 (stock back), V1.
    expect(await steps(trace)).toEqual(['E4', 'E1', 'E4', 'V4', 'V1']);
    expect(await stockOf(stock)).toEqual({ 苹果: 8, 梨: 5 });
    // A draft removed runs nothing.
    const gone = (await exec(order, 'Save', { values: { Customer: '乙' }, children: { Lines: lines } })).objectId;
    await exec(order, 'Remove', { objectId: gone });
    expect((await steps(trace)).length).toBe(5);
  });

  it('a write a check refuses rolls the whole action back', async () => {
    const { stock, trace, order } = await setup();
    const refused = await a.raw('POST', '/v1/form/action/execute', { schemaCode: order, actionCode: 'Submit', values: { Customer: '丙' }, children: { Lines: [{ Product: '梨', Qty: 9 }] } });
    expect(refused.body.errorCode).toBe(250050);
    expect(refused.body.detail).toMatchObject({ ruleId: 'E2', targetSchemaCode: stock, cause: { code: 777 } });
    expect(await rows(order)).toEqual([]);
    expect(await steps(trace)).toEqual([]);
    expect(await stockOf(stock)).toEqual({ 苹果: 10, 梨: 5 });
  });

  it('workflow forms: rules when the flow is approved, none on a disagree, void on reactivation; a rule write starts no workflow', async () => {
    const trace = (await createForm(a, appCode, { displayName: '记录' })).code as string;
    const request = (await createForm(a, appCode, { displayName: '申请' }, FunctionNodeType.WorkflowModule)).code as string;
    const approval = (await createForm(a, appCode, { displayName: '审批单' }, FunctionNodeType.WorkflowModule)).code as string;
    await publish(a, trace, definition([{ type: 'textBox', code: 'Step' }]));
    await publish(a, approval, definition([{ type: 'textBox', code: 'Title' }]));
    await publishRules(request, definition([{ type: 'textBox', code: 'Title' }]), [
      rule('W1', 'effective', 'insert', trace, { mappings: [{ field: 'Step', value: formula('"生效:"&{Title}') }] }),
      rule('W2', 'effective', 'insert', approval, { mappings: [{ field: 'Title', value: field('Title') }] }),
      rule('W3', 'void', 'insert', trace, { mappings: [{ field: 'Step', value: formula('"作废:"&{Title}') }] }),
    ]);
    const adminId = (await a.post('/v1/form/loaddata', { schemaCode: request })).system.CreatedBy;
    await a.post('/v1/workflow/template/save', {
      schemaCode: request,
      template: {
        activities: [{ type: 'Start', code: 'Start', name: '发起' }, { type: 'Approve', code: 'A', name: '审批', participants: { sources: [{ type: 'users', ids: [adminId] }] }, disapproveTarget: { type: 'rejectFlow' } }, { type: 'End', code: 'End', name: '结束' }],
        routes: [{ from: 'Start', to: 'A' }, { from: 'A', to: 'End' }],
      },
    });
    await a.post('/v1/workflow/template/publish', { schemaCode: request });
    const act = async (objectId: string, action: 'submit' | 'reject') => {
      const info = await a.get('/v1/workflow/instance/info', { schemaCode: request, objectId });
      await a.post(`/v1/workflow/instance/${action}`, { workItemId: info.myItems[0].workItemId, opinion: { text: action } });
      return info.instance.instanceId as string;
    };
    const start = async (title: string) => {
      const objectId = (await exec(request, 'Save', { values: { Title: title } })).objectId;
      await a.post('/v1/workflow/instance/start', { schemaCode: request, objectId });
      return objectId;
    };
    const no = await start('否');
    await act(no, 'reject');
    expect(await steps(trace)).toEqual([]);
    const yes = await start('是');
    const instanceId = await act(yes, 'submit');
    expect(await steps(trace)).toEqual(['生效:是']);
    const written = await rows(approval);
    expect(written.map((r) => [r.Title, r.Status, r.WorkflowInstanceId ?? null])).toEqual([['是', 1, null]]);
    expect((await a.raw('GET', '/v1/workflow/instance/info', { schemaCode: approval, objectId: written[0].ObjectId })).body.successful).toBe(false);
    await a.post('/v1/workflow/instance/reactivate', { instanceId, activityCode: 'A', userIds: [adminId] });
    expect(await steps(trace)).toEqual(['生效:是', '作废:是']);
  });

  it('publish refuses rules naming unknown fields and rules writing each other\'s forms in a cycle', async () => {
    const x = (await createForm(a, appCode)).code as string;
    const y = (await createForm(a, appCode)).code as string;
    const def = definition([{ type: 'textBox', code: 'N' }]);
    await publish(a, x, def);
    await publish(a, y, def);
    const bad = await a.post('/v1/form/businessrule/save', { schemaCode: x, rules: [rule('B', 'effective', 'insert', y, { mappings: [{ field: 'Missing', value: field('Nope') }] })] });
    expect(bad.issues.map((i: { path: string }) => i.path)).toEqual(['rules.0.mappings.0.field', 'rules.0.mappings.0.value']);
    const refused = await a.raw('POST', '/v1/formdesign/publish', { schemaCode: x, version: await saveDraft(a, x, def), confirm: [] });
    expect(refused.body.errorCode).toBe(240050);
    const shape = await a.raw('POST', '/v1/form/businessrule/save', { schemaCode: x, rules: [rule('B', 'effective', 'delete', y)] });
    expect(shape.body.errorCode).toBe(777);

    await publishRules(x, def, [rule('XY', 'effective', 'insert', y, { mappings: [{ field: 'N', value: field('N') }] })]);
    await a.post('/v1/form/businessrule/save', { schemaCode: y, rules: [rule('YX', 'void', 'insert', x, { mappings: [{ field: 'N', value: field('N') }] })] });
    const cycle = await a.raw('POST', '/v1/formdesign/publish', { schemaCode: y, version: await saveDraft(a, y, def), confirm: [] });
    expect(cycle.body.errorCode).toBe(240051);
    expect(cycle.body.detail.cycles).toHaveLength(1);
    expect([...cycle.body.detail.cycles[0]].sort()).toEqual([x, y].sort());
    // Nothing of the refused publish went live: y's record runs no rule.
    expect((await a.post('/v1/form/businessrule/load', { schemaCode: y })).published).toEqual([]);
  });

  it('checkreference lists this form\'s rules, other forms\' rules and rollups that use a field', async () => {
    const { stock, order } = await setup();
    const report = (await createForm(a, appCode)).code as string;
    await publish(a, report, definition([{ type: 'textBox', code: 'R' }]));
    const refs = async (schemaCode: string, controlCode: string) =>
      (await a.post('/v1/formdesign/checkreference', { schemaCode, controlCode })).references.map((r: { kind: string; schemaCode: string; name: string }) => [r.kind, r.schemaCode, r.name]);
    expect(await refs(order, 'Lines')).toEqual([['businessRule', order, 'E2'], ['businessRule', order, 'V2']]);
    expect(await refs(order, 'Customer')).toEqual([['businessRule', order, 'E3']]);
    expect(await refs(stock, 'Qty')).toEqual([['businessRule', order, 'E2'], ['businessRule', order, 'V2']]);
    // A rollup of another form over the stock.
    await publish(a, stock, definition([{ type: 'textBox', code: 'Product', options: { noRepeat: true } }, { type: 'number', code: 'Qty', options: { rangeRule: { min: 0 } } }, { type: 'associationQuery', code: 'Report', options: { schemaCode: report } }]));
    await publish(a, report, definition([{ type: 'textBox', code: 'R' }, { type: 'rollup', code: 'StockSum', options: { displayName: '库存合计', sourceSchemaCode: stock, sourceCode: 'Report', sourceField: 'Qty' } }]));
    expect(await refs(stock, 'Qty')).toEqual([['businessRule', order, 'E2'], ['businessRule', order, 'V2'], ['rollup', report, '库存合计']]);
    expect(await refs(stock, 'Report')).toEqual([['rollup', report, '库存合计']]);
  });

  it('another engine cannot read or save a form\'s rules', async () => {
    const x = (await createForm(a, appCode)).code as string;
    const stranger = nodeClient(t.app, await registerPerson(t.app));
    expect((await stranger.raw('POST', '/v1/form/businessrule/load', { schemaCode: x })).body.errorCode).toBe(230001);
    expect((await stranger.raw('POST', '/v1/form/businessrule/save', { schemaCode: x, rules: [] })).body.errorCode).toBe(230001);
    expect(admin.engineCode).not.toBe('');
  });
});
