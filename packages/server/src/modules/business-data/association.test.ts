import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addMember, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';

// Association queries (docs/decisions/0016): the list within the data range (compiled by the query engine), what
// choosing fills, associated properties in loaddata, the range and the fill enforced on save, the other form's access.

let t: TestApp, admin: Person, a: OrgClient, appCode: string;
let customers: string, orders: string;
const ids: Record<string, string> = {};
beforeAll(async () => {
  ({ t, admin, a, appCode } = await adminWithApp());
  customers = (await createForm(a, appCode)).code as string;
  await publish(a, customers, definition([
    { type: 'textBox', code: 'CustName' },
    { type: 'textBox', code: 'Phone' },
    { type: 'dropDown', code: 'Level', options: { defaultItems: ['普通', 'VIP'] } },
    { type: 'number', code: 'Credit' },
  ], { nameSchema: '{CustName}' }));
  for (const [name, phone, level, credit, action] of [
    ['甲公司', '13800000001', 'VIP', 100, 'Submit'], ['乙公司', '13800000002', '普通', 5, 'Submit'],
    ['丙公司', '13800000003', 'VIP', 50, 'Submit'], ['丁草稿', '13800000004', 'VIP', 80, 'Save'],
  ] as const) {
    ids[name] = (await a.post('/v1/form/action/execute', { schemaCode: customers, actionCode: action, values: { CustName: name, Phone: phone, Level: level, Credit: credit } })).objectId;
  }
  orders = (await createForm(a, appCode)).code as string;
  await publish(a, orders, definition([
    { type: 'number', code: 'MinCredit' },
    { type: 'associationQuery', code: 'Customer', options: { schemaCode: customers, associationFilter: '{Level} = "VIP" && {Credit} >= {this.MinCredit}', mappingControls: { CustPhone: 'Phone', CustLevel: 'Level' } } },
    { type: 'textBox', code: 'CustPhone' },
    { type: 'textBox', code: 'CustLevel' },
    { type: 'associatedProperty', code: 'CustCredit', options: { associationCode: 'Customer', sourcePropertySchema: { schemaCode: customers, propertyCode: 'Credit', controlType: 'number' } } },
    { type: 'associationQueryMulti', code: 'Others', options: { schemaCode: customers, associationFilter: 'NOT(CONTAINS({CustName}, "甲"))' } },
  ]));
});
afterAll(() => t.close());

const list = (c: OrgClient, body: Record<string, unknown>) => c.raw('POST', '/v1/form/association/list', { schemaCode: orders, ...body });
const names = (r: { body: { data: { list: { Name: string }[] } } }) => r.body.data.list.map((row) => row.Name).sort();

describe('POST /v1/form/association/list', () => {
  it('offers Effective records within the data range, reading this form\'s values, and searches titles', async () => {
    expect(names(await list(a, { controlCode: 'Customer', values: {} }))).toEqual(['丙公司', '甲公司']);
    expect(names(await list(a, { controlCode: 'Customer', values: { MinCredit: 60 } }))).toEqual(['甲公司']);
    expect(names(await list(a, { controlCode: 'Customer', values: {}, keyword: '丙' }))).toEqual(['丙公司']);
    expect(names(await list(a, { controlCode: 'Others', values: {} }))).toEqual(['丙公司', '乙公司']);
  });

  it('refuses a control that is not an association (240081) and a data range it cannot run (250072)', async () => {
    expect((await list(a, { controlCode: 'CustPhone' })).body.errorCode).toBe(240081);
    const bad = (await createForm(a, appCode)).code as string;
    await publish(a, bad, definition([{ type: 'associationQuery', code: 'C', options: { schemaCode: customers, associationFilter: 'LEN({CustName}) > 2' } }]));
    const r = await a.raw('POST', '/v1/form/association/list', { schemaCode: bad, controlCode: 'C' });
    expect(r.body.errorCode).toBe(250072);
    expect(r.body.detail.error).toMatchObject({ start: 0 });
  });

  it('lists nothing to a member who may not open the other form, and nothing of another engine', async () => {
    const member = await addMember(t, admin);
    const m = nodeClient(t.app, member);
    await grant(a, orders, member.userId, 'access');
    expect((await list(m, { controlCode: 'Customer' })).status).toBe(404);
    const fill = await m.raw('POST', '/v1/form/association/fill', { schemaCode: orders, controlCode: 'Customer', objectIds: [ids['甲公司']] });
    expect(fill.body.data).toEqual({ values: { CustPhone: null, CustLevel: null }, properties: { CustCredit: null }, names: {} });
    const stranger = nodeClient(t.app, await registerPerson(t.app));
    expect((await list(stranger, { controlCode: 'Customer' })).status).toBe(404);
  });
});

