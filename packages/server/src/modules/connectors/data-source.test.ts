import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import type { TestApp } from '../../../test/helpers.ts';
import { addMember, type Person } from '../../../test/org-helpers.ts';
import { createNode, grant, nodeClient, type OrgClient } from '../../../test/node-helpers.ts';
import { adminWithApp } from '../../../test/form-helpers.ts';
import { ERP, ERP_ORDERS, startErpFake, type ErpFake } from '../../../test/erp-fake.ts';
import { engineDb } from '../../db/database.ts';
import { putPluginInstance } from '../plugin-instances/plugin-instances.ts';

// The data-source node (290; docs/decisions/0123): an app administrator points it at a connector's list output with
// columns, filters and paging; a member who may open the node pages and filters, each page a call to the fake ERP
// with the page and filters as the connector's places; refusals for settings the connector cannot serve.

describe('the data-source node', () => {
  let t: TestApp, admin: Person, a: OrgClient, appCode: string, erp: ErpFake;
  let m: OrgClient, stranger: OrgClient, nodeCode: string;

  const definition = {
    connectorCode: 'ListOrders',
    listOutput: 'orders',
    columns: [{ field: 'no', title: '订单号' }, { field: 'customer', title: '客户' }, { field: 'amount', title: '金额' }],
    filters: [{ place: 'Status', label: '状态' }, { place: 'Customer', label: '客户' }],
    paging: { pageIndexPlace: 'Page', pageSizePlace: 'Size', firstPage: 1, totalOutput: 'total' },
  };

  beforeAll(async () => {
    ({ t, admin, a, appCode } = await adminWithApp());
    await putPluginInstance(engineDb(t.database.db, admin.engineCode), { templateCode: 'connector', status: 'installed' });
    erp = await startErpFake();
    await a.post('/v1/connectors/connection/save', { code: 'Erp', name: 'ERP', baseUrl: `${erp.url}/key`, authKind: 'apiKey', auth: { apiKeyName: 'X-Api-Key', apiKeyIn: 'header' }, secret: ERP.apiKey, healthPath: '/health' });
    await a.post('/v1/connectors/connector/save', {
      code: 'ListOrders',
      name: '订单列表',
      connectionCode: 'Erp',
      method: 'GET',
      path: '/orders',
      params: [
        { name: 'page', in: 'query', value: '{{Page}}' },
        { name: 'size', in: 'query', value: '{{Size}}' },
        { name: 'status', in: 'query', value: '{{Status}}' },
        { name: 'customer', in: 'query', value: '{{Customer}}' },
      ],
      outputs: [
        { name: 'orders', path: 'data.items', itemFields: { no: 'id', customer: 'customer.name', amount: 'amount', status: 'status' } },
        { name: 'total', path: 'data.total' },
      ],
    });
    await a.post('/v1/connectors/connector/save', { code: 'DeleteOrder', name: '删除订单', connectionCode: 'Erp', method: 'DELETE', path: '/orders/{{No}}', params: [], outputs: [{ name: 'orders', path: 'data.items', itemFields: { no: 'id' } }] });
    await a.post('/v1/connectors/connector/save', { code: 'GetCustomer', name: '查询客户', connectionCode: 'Erp', method: 'GET', path: '/customer/{{No}}', params: [], outputs: [{ name: 'name', path: 'data.customer.name' }] });
    nodeCode = (await createNode(a, appCode, FunctionNodeType.DataSourceModule, { displayName: 'ERP 订单' })).code;
    const member = await addMember(t, admin, { name: '销售' });
    await grant(a, appCode, member.userId, 'access');
    m = nodeClient(t.app, member);
    stranger = nodeClient(t.app, await addMember(t, admin, { name: '路人' }));
  });
  afterAll(async () => {
    await erp?.close();
    await t?.close();
  });

  const query = (client: OrgClient, body: Record<string, unknown>) => client.raw('POST', '/v1/connectors/datasource/query', { nodeCode, ...body });
  const lastCall = () => new URL(erp.calls.at(-1)!.url, 'http://erp');

  it('is unconfigured at first; the designer offers list connectors with their fields and places', async () => {
    const loaded = await m.get('/v1/connectors/datasource/get', { nodeCode });
    expect(loaded).toMatchObject({ code: nodeCode, displayName: 'ERP 订单', definition: null, canDesign: false });
    expect((await a.get('/v1/connectors/datasource/get', { nodeCode })).canDesign).toBe(true);
    expect((await query(m, {})).body).toMatchObject({ successful: false, errorCode: 420021 });
    const choices = (await a.get('/v1/connectors/datasource/connectors')).items;
    expect(choices.map((c: { code: string }) => c.code)).toEqual(['ListOrders']);
    // The item fields come back in the stored (jsonb) order: compared as a set.
    expect(choices[0]).toMatchObject({ lists: [{ name: 'orders' }], outputs: ['orders', 'total'], places: ['Page', 'Size', 'Status', 'Customer'] });
    expect([...choices[0].lists[0].fields].sort()).toEqual(['amount', 'customer', 'no', 'status']);
  });

  it('refuses settings the connector cannot serve, and a member who does not administer the app', async () => {
    const save = (def: Record<string, unknown>, client = a) => client.raw('POST', '/v1/connectors/datasource/save', { nodeCode, definition: { ...definition, ...def } });
    expect((await save({ connectorCode: 'Nope' })).body.errorCode).toBe(420005);
    expect((await save({ connectorCode: 'DeleteOrder' })).body.errorCode).toBe(420023);
    expect((await save({ connectorCode: 'GetCustomer', listOutput: 'name' })).body.errorCode).toBe(420024);
    expect((await save({ columns: [{ field: 'price', title: '价格' }] })).body.errorCode).toBe(420025);
    expect((await save({ filters: [{ place: 'Region', label: '区域' }] })).body).toMatchObject({ errorCode: 420026, errorMessage: expect.stringContaining('{{Region}}') });
    expect((await save({ paging: { ...definition.paging, totalOutput: 'count' } })).body.errorCode).toBe(420027);
    expect((await save({ columns: [] })).body.errorCode).toBe(777);
    expect((await save({}, m)).body.errorCode).toBe(420028);
    expect((await a.get('/v1/connectors/datasource/get', { nodeCode })).definition).toBeNull();
  });

  it('pages and filters at the outside system for a member who may open it; others get nothing', async () => {
    const saved = await a.post('/v1/connectors/datasource/save', { nodeCode, definition });
    expect(saved.definition).toMatchObject({ connectorCode: 'ListOrders', paging: { firstPage: 1 } });
    const first = (await query(m, { pageIndex: 0, pageSize: 10 })).body.data;
    expect(first.columns).toEqual(definition.columns);
    expect(first.total).toBe(ERP_ORDERS.length);
    expect(first.rows[0]).toEqual({ no: 'SO-001', customer: '客户1', amount: 100 });
    expect(first.rows).toHaveLength(10);
    expect(lastCall().searchParams.get('page')).toBe('1');
    expect(lastCall().searchParams.get('size')).toBe('10');
    const third = (await query(m, { pageIndex: 2, pageSize: 10 })).body.data;
    expect(third.rows.map((r: { no: string }) => r.no)).toEqual(['SO-021', 'SO-022', 'SO-023']);
    expect(lastCall().searchParams.get('page')).toBe('3');
    const open = ERP_ORDERS.filter((o) => o.status === 'open');
    const filtered = (await query(m, { pageIndex: 0, pageSize: 5, filters: { Status: 'open' } })).body.data;
    expect(lastCall().searchParams.get('status')).toBe('open');
    expect(filtered.total).toBe(open.length);
    expect(filtered.rows.map((r: { no: string }) => r.no)).toEqual(open.slice(0, 5).map((o) => o.id));
    // Only the configured columns come back (the item's status stays at the outside system's side).
    expect(Object.keys(filtered.rows[0])).toEqual(['no', 'customer', 'amount']);
    const both = (await query(m, { pageIndex: 0, pageSize: 50, filters: { Status: 'paid', Customer: '客户2' } })).body.data;
    expect(both.rows.map((r: { no: string }) => r.no)).toEqual(ERP_ORDERS.filter((o) => o.status === 'paid' && o.customer.name === '客户2').map((o) => o.id));
    expect(decodeURIComponent(lastCall().search)).toContain('customer=客户2');
    expect((await query(m, { filters: { Region: 'x' } })).body.errorCode).toBe(420030);
    const calls = erp.calls.length;
    expect((await query(stranger, {})).body).toMatchObject({ successful: false, errorCode: 230001 });
    expect(erp.calls.length).toBe(calls);
    const log = await a.get('/v1/connectors/log', { pageIndex: '0', pageSize: '1' });
    expect(log.items[0]).toMatchObject({ connectorCode: 'ListOrders', source: 'button', ok: true });
  });

  it('a failing outside system is a catalogue error; an uninstalled plugin refuses; another node type is not a data source', async () => {
    erp.down = true;
    try {
      expect((await query(m, {})).body).toMatchObject({ successful: false, errorCode: 420007 });
    } finally {
      erp.down = false;
    }
    const edb = engineDb(t.database.db, admin.engineCode);
    await putPluginInstance(edb, { templateCode: 'connector', status: 'notInstalled' });
    try {
      expect((await query(m, {})).body.errorCode).toBe(430001);
    } finally {
      await putPluginInstance(edb, { templateCode: 'connector', status: 'installed' });
    }
    const form = (await createNode(a, appCode, FunctionNodeType.FormModule, { displayName: '订单表' })).code;
    expect((await a.raw('GET', '/v1/connectors/datasource/get', { nodeCode: form })).body.errorCode).toBe(420022);
    expect((await query(m, { pageIndex: 0, pageSize: 10 })).body.successful).toBe(true);
  });
});
