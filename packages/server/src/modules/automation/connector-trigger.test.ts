import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerPerson, type TestApp } from '../../../test/helpers.ts';
import type { OrgClient } from '../../../test/node-helpers.ts';
import { nodeClient } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';
import { signDelivery, type SignedDelivery } from '../../../test/inbound-sender.ts';
import { engineDb } from '../../db/database.ts';
import type { Db } from '../../db/types.ts';
import { connectorDeliveryRetentionSweep } from './connector-delivery-sweep.ts';
import { putPluginInstance } from '../plugin-instances/plugin-instances.ts';

// test-databases: both — two retries of one delivery at once meet on the deliveries' key only where connections are real.
// The inbound connector trigger (docs/decisions/0123): an outside system posts signed deliveries to an automation's
// URL; the same delivery id retried makes one run (one record); forged, expired, unsigned or misdirected deliveries,
// a disabled automation and an uninstalled plugin create nothing.

const DAY = 86_400_000;

describe('the inbound connector trigger', () => {
  let t: TestApp, a: OrgClient, appCode: string, engineCode: string;
  let target: string, source: string;

  beforeAll(async () => {
    let admin;
    ({ t, a, appCode, admin } = await adminWithApp());
    engineCode = admin.engineCode;
    await putPluginInstance(engineDb(t.database.db, engineCode), { templateCode: 'connector', status: 'installed' });
    source = (await createForm(a, appCode, { displayName: '外部订单' })).code as string;
    target = (await createForm(a, appCode, { displayName: '销售订单' })).code as string;
    await publish(a, source, definition([{ type: 'textBox', code: 'Note' }]));
    await publish(a, target, definition([{ type: 'textBox', code: 'OrderNo' }, { type: 'textBox', code: 'Customer' }, { type: 'number', code: 'Amount' }]));
  });
  afterAll(async () => {
    await t?.close();
  });

  const drain = async () => {
    while (await t.app.extras.jobs.runOnce());
  };
  const rows = async () => ((await a.post('/v1/bizdata/query', { schemaCode: target, pageIndex: 0, pageSize: 100 })).list as Record<string, unknown>[]);
  const field = (code: string) => ({ type: 'field', code });
  async function automation(name: string) {
    const saved = (await a.post('/v1/automatic/save', {
      schemaCode: source,
      automation: {
        name,
        trigger: { type: 'connector' },
        steps: [{ id: 'i', type: 'insert', targetSchemaCode: target, mappings: [{ field: 'OrderNo', value: field('orderNo') }, { field: 'Customer', value: field('customer') }, { field: 'Amount', value: field('amount') }] }],
      },
    })).automation as { id: string; webhookUrl: string };
    const secret = (await a.post('/v1/connectors/inbound/secret', { id: saved.id })) as { url: string; secret: string; headers: Record<string, string> };
    return { ...saved, ...secret };
  }
  const deliver = (url: string, delivery: SignedDelivery) =>
    t.app.inject({ method: 'POST', url, headers: delivery.headers, payload: delivery.body }).then((r) => ({ status: r.statusCode, body: r.json() }));

  it('shows its URL and secret to the designer; three deliveries of one id make one record and the same answer', async () => {
    const auto = await automation('ERP 订单同步');
    expect(auto.webhookUrl).toBe(`/v1/connectors/inbound/${encodeURIComponent(engineCode)}/${auto.id}`);
    expect(auto.url).toBe(auto.webhookUrl);
    expect(auto.secret).toMatch(/^[0-9a-f]{48}$/);
    expect(auto.headers).toEqual({ signature: 'X-Signature', timestamp: 'X-Timestamp', delivery: 'X-Delivery-Id' });
    // The list never carries the secret.
    expect(JSON.stringify(await a.post('/v1/automatic/list', { schemaCode: source }))).not.toContain(auto.secret);
    const order = { orderNo: 'SO-9001', customer: '华东客户', amount: 1200 };
    // Two at once (a sender retrying before the first answer), then a third later: each signed afresh.
    const answers = await Promise.all([deliver(auto.url, signDelivery(auto.secret, order, { deliveryId: 'dlv-1' })), deliver(auto.url, signDelivery(auto.secret, order, { deliveryId: 'dlv-1' }))]);
    await drain();
    answers.push(await deliver(auto.url, signDelivery(auto.secret, order, { deliveryId: 'dlv-1' })));
    await drain();
    for (const answer of answers) expect(answer).toMatchObject({ status: 200, body: { successful: true, data: { deliveryId: 'dlv-1' } } });
    expect(new Set(answers.map((x) => x.body.data.runId)).size).toBe(1);
    expect((await rows()).map((r) => [r.OrderNo, r.Customer, Number(r.Amount)])).toEqual([['SO-9001', '华东客户', 1200]]);
    const logs = await a.post('/v1/automatic/logs', { schemaCode: source, automationId: auto.id });
    expect(logs.runs.map((r: { state: string; triggerType: string }) => [r.triggerType, r.state])).toEqual([['connector', 'Succeeded']]);
    // Another delivery id is another run.
    expect((await deliver(auto.url, signDelivery(auto.secret, { ...order, orderNo: 'SO-9002' }, { deliveryId: 'dlv-2' }))).status).toBe(200);
    await drain();
    expect((await rows()).map((r) => r.OrderNo).sort()).toEqual(['SO-9001', 'SO-9002']);
  });

  it('forgets a delivery after 30 days, once a day; the same id sent after that answers its run', async () => {
    const auto = await automation('保留期');
    const order = (orderNo: string) => ({ orderNo, customer: '保留期', amount: 5 });
    const first = await deliver(auto.url, signDelivery(auto.secret, order('SO-OLD'), { deliveryId: 'keep-old' }));
    expect((await deliver(auto.url, signDelivery(auto.secret, order('SO-NEW'), { deliveryId: 'keep-new' }))).status).toBe(200);
    await drain();
    const edb = engineDb(t.database.db, engineCode);
    const now = Date.now();
    await edb.updateTable('connector_deliveries').set({ created_time: new Date(now - 31 * DAY) } as never).where('automation_id', '=', auto.id).where('delivery_id', '=', 'keep-old').execute();
    const kept = async () => (await edb.selectFrom('connector_deliveries').select('delivery_id').where('automation_id', '=', auto.id).orderBy('delivery_id').execute()).map((r) => r.delivery_id);
    const sweep = connectorDeliveryRetentionSweep();
    expect(await sweep.run(t.database.db as Db, new Date(now))).toBe(1);
    expect(await kept()).toEqual(['keep-new']);
    // Once a day: an older row appearing within the day waits for the next day's pass.
    await edb.updateTable('connector_deliveries').set({ created_time: new Date(now - 31 * DAY) } as never).where('automation_id', '=', auto.id).where('delivery_id', '=', 'keep-new').execute();
    expect(await sweep.run(t.database.db as Db, new Date(now + 1000))).toBe(0);
    expect(await sweep.run(t.database.db as Db, new Date(now + DAY))).toBe(1);
    expect(await kept()).toEqual([]);
    // A forgotten delivery id sent again meets its run in the run log (its event key): the same answer, no second record.
    const again = await deliver(auto.url, signDelivery(auto.secret, order('SO-OLD'), { deliveryId: 'keep-old' }));
    await drain();
    expect(again).toMatchObject({ status: 200, body: { successful: true, data: { deliveryId: 'keep-old', runId: first.body.data.runId } } });
    expect((await rows()).filter((r) => r.OrderNo === 'SO-OLD')).toHaveLength(1);
  });

  it('refuses forged, expired, unsigned and misdirected deliveries with 401 and creates nothing', async () => {
    const auto = await automation('拒绝伪造');
    const before = (await rows()).length;
    const order = { orderNo: 'SO-X', customer: '伪造', amount: 1 };
    const forged = await deliver(auto.url, signDelivery('not-the-secret', order, { deliveryId: 'f-1' }));
    expect(forged).toMatchObject({ status: 401, body: { successful: false, errorCode: 420016 } });
    // The body changed after signing.
    const signed = signDelivery(auto.secret, order, { deliveryId: 'f-2' });
    const tampered = await deliver(auto.url, { ...signed, body: signed.body.replace('"amount":1', '"amount":1000') });
    expect(tampered.body.errorCode).toBe(420016);
    const expired = await deliver(auto.url, signDelivery(auto.secret, order, { deliveryId: 'f-3', at: new Date(Date.now() - 6 * 60_000) }));
    expect(expired).toMatchObject({ status: 401, body: { errorCode: 420017 } });
    const unsigned = await t.app.inject({ method: 'POST', url: auto.url, headers: { 'content-type': 'application/json', 'x-delivery-id': 'f-4' }, payload: JSON.stringify(order) });
    expect(unsigned.statusCode).toBe(401);
    expect(unsigned.json().errorCode).toBe(420015);
    // Another engine's URL with this automation's id and secret reaches nothing here.
    const other = await registerPerson(t.app);
    const elsewhere = await deliver(`/v1/connectors/inbound/${encodeURIComponent(other.engineCode)}/${auto.id}`, signDelivery(auto.secret, order, { deliveryId: 'f-5' }));
    expect(elsewhere).toMatchObject({ status: 401, body: { errorCode: 420016 } });
    // An automation that is not a connector trigger has no inbound URL.
    const unknown = await deliver(`/v1/connectors/inbound/${encodeURIComponent(engineCode)}/not-an-id`, signDelivery(auto.secret, order, { deliveryId: 'f-6' }));
    expect(unknown.status).toBe(401);
    await drain();
    expect((await rows()).length).toBe(before);
    const runs = await a.post('/v1/automatic/logs', { schemaCode: source, automationId: auto.id });
    expect(runs.total).toBe(0);
    const recorded = await engineDb(t.database.db, engineCode).selectFrom('connector_deliveries').select('delivery_id').where('automation_id', '=', auto.id).execute();
    expect(recorded).toEqual([]);
  });

  it('a disabled automation, a reset secret and an uninstalled plugin refuse', async () => {
    const auto = await automation('停用与重置');
    const before = (await rows()).length;
    const order = { orderNo: 'SO-D', customer: '停用', amount: 2 };
    await a.post('/v1/automatic/disable', { id: auto.id });
    const disabled = await deliver(auto.url, signDelivery(auto.secret, order, { deliveryId: 'd-1' }));
    expect(disabled.body).toMatchObject({ successful: false, errorCode: 360007 });
    await a.post('/v1/automatic/enable', { id: auto.id });
    const reset = (await a.post('/v1/connectors/inbound/resetsecret', { id: auto.id })) as { secret: string };
    expect(reset.secret).not.toBe(auto.secret);
    expect((await deliver(auto.url, signDelivery(auto.secret, order, { deliveryId: 'd-2' }))).body.errorCode).toBe(420016);
    // Saving again keeps the secret.
    await a.post('/v1/automatic/save', { schemaCode: source, automation: { id: auto.id, name: '停用与重置', trigger: { type: 'connector' }, steps: [{ id: 'i', type: 'insert', targetSchemaCode: target, mappings: [{ field: 'OrderNo', value: field('orderNo') }] }] } });
    expect(((await a.post('/v1/connectors/inbound/secret', { id: auto.id })) as { secret: string }).secret).toBe(reset.secret);
    const edb = engineDb(t.database.db, engineCode);
    await putPluginInstance(edb, { templateCode: 'connector', status: 'notInstalled' });
    try {
      expect((await deliver(auto.url, signDelivery(reset.secret, order, { deliveryId: 'd-3' }))).body.errorCode).toBe(430001);
      const save = await a.raw('POST', '/v1/automatic/save', { schemaCode: source, automation: { name: '未安装', trigger: { type: 'connector' }, steps: [{ id: 'i', type: 'insert', targetSchemaCode: target, mappings: [{ field: 'OrderNo', value: field('orderNo') }] }] } });
      expect(save.body.errorCode).toBe(430001);
    } finally {
      await putPluginInstance(edb, { templateCode: 'connector', status: 'installed' });
    }
    await drain();
    expect((await rows()).length).toBe(before);
    // A member who does not design the form reads no secret.
    const stranger = nodeClient(t.app, await registerPerson(t.app));
    expect((await stranger.raw('POST', '/v1/connectors/inbound/secret', { id: auto.id })).body.successful).toBe(false);
    // The right secret after all that still works.
    expect((await deliver(auto.url, signDelivery(reset.secret, order, { deliveryId: 'd-4' }))).status).toBe(200);
  });
});