describe('fill, associated properties and the save', () => {
  it('fill answers the mapped fields and properties of the chosen record; cleared answers empties', async () => {
    const fill = await a.post('/v1/form/association/fill', { schemaCode: orders, controlCode: 'Customer', objectIds: [ids['甲公司']] });
    expect(fill).toEqual({ values: { CustPhone: '13800000001', CustLevel: 'VIP' }, properties: { CustCredit: 100 }, names: { [ids['甲公司']]: '甲公司' } });
    const cleared = await a.post('/v1/form/association/fill', { schemaCode: orders, controlCode: 'Customer', objectIds: [] });
    expect(cleared).toEqual({ values: { CustPhone: null, CustLevel: null }, properties: { CustCredit: null }, names: {} });
  });

  it('stores the server\'s fill whatever the client sent, shows the associated property, and clears both when cleared', async () => {
    const saved = await a.post('/v1/form/action/execute', { schemaCode: orders, actionCode: 'Submit', values: { Customer: ids['甲公司'], CustPhone: '伪造', CustLevel: '伪造' } });
    const read = await a.post('/v1/form/loaddata', { schemaCode: orders, objectId: saved.objectId });
    expect(read.values).toMatchObject({ Customer: ids['甲公司'], CustPhone: '13800000001', CustLevel: 'VIP', CustCredit: 100 });
    // The associated property follows the customer (it stores nothing).
    await a.post('/v1/form/action/execute', { schemaCode: customers, actionCode: 'Save', objectId: ids['甲公司'], values: { Credit: 120 } });
    expect((await a.post('/v1/form/loaddata', { schemaCode: orders, objectId: saved.objectId })).values.CustCredit).toBe(120);
    await a.post('/v1/form/action/execute', { schemaCode: orders, actionCode: 'Save', objectId: saved.objectId, values: { Customer: null } });
    const cleared = await a.post('/v1/form/loaddata', { schemaCode: orders, objectId: saved.objectId });
    expect(cleared.values).toMatchObject({ Customer: null, CustPhone: null, CustLevel: null, CustCredit: null });
  });

  it('refuses a record outside the data range, a draft and a made-up id (250071), and changes nothing', async () => {
    for (const [values, id] of [
      [{ Customer: ids['乙公司'] }, ids['乙公司']],
      [{ Customer: ids['丁草稿'] }, ids['丁草稿']],
      [{ Customer: ids['丙公司'], MinCredit: 60 }, ids['丙公司']],
      [{ Others: [ids['乙公司'], ids['甲公司']] }, ids['甲公司']],
      [{ Customer: '00000000-0000-4000-8000-000000000000' }, '00000000-0000-4000-8000-000000000000'],
    ] as const) {
      const r = await a.raw('POST', '/v1/form/action/execute', { schemaCode: orders, actionCode: 'Submit', values });
      expect(r.body.errorCode, JSON.stringify(values)).toBe(250071);
      expect(r.body.detail.objectIds).toEqual([id]);
    }
    expect((await a.post('/v1/bizdata/query', { schemaCode: orders, pageIndex: 0, pageSize: 10, filters: [{ field: 'MinCredit', value: 60 }] })).total).toBe(0);
  });
});
