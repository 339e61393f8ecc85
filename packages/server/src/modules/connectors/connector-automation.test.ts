import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers.ts';
import type { OrgClient } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';
import { ERP, startErpFake, type ErpFake } from '../../../test/erp-fake.ts';
import { putPluginInstance } from '../plugin-instances/plugin-instances.ts';
import { engineDb } from '../../db/database.ts';

// The automation connector step (docs/decisions/0120): a record's save runs a connector against the fake ERP with
// the record's fields as the connector's `{{Code}}` values (and the step's own parameters), writes the outputs mapped
// back to the record, and logs the call with the source 自动化; a failing call fails the step in the run log.

describe('the automation connector step', () => {
  let t: TestApp, a: OrgClient, appCode: string, erp: ErpFake;

  beforeAll(async () => {
    let admin: { engineCode: string };
    ({ t, a, appCode, admin } = await adminWithApp());
    // Connectors work while the connector plugin is installed (docs/decisions/0123).
    await putPluginInstance(engineDb(t.database.db, admin.engineCode), { templateCode: 'connector', status: 'installed' });
    erp = await startErpFake();
    await a.post('/v1/connectors/connection/save', { code: 'Erp', name: 'ERP', baseUrl: `${erp.url}/key`, authKind: 'apiKey', auth: { apiKeyName: 'X-Api-Key', apiKeyIn: 'header' }, secret: ERP.apiKey, healthPath: '/health' });
    await a.post('/v1/connectors/connector/save', {
      code: 'GetCustomer',
      name: '查询客户',
      connectionCode: 'Erp',
      method: 'GET',
      path: '/customer/{{CustomerNo}}',
      params: [{ name: 'region', in: 'query', value: '{{Region}}' }],
      outputs: [
        { name: 'customerName', path: 'data.customer.name' },
        { name: 'credit', path: 'data.customer.credit' },
        { name: 'orders', path: 'data.orders' },
      ],
    });
  });
  afterAll(async () => {
    await erp?.close();
    await t?.close();
  });

  async function customerForm() {
    const code = (await createForm(a, appCode, { displayName: '客户资料' })).code as string;
    await publish(a, code, definition([
      { type: 'textBox', code: 'CustomerNo' },
      { type: 'textBox', code: 'Area' },
      { type: 'textBox', code: 'CustomerName' },
      { type: 'number', code: 'Credit' },
      { type: 'textArea', code: 'Orders' },
    ]));
    return code;
  }
  const exec = (schemaCode: string, values: Record<string, unknown>) => a.post('/v1/form/action/execute', { schemaCode, actionCode: 'Submit', values });
  const drain = async () => {
    while (await t.app.extras.jobs.runOnce());
  };
  const logs = async (schemaCode: string) => (await a.post('/v1/automatic/logs', { schemaCode })) as { runs: { state: string; error: string | null; steps: { ok: boolean; type: string; output: any; error: string | null }[] }[] };
  const record = async (schemaCode: string, objectId: string) => ((await a.post('/v1/form/loaddata', { schemaCode, objectId })) as { values: Record<string, unknown> }).values;

  it('runs the connector with the record’s fields and writes the outputs back to it', async () => {
    const form = await customerForm();
    await a.post('/v1/automatic/save', {
      schemaCode: form,
      automation: {
        name: '从 ERP 补全客户',
        trigger: { type: 'effective' },
        steps: [{
          id: 'erp',
          type: 'connector',
          connectorCode: 'GetCustomer',
          // The connector's {{Region}} is not a field of this form: the step fills it from the record's Area.
          params: [{ name: 'Region', value: '华东-{{Area}}' }],
          outputMappings: [{ field: 'CustomerName', output: 'customerName' }, { field: 'Credit', output: 'credit' }, { field: 'Orders', output: 'orders' }],
        }],
      },
    });
    const { objectId } = await exec(form, { CustomerNo: 'C-88', Area: '杭州' });
    await drain();
    expect(erp.calls.at(-1)!.url).toBe(`/key/customer/C-88?region=${encodeURIComponent('华东-杭州')}`);
    expect(erp.calls.at(-1)!.headers['x-api-key']).toBe(ERP.apiKey);
    const values = await record(form, objectId);
    expect(values).toMatchObject({ CustomerName: '客户C-88', Credit: 5000 });
    // A list output written to a text field is its JSON.
    expect(JSON.parse(String(values.Orders))).toHaveLength(2);
    const run = (await logs(form)).runs[0]!;
    expect(run.state).toBe('Succeeded');
    expect(run.steps[0]).toMatchObject({ ok: true, type: 'connector', output: { connectorCode: 'GetCustomer', params: { Region: '华东-杭州' }, written: { CustomerName: '客户C-88', Credit: 5000 } } });
    const log = await a.get('/v1/connectors/log', { connectionCode: 'Erp' });
    expect(log.items[0]).toMatchObject({ source: 'automation', connectorCode: 'GetCustomer', ok: true, httpStatus: 200 });
  });

  it('a test run shows the values it would send and calls nothing', async () => {
    const form = await customerForm();
    const { objectId } = await exec(form, { CustomerNo: 'C-1', Area: '宁波' });
    const calls = erp.calls.length;
    const automation = { name: '试', trigger: { type: 'effective' }, steps: [{ id: 'erp', type: 'connector', connectorCode: 'GetCustomer', params: [{ name: 'Region', value: '{{Area}}' }] }] };
    const result = await a.post('/v1/automatic/testrun', { schemaCode: form, automation, objectId });
    expect(result.steps[0]).toMatchObject({ ok: true, output: { connectorCode: 'GetCustomer', params: { Region: '宁波' }, sent: false } });
    expect(erp.calls.length).toBe(calls);
  });

  it('refuses a connector that does not exist, an output it lacks and a field the form lacks', async () => {
    const form = await customerForm();
    const step = (more: Record<string, unknown>) => ({ name: '坏', trigger: { type: 'effective' }, steps: [{ id: 'erp', type: 'connector', connectorCode: 'GetCustomer', ...more }] });
    const missing = await a.raw('POST', '/v1/automatic/save', { schemaCode: form, automation: step({ connectorCode: 'Nope' }) });
    expect(missing.body.errorCode).toBe(420005);
    const noOutput = await a.raw('POST', '/v1/automatic/save', { schemaCode: form, automation: step({ outputMappings: [{ field: 'CustomerName', output: 'nickname' }] }) });
    expect(noOutput.body).toMatchObject({ errorCode: 360003, errorMessage: expect.stringContaining('没有输出“nickname”') });
    const noField = await a.raw('POST', '/v1/automatic/save', { schemaCode: form, automation: step({ outputMappings: [{ field: 'Nickname', output: 'customerName' }] }) });
    expect(noField.body).toMatchObject({ errorCode: 360003, errorMessage: expect.stringContaining('Nickname') });
  });

  it('a failing call fails the step in the run log: a 404 for good, the ERP down is retried', async () => {
    await a.post('/v1/connectors/connector/save', { code: 'Missing', name: '不存在的接口', connectionCode: 'Erp', method: 'GET', path: '/missing', outputs: [] });
    const form = await customerForm();
    await a.post('/v1/automatic/save', { schemaCode: form, automation: { name: '坏接口', trigger: { type: 'effective' }, steps: [{ id: 'erp', type: 'connector', connectorCode: 'Missing' }] } });
    await exec(form, { CustomerNo: 'C-2' });
    await drain();
    const failed = (await logs(form)).runs[0]!;
    expect(failed).toMatchObject({ state: 'Failed', error: expect.stringContaining('HTTP 404') });
    expect(failed.steps[0]).toMatchObject({ ok: false, type: 'connector', error: expect.stringContaining('HTTP 404') });

    const other = await customerForm();
    await a.post('/v1/automatic/save', { schemaCode: other, automation: { name: 'ERP 维护中', trigger: { type: 'effective' }, steps: [{ id: 'erp', type: 'connector', connectorCode: 'GetCustomer' }] } });
    erp.down = true;
    try {
      await exec(other, { CustomerNo: 'C-3' });
      await drain();
    } finally {
      erp.down = false;
    }
    // A 503 is the outside system's: the run waits for its retry, with the error logged.
    const waiting = (await logs(other)).runs[0]!;
    expect(waiting.state).toBe('Waiting');
    expect(waiting.error).toMatch(/HTTP 503/);
  });
});
