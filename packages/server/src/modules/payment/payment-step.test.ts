import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers.ts';
import type { OrgClient, Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';
import { rsaKeyPair, startAlipayFake, type AlipayFake } from '../../../test/alipay-fake.ts';
import { engineDb } from '../../db/database.ts';
import type { Db } from '../../db/types.ts';
import { putPluginInstance } from '../plugin-instances/plugin-instances.ts';

// The automation payment step (docs/decisions/0123, payment): a record made effective precreates the payment of the
// form's payment control at the fake gateway, inside the run; saving refuses a control that is not a payment control.

describe('the automation payment step', () => {
  let t: TestApp, admin: Person, a: OrgClient, appCode: string, fake: AlipayFake, form: string;
  const keys = rsaKeyPair();
  const drain = async () => {
    while (await t.app.extras.jobs.runOnce());
  };

  beforeAll(async () => {
    ({ t, admin, a, appCode } = await adminWithApp({ config: { publicUrl: 'https://forms.example.com/' } }));
    fake = await startAlipayFake({ appPublicKey: keys.publicKey });
    form = (await createForm(a, appCode, { displayName: '报名' })).code as string;
    await publish(a, form, definition([
      { type: 'textBox', code: 'Title' },
      { type: 'number', code: 'Fee', options: { decimalPlaces: 2 } },
      { type: 'plugin', code: 'Pay', options: { pluginCode: 'payment', pluginSettings: { amountField: 'Fee' } } },
    ]));
  });
  afterAll(async () => {
    await fake?.close();
    await t?.close();
  });

  const automation = (controlCode: string) => ({ schemaCode: form, automation: { name: '报名后生成付款码', trigger: { type: 'effective' }, steps: [{ id: 'pay', type: 'payment', settings: { controlCode } }] } });

  it('is refused before the plugin is installed, and for a control that is not a payment control', async () => {
    expect((await a.raw('POST', '/v1/automatic/save', automation('Pay'))).body).toMatchObject({ successful: false, errorCode: 430001 });
    await putPluginInstance(engineDb(t.database.db as Db, admin.engineCode), {
      templateCode: 'payment',
      status: 'installed',
      settings: { gatewayUrl: fake.gatewayUrl, appId: fake.appId, platformPublicKey: fake.platformPublicKey },
      secrets: { privateKey: keys.privateKey },
    });
    expect((await a.raw('POST', '/v1/automatic/save', automation('Title'))).body).toMatchObject({ successful: false, errorCode: 440001 });
    const missing = await a.raw('POST', '/v1/automatic/save', { ...automation('Pay'), automation: { ...automation('Pay').automation, steps: [{ id: 'pay', type: 'payment', settings: {} }] } });
    expect(missing.body).toMatchObject({ successful: false, errorCode: 777 });
  });

  it('precreates the record’s payment when it becomes effective', async () => {
    await a.post('/v1/automatic/save', automation('Pay'));
    const { objectId } = await a.post('/v1/form/action/execute', { schemaCode: form, actionCode: 'Submit', values: { Title: '秋季训练营', Fee: 199 } });
    await drain();
    const values = ((await a.post('/v1/form/loaddata', { schemaCode: form, objectId })) as { values: Record<string, any> }).values;
    expect(values.Pay).toMatchObject({ state: 'WAIT_BUYER_PAY', amount: '199.00', paidAmount: null });
    const trade = fake.trades.get(values.Pay.orderNo)!;
    // Without a subject field the record's title is the subject; the notify URL is the platform's public address.
    expect(trade).toMatchObject({ totalAmount: '199.00', notifyUrl: `https://forms.example.com/v1/payment/notify/${admin.engineCode}` });
    expect(fake.calls.at(-1)).toEqual({ method: 'alipay.trade.precreate', verified: true });
  });
});
