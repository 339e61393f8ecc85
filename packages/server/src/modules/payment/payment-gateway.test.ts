import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers.ts';
import type { OrgClient, Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';
import { rsaKeyPair, startAlipayFake, type AlipayFake } from '../../../test/alipay-fake.ts';
import { engineDb } from '../../db/database.ts';
import type { Db } from '../../db/types.ts';
import { putPluginInstance } from '../plugin-instances/plugin-instances.ts';

// The gateway is reached only through the platform's outbound guard: a platform that does not allow private
// addresses refuses a gateway on loopback before anything leaves, and a gateway that does not answer is said so.

describe('payment gateway behind the outbound guard', () => {
  let t: TestApp, admin: Person, a: OrgClient, appCode: string, fake: AlipayFake, form: string, objectId: string;
  const keys = rsaKeyPair();
  const install = (gatewayUrl: string) =>
    putPluginInstance(engineDb(t.database.db as Db, admin.engineCode), { templateCode: 'payment', status: 'installed', settings: { gatewayUrl, appId: fake.appId, platformPublicKey: fake.platformPublicKey }, secrets: { privateKey: keys.privateKey } });

  beforeAll(async () => {
    ({ t, admin, a, appCode } = await adminWithApp({ config: { outboundPrivate: false } }));
    fake = await startAlipayFake({ appPublicKey: keys.publicKey });
    form = (await createForm(a, appCode)).code as string;
    await publish(a, form, definition([
      { type: 'number', code: 'Fee', options: { decimalPlaces: 2 } },
      { type: 'plugin', code: 'Pay', options: { pluginCode: 'payment', pluginSettings: { amountField: 'Fee' } } },
    ]));
    objectId = (await a.post('/v1/form/action/execute', { schemaCode: form, actionCode: 'Submit', values: { Fee: 5 } })).objectId;
  });
  afterAll(async () => {
    await fake?.close();
    await t?.close();
  });

  it('refuses a gateway on a private address and calls nothing', async () => {
    await install(fake.gatewayUrl);
    const res = await a.raw('POST', '/v1/payment/precreate', { schemaCode: form, objectId, controlCode: 'Pay' });
    expect(res.body).toMatchObject({ successful: false, errorCode: 440014 });
    expect(fake.calls).toHaveLength(0);
    expect(await engineDb(t.database.db as Db, admin.engineCode).selectFrom('payment_orders').select('out_trade_no').execute()).toEqual([]);
  });

  it('says a gateway that cannot be reached is unreachable', async () => {
    await install('http://payment-gateway.invalid/gateway.do');
    const res = await a.raw('POST', '/v1/payment/precreate', { schemaCode: form, objectId, controlCode: 'Pay' });
    expect(res.status).toBeLessThan(500);
    expect(res.body).toMatchObject({ successful: false, errorCode: 440010 });
  });
});
