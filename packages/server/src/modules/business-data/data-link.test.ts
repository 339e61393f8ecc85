import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addMember, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';

// Data links (docs/decisions/0016): /v1/form/loaddatalink/batch answers the first Effective match of another form with
// the caller's access to it; a save derives linked values when the record is new or a condition changes.

let t: TestApp, admin: Person, a: OrgClient, appCode: string;
let customers: string, orders: string;
beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
  customers = (await createForm(a, appCode)).code as string;
  await publish(a, customers, definition([
    { type: 'textBox', code: 'CustName' },
    { type: 'textBox', code: 'Phone' },
    { type: 'number', code: 'Credit' },
    { type: 'dropDown', code: 'Level', options: { defaultItems: ['普通', 'VIP'] } },
  ]));
  const submit = (values: Record<string, unknown>, actionCode = 'Submit') => a.post('/v1/form/action/execute', { schemaCode: customers, actionCode, values });
  await submit({ CustName: '甲公司', Phone: '13800000001', Credit: 100, Level: 'VIP' });
  await submit({ CustName: '甲公司', Phone: '13800000009', Credit: 1, Level: '普通' }); // a later match: not the first
  await submit({ CustName: '乙公司', Phone: '13800000002', Credit: 5, Level: '普通' }, 'Save'); // a draft links nothing
  orders = (await createForm(a, appCode)).code as string;
  await publish(a, orders, definition([
    { type: 'textBox', code: 'Customer' },
    { type: 'textBox', code: 'Phone', options: { dataLink: { schemaCode: customers, conditions: [{ field: 'Customer', sourceField: 'CustName' }], resultField: 'Phone' } } },
    { type: 'textBox', code: 'Credit', options: { dataLink: { schemaCode: customers, conditions: [{ field: 'Customer', sourceField: 'CustName' }], resultField: 'Credit' } } },
    { type: 'gridView', code: 'Lines', controls: [
      { type: 'textBox', code: 'Who' },
      { type: 'dropDown', code: 'WhoLevel', options: { defaultItems: ['普通', 'VIP'], dataLink: { schemaCode: customers, conditions: [{ field: 'Who', sourceField: 'CustName' }], resultField: 'Level' } } },
    ] },
  ]));
});
afterAll(() => t.close());

const batch = (c: OrgClient, items: unknown[]) => c.raw('POST', '/v1/form/loaddatalink/batch', { schemaCode: orders, items });

describe('POST /v1/form/loaddatalink/batch', () => {
  it('answers several links at once: the first Effective match, converted to the control; empty conditions and no match give null', async () => {
    const r = await batch(a, [
      { controlCode: 'Phone', values: { Customer: ' 甲公司 ' } },
      { controlCode: 'Credit', values: { Customer: '甲公司' } },
      { controlCode: 'Phone', values: { Customer: '' } },
      { controlCode: 'Phone', values: { Customer: '乙公司' } },
      { controlCode: 'Lines.WhoLevel', values: { Who: '甲公司' } },
    ]);
    expect(r.body.successful).toBe(true);
    expect(r.body.data.list.map((item: { value: unknown }) => item.value)).toEqual(['13800000001', '100', null, null, 'VIP']);
    expect(r.body.data.list[0].objectId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('refuses a control without a data link (240080) and bad input (777)', async () => {
    expect((await batch(a, [{ controlCode: 'Customer', values: {} }])).body.errorCode).toBe(240080);
    expect((await batch(a, [])).body.errorCode).toBe(777);
    expect((await batch(a, [{ controlCode: 'a b', values: {} }])).body.errorCode).toBe(777);
  });

  it('reads the other form with the caller\'s access: a member who may not open it gets nothing; another engine gets 404', async () => {
    const member = await addMember(t, admin);
    const m = nodeClient(t.app, member);
    await grant(a, orders, member.userId, 'access');
    const closed = await batch(m, [{ controlCode: 'Phone', values: { Customer: '甲公司' } }]);
    expect(closed.body.data.list[0]).toEqual({ controlCode: 'Phone', value: null, objectId: null });
    await grant(a, customers, member.userId, 'access');
    expect((await batch(m, [{ controlCode: 'Phone', values: { Customer: '甲公司' } }])).body.data.list[0].value).toBe('13800000001');
    const stranger = nodeClient(t.app, await registerPerson(t.app));
    expect((await batch(stranger, [{ controlCode: 'Phone', values: { Customer: '甲公司' } }])).status).toBe(404);
  });
});

describe('data links on save', () => {
  it('stores the linked value whatever the client sent, per sub-table row too, and clears it when a condition is emptied', async () => {
    const saved = await a.post('/v1/form/action/execute', {
      schemaCode: orders, actionCode: 'Submit',
      values: { Customer: '甲公司', Phone: '伪造', Credit: '9' },
      children: { Lines: [{ Who: '甲公司', WhoLevel: '普通' }, { Who: '无此客户', WhoLevel: 'VIP' }] },
    });
    const read = await a.post('/v1/form/loaddata', { schemaCode: orders, objectId: saved.objectId });
    expect(read.values).toMatchObject({ Phone: '13800000001', Credit: '100' });
    expect(read.children.Lines.map((row: { WhoLevel: unknown }) => row.WhoLevel)).toEqual(['VIP', null]);

    // A person may type over a linked value later; it stays while the condition does not change.
    await a.post('/v1/form/action/execute', { schemaCode: orders, actionCode: 'Save', objectId: saved.objectId, values: { Phone: '010-1234' } });
    expect((await a.post('/v1/form/loaddata', { schemaCode: orders, objectId: saved.objectId })).values.Phone).toBe('010-1234');

    await a.post('/v1/form/action/execute', { schemaCode: orders, actionCode: 'Save', objectId: saved.objectId, values: { Customer: '' } });
    const cleared = await a.post('/v1/form/loaddata', { schemaCode: orders, objectId: saved.objectId });
    expect(cleared.values).toMatchObject({ Customer: '', Phone: null, Credit: null });
  });
});
