import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { UserAuthType } from '@tritium/shared/constants/org';
import type { TestApp } from '../../../test/helpers.ts';
import { addInvitedMember, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';
import { ERP, startErpFake, type ErpFake } from '../../../test/erp-fake.ts';
import { putPluginInstance } from '../plugin-instances/plugin-instances.ts';
import { engineDb } from '../../db/database.ts';
import type { Db } from '../../db/types.ts';
import { runScript } from '../script/run-script.ts';

// The users of connectors: the advanced button fills a form (fields and a sub-table) from the fake ERP for anyone who
// may open the form, and a server script gets a connector's mapped answer through ctx.connectors.call.

describe('advanced button and scripts over connectors', () => {
  let t: TestApp, admin: Person, a: OrgClient, appCode: string, orders: string, erp: ErpFake;

  beforeAll(async () => {
    ({ t, admin, a, appCode } = await adminWithApp());
    // Connectors work while the connector plugin is installed (docs/decisions/0123).
    await putPluginInstance(engineDb(t.database.db, admin.engineCode), { templateCode: 'connector', status: 'installed' });
    erp = await startErpFake();
    await a.post('/v1/connectors/connection/save', { code: 'Erp', name: 'ERP', baseUrl: `${erp.url}/bearer`, authKind: 'bearer', secret: ERP.bearer, healthPath: '/health' });
    await a.post('/v1/connectors/connector/save', {
      code: 'GetCustomer',
      name: '查询客户',
      connectionCode: 'Erp',
      method: 'GET',
      path: '/customer/{{CustomerNo}}',
      outputs: [
        { name: 'customerName', path: 'data.customer.name' },
        { name: 'credit', path: 'data.customer.credit' },
        { name: 'orders', path: 'data.orders', itemFields: { OrderId: 'id', Amount: 'amount' } },
      ],
    });
    orders = (await createForm(a, appCode, { displayName: '客户订单' })).code as string;
    await publish(a, orders, definition([
      { type: 'textBox', code: 'CustomerNo' },
      { type: 'textBox', code: 'CustomerName' },
      { type: 'number', code: 'Credit' },
      { type: 'advancedButton', code: 'Fetch', options: { displayName: '从 ERP 读取', connectorCode: 'GetCustomer', resultMapping: { CustomerName: 'customerName', Credit: 'credit', Lines: 'orders' } } },
      { type: 'advancedButton', code: 'Unset', options: { displayName: '未设置' } },
      { type: 'gridView', code: 'Lines', controls: [{ type: 'textBox', code: 'OrderId' }, { type: 'number', code: 'Amount', options: { decimalPlaces: 2 } }] },
    ]));
  });
  afterAll(async () => {
    await erp?.close();
    await t?.close();
  });

  it('answers the mapped fields and the sub-table rows to set in the form', async () => {
    const answer = await a.post('/v1/connectors/button', { schemaCode: orders, controlCode: 'Fetch', values: { CustomerNo: 'C 9' } });
    expect(answer.values).toEqual({
      CustomerName: '客户C 9',
      Credit: 5000,
      Lines: [{ OrderId: 'SO-1', Amount: 120.5 }, { OrderId: 'SO-2', Amount: 80 }],
    });
    // The path's place is filled as a URL segment.
    expect(erp.calls.at(-1)!.url).toBe('/bearer/customer/C%209');
    const log = await a.get('/v1/connectors/log', { connectionCode: 'Erp' });
    expect(log.items[0]).toMatchObject({ source: 'button', connectorCode: 'GetCustomer', ok: true });
  });

  it('lets a member who may open the form press it, and refuses one who may not or a button without a connector', async () => {
    const member = await addInvitedMember(t, admin, { name: '业务员' });
    const m = nodeClient(t.app, member);
    const hidden = await m.raw('POST', '/v1/connectors/button', { schemaCode: orders, controlCode: 'Fetch', values: { CustomerNo: 'C1' } });
    expect(hidden.body.successful).toBe(false);
    await grant(a, appCode, member.userId, 'access');
    expect((await m.post('/v1/connectors/button', { schemaCode: orders, controlCode: 'Fetch', values: { CustomerNo: 'C1' } })).values.CustomerName).toBe('客户C1');
    // A member may not manage connections.
    expect((await m.raw('GET', '/v1/connectors/connection/list')).body.successful).toBe(false);
    const unset = await a.raw('POST', '/v1/connectors/button', { schemaCode: orders, controlCode: 'Unset', values: {} });
    expect(unset.body).toMatchObject({ successful: false, errorCode: 420013, errorMessage: '“未设置”尚未选择连接器' });
    const unknown = await a.raw('POST', '/v1/connectors/button', { schemaCode: orders, controlCode: 'CustomerName', values: {} });
    expect(unknown.body).toMatchObject({ successful: false, errorCode: 777 });
    expect((await a.get('/v1/connectors/choices')).items).toEqual([{ code: 'GetCustomer', name: '查询客户', connectionName: 'ERP', outputs: ['customerName', 'credit', 'orders'] }]);
  });

  it('gives a script the connector’s mapped answer, and a mistake as a message the script can catch', async () => {
    const db = t.database.db as Db;
    const adminId = (await a.post('/v1/form/loaddata', { schemaCode: orders })).system.CreatedBy as string;
    const outcome = await db.transaction().execute((trx) =>
      runScript({
        edb: engineDb(trx as unknown as Db, admin.engineCode),
        ctx: { db, engineCode: admin.engineCode, userId: adminId, authType: UserAuthType.Administrator },
        appCode,
        schemaCode: orders,
        part: 'form-server',
        language: 'ts',
        handler: 'onSubmit',
        input: { record: { CustomerNo: 'S1' }, actionName: 'Submit', isNew: true },
        source: `export async function onSubmit(ctx: any) {
  const answer = await ctx.connectors.call('GetCustomer', { CustomerNo: ctx.record.CustomerNo });
  let missing = '';
  try { await ctx.connectors.call('NoSuch', {}); } catch (e: any) { missing = e.message; }
  return { name: answer.customerName, lines: answer.orders.length, missing };
}`,
      }),
    );
    expect(outcome.status).toBe('ok');
    expect(outcome.value).toEqual({ name: '客户S1', lines: 2, missing: '连接器“NoSuch”不存在' });
  });
});
