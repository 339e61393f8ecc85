import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { TestApp } from '../../../test/helpers.ts';
import { addInvitedMember, grant, nodeClient, type OrgClient, type Person } from '../../../test/node-helpers.ts';
import { adminWithApp, createForm, definition, publish } from '../../../test/form-helpers.ts';
import { registerPerson } from '../../../test/helpers.ts';
import { rsaKeyPair, startAlipayFake, type AlipayFake } from '../../../test/alipay-fake.ts';
import { engineDb } from '../../db/database.ts';
import type { Db } from '../../db/types.ts';
import { putPluginInstance } from '../plugin-instances/plugin-instances.ts';

// test-databases: both — notifies and queries of one order meet on its row lock, and amounts in fen must come back as numbers from both drivers.
// The payment plugin against a fake Alipay gateway that checks every signature: precreate → the buyer pays → the
// signed notify lands → the record's payment control says paid; query, close, partial and full refunds, and what is
// refused (a forged or repeated notify, too large a refund, a member of another engine, bad input).

const PUBLIC_URL = 'http://pay.test/';

describe('payment plugin (Alipay-like gateway)', () => {
  let t: TestApp, admin: Person, a: OrgClient, appCode: string, schemaCode: string, fake: AlipayFake;
  const app = rsaKeyPair();

  const newRecord = async (amount: number | null, title = '会员年费') =>
    (await a.post('/v1/form/action/execute', { schemaCode, actionCode: 'Submit', values: { Title: title, Amount: amount } })).objectId as string;
  const payValue = async (objectId: string) => ((await a.post('/v1/form/loaddata', { schemaCode, objectId })) as { values: Record<string, unknown> }).values.Pay as Record<string, unknown> | null;
  const orderRow = (orderNo: string) => engineDb(t.database.db as Db, admin.engineCode).selectFrom('payment_orders').selectAll().where('out_trade_no', '=', orderNo).executeTakeFirstOrThrow();
  // The notify goes to the platform's public URL: here, into the app under test.
  const deliver = async (url: string, body: string) => {
    const res = await t.app.inject({ method: 'POST', url: url.slice(PUBLIC_URL.length - 1), headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }, payload: body });
    return { status: res.statusCode, text: res.body };
  };
  const postNotify = (params: Record<string, string>) => deliver(`${PUBLIC_URL}v1/payment/notify/${admin.engineCode}`, new URLSearchParams(params).toString());

  beforeAll(async () => {
    ({ t, admin, a, appCode } = await adminWithApp({ config: { publicUrl: PUBLIC_URL } }));
    fake = await startAlipayFake({ appPublicKey: app.publicKey, deliver });
    await putPluginInstance(engineDb(t.database.db as Db, admin.engineCode), {
      templateCode: 'payment',
      status: 'installed',
      settings: { gatewayUrl: fake.gatewayUrl, appId: fake.appId, platformPublicKey: fake.platformPublicKey },
      secrets: { privateKey: app.privateKey },
    });
    schemaCode = (await createForm(a, appCode, { displayName: '会员缴费' })).code as string;
    await publish(a, schemaCode, definition([
      { type: 'textBox', code: 'Title' },
      { type: 'number', code: 'Amount', options: { decimalPlaces: 2 } },
      { type: 'plugin', code: 'Pay', options: { displayName: '在线支付', pluginCode: 'payment', pluginSettings: { amountField: 'Amount', subjectField: 'Title' } } },
      { type: 'plugin', code: 'Other', options: { displayName: '别的插件', pluginCode: 'face' } },
    ]));
  });
  afterAll(async () => {
    await fake?.close();
    await t?.close();
  });

  it('precreates with a signed request, shows the QR code, and a paid notify marks the record paid', async () => {
    const objectId = await newRecord(88.8);
    const order = await a.post('/v1/payment/precreate', { schemaCode, objectId, controlCode: 'Pay' });
    expect(order).toMatchObject({ amount: '88.80', state: 'WAIT_BUYER_PAY', subject: '会员年费', refundedAmount: '0.00', canRefund: true });
    expect(order.qrCode).toMatch(/^https:\/\/qr\.alipay\.com\//);
    expect(fake.calls.at(-1)).toEqual({ method: 'alipay.trade.precreate', verified: true });
    const trade = fake.trades.get(order.orderNo)!;
    expect(trade).toMatchObject({ totalAmount: '88.80', subject: '会员年费', notifyUrl: `${PUBLIC_URL}v1/payment/notify/${admin.engineCode}` });
    expect(await payValue(objectId)).toMatchObject({ orderNo: order.orderNo, state: 'WAIT_BUYER_PAY', amount: '88.80', paidAmount: null });

    // A second press while it waits reuses the same order (one open order per record control).
    expect((await a.post('/v1/payment/precreate', { schemaCode, objectId, controlCode: 'Pay' })).orderNo).toBe(order.orderNo);
    // Not scanned yet: the gateway does not know the trade; the order still waits.
    expect((await a.post('/v1/payment/query', { orderNo: order.orderNo })).state).toBe('WAIT_BUYER_PAY');

    const delivered = await fake.pay(order.orderNo);
    expect(delivered).toEqual({ status: 200, text: 'success' });
    const paid = await payValue(objectId);
    expect(paid).toMatchObject({ orderNo: order.orderNo, state: 'TRADE_SUCCESS', amount: '88.80', paidAmount: '88.80', refundedAmount: '0.00' });
    expect(typeof paid!.paidTime).toBe('string');
    expect(await orderRow(order.orderNo)).toMatchObject({ state: 'TRADE_SUCCESS', trade_no: trade.tradeNo, paid_fen: 8880 });
    // The change is in the record's data log, as any system write.
    const log = await a.post('/v1/form/datalog/list', { schemaCode, objectId });
    expect(JSON.stringify(log)).toContain('TRADE_SUCCESS');
  });

  it('answers a repeated notify with success and changes nothing; refuses a forged one', async () => {
    const objectId = await newRecord(10);
    const order = await a.post('/v1/payment/precreate', { schemaCode, objectId, controlCode: 'Pay' });
    await fake.pay(order.orderNo);
    const before = await orderRow(order.orderNo);
    const again = await postNotify(fake.notifyOf(order.orderNo));
    expect(again).toEqual({ status: 200, text: 'success' });
    expect(await orderRow(order.orderNo)).toEqual(before);

    // A waiting order, and notifies that must not pay it: a wrong signature, a changed amount re-signed by someone
    // else's key, another app's id, an unknown order.
    const waiting = await newRecord(20);
    const open = await a.post('/v1/payment/precreate', { schemaCode, objectId: waiting, controlCode: 'Pay' });
    fake.trades.get(open.orderNo)!.status = 'TRADE_SUCCESS';
    const genuine = fake.notifyOf(open.orderNo);
    fake.trades.get(open.orderNo)!.status = 'CREATED';
    const other = rsaKeyPair();
    const { createSign } = await import('node:crypto');
    const selfSigned: Record<string, string> = { ...genuine, total_amount: '0.01' };
    const content = Object.keys(selfSigned).filter((k) => k !== 'sign' && k !== 'sign_type').sort().map((k) => `${k}=${selfSigned[k]}`).join('&');
    selfSigned.sign = createSign('RSA-SHA256').update(content).sign(other.privateKey, 'base64');
    for (const forged of [
      { ...genuine, sign: genuine.sign!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')) },
      { ...genuine, trade_status: 'TRADE_FINISHED' },
      selfSigned,
      fake.signNotify({ ...genuine, total_amount: '0.01' }),
      fake.signNotify({ ...genuine, app_id: '2021999999999999' }),
      fake.signNotify({ ...genuine, out_trade_no: 'P-NO-SUCH' }),
    ]) {
      const answer = await postNotify(forged);
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.text)).toMatchObject({ successful: false, errorCode: 440012 });
    }
    expect((await orderRow(open.orderNo)).state).toBe('WAIT_BUYER_PAY');
    expect(await payValue(waiting)).toMatchObject({ state: 'WAIT_BUYER_PAY', paidAmount: null });
    // The genuine one pays it.
    expect(await postNotify(genuine)).toEqual({ status: 200, text: 'success' });
    expect(await payValue(waiting)).toMatchObject({ state: 'TRADE_SUCCESS', paidAmount: '20.00' });
  });

  it('applies notifies of one order that arrive at once exactly once', async () => {
    const objectId = await newRecord(66);
    const order = await a.post('/v1/payment/precreate', { schemaCode, objectId, controlCode: 'Pay' });
    const trade = fake.trades.get(order.orderNo)!;
    trade.status = 'TRADE_SUCCESS';
    trade.gmtPayment = '2026-11-29 10:00:00';
    const notify = fake.notifyOf(order.orderNo);
    const answers = await Promise.all([postNotify(notify), postNotify(notify), a.post('/v1/payment/query', { orderNo: order.orderNo }).then(() => ({ status: 200, text: 'success' }))]);
    expect(answers.map((x) => x.text)).toEqual(['success', 'success', 'success']);
    expect(await payValue(objectId)).toMatchObject({ state: 'TRADE_SUCCESS', paidAmount: '66.00' });
    const log = JSON.stringify(await a.post('/v1/form/datalog/list', { schemaCode, objectId }));
    expect(log.split('TRADE_SUCCESS').length - 1).toBe(1);
  });

  it('offers the same methods through POST /v2/plugin/invoke', async () => {
    const objectId = await newRecord(15);
    const { result } = await a.post('/v2/plugin/invoke', { pluginCode: 'payment', method: 'precreate', params: { schemaCode, objectId, controlCode: 'Pay' } });
    expect(result).toMatchObject({ amount: '15.00', state: 'WAIT_BUYER_PAY' });
    await fake.pay(result.orderNo);
    expect((await a.post('/v2/plugin/invoke', { pluginCode: 'payment', method: 'query', params: { orderNo: result.orderNo } })).result).toMatchObject({ state: 'TRADE_SUCCESS' });
    const bad = await a.raw('POST', '/v2/plugin/invoke', { pluginCode: 'payment', method: 'refund', params: { orderNo: result.orderNo, amount: 'all' } });
    expect(bad.status).toBeLessThan(500);
    expect(bad.body).toMatchObject({ successful: false, errorCode: 777 });
  });

  it('gives two presses at once one order', async () => {
    const objectId = await newRecord(42);
    const body = { schemaCode, objectId, controlCode: 'Pay' };
    const [one, two] = await Promise.all([a.post('/v1/payment/precreate', body), a.post('/v1/payment/precreate', body)]);
    expect(two.orderNo).toBe(one.orderNo);
    const open = await engineDb(t.database.db as Db, admin.engineCode).selectFrom('payment_orders').select('out_trade_no').where('object_id', '=', objectId).where('state', '=', 'WAIT_BUYER_PAY').execute();
    expect(open).toHaveLength(1);
  });

  it('queries a paid trade the notify never reached', async () => {
    const objectId = await newRecord(5.5);
    const order = await a.post('/v1/payment/precreate', { schemaCode, objectId, controlCode: 'Pay' });
    const trade = fake.trades.get(order.orderNo)!;
    trade.status = 'TRADE_SUCCESS';
    trade.gmtPayment = '2026-11-29 12:00:00';
    const queried = await a.post('/v1/payment/query', { orderNo: order.orderNo });
    expect(queried).toMatchObject({ state: 'TRADE_SUCCESS', paidAmount: '5.50', paidTime: '2026-11-29T04:00:00.000Z', tradeNo: trade.tradeNo });
    expect(await payValue(objectId)).toMatchObject({ state: 'TRADE_SUCCESS', paidTime: '2026-11-29T04:00:00.000Z' });
  });

  it('closes a waiting order, and a changed amount gets a new order', async () => {
    const objectId = await newRecord(30);
    const first = await a.post('/v1/payment/precreate', { schemaCode, objectId, controlCode: 'Pay' });
    await a.post('/v1/form/action/execute', { schemaCode, actionCode: 'Save', objectId, values: { Amount: 31 } });
    const second = await a.post('/v1/payment/precreate', { schemaCode, objectId, controlCode: 'Pay' });
    expect(second.orderNo).not.toBe(first.orderNo);
    expect(second.amount).toBe('31.00');
    expect((await orderRow(first.orderNo)).state).toBe('TRADE_CLOSED');
    const closed = await a.post('/v1/payment/close', { orderNo: second.orderNo });
    expect(closed).toMatchObject({ state: 'TRADE_CLOSED', qrCode: null });
    expect(await payValue(objectId)).toMatchObject({ orderNo: second.orderNo, state: 'TRADE_CLOSED' });
    const again = await a.raw('POST', '/v1/payment/close', { orderNo: second.orderNo });
    expect(again.body).toMatchObject({ successful: false, errorCode: 440005, errorMessage: '订单当前为“已关闭”，不能关闭' });
    // A notify for a closed order that is late changes nothing either.
    fake.trades.get(second.orderNo)!.status = 'TRADE_SUCCESS';
    await postNotify(fake.notifyOf(second.orderNo));
    expect((await orderRow(second.orderNo)).state).toBe('TRADE_CLOSED');
  });

  it('refunds in parts up to what was paid; more is refused; a full refund closes the order', async () => {
    const objectId = await newRecord(100);
    const order = await a.post('/v1/payment/precreate', { schemaCode, objectId, controlCode: 'Pay' });
    await fake.pay(order.orderNo);
    const part = await a.post('/v1/payment/refund', { orderNo: order.orderNo, amount: '30.5', reason: '部分退款' });
    expect(part).toMatchObject({ state: 'TRADE_SUCCESS', refundedAmount: '30.50', refundable: '69.50' });
    expect(part.refunds).toEqual([expect.objectContaining({ amount: '30.50', reason: '部分退款', state: 'REFUND_SUCCESS' })]);
    expect(await payValue(objectId)).toMatchObject({ state: 'TRADE_SUCCESS', refundedAmount: '30.50' });
    const over = await a.raw('POST', '/v1/payment/refund', { orderNo: order.orderNo, amount: '69.51', reason: '' });
    expect(over.body).toMatchObject({ successful: false, errorCode: 440006, errorMessage: '退款金额超过可退金额 69.50 元' });
    const english = await t.app.inject({ method: 'POST', url: '/v1/payment/refund', headers: { authorization: `Bearer ${admin.token}`, 'x-engine-code': admin.engineCode, 'accept-language': 'en-US' }, payload: { orderNo: order.orderNo, amount: '70', reason: '' } });
    expect(english.json()).toMatchObject({ successful: false, errorCode: 440006 });
    expect([...fake.trades.get(order.orderNo)!.refunds.values()]).toEqual([3050]);
    const rest = await a.post('/v1/payment/refund', { orderNo: order.orderNo, amount: '69.50', reason: '全部退回' });
    expect(rest).toMatchObject({ state: 'TRADE_CLOSED', refundedAmount: '100.00', refundable: '0.00' });
    expect(await payValue(objectId)).toMatchObject({ state: 'TRADE_CLOSED', paidAmount: '100.00', refundedAmount: '100.00' });
    expect(fake.trades.get(order.orderNo)!.status).toBe('TRADE_CLOSED');
    const after = await a.raw('POST', '/v1/payment/refund', { orderNo: order.orderNo, amount: '1', reason: '' });
    expect(after.body).toMatchObject({ successful: false, errorCode: 440005 });
  });

  it('lets a member who reads the record pay, refunds only for the owner or an app administrator', async () => {
    const member = await addInvitedMember(t, admin, { name: '会员' });
    const m = nodeClient(t.app, member);
    const objectId = await newRecord(12);
    // Not yet let into the app: the record is not theirs to see.
    expect((await m.raw('POST', '/v1/payment/precreate', { schemaCode, objectId, controlCode: 'Pay' })).body.successful).toBe(false);
    await grant(a, appCode, member.userId, 'access');
    const order = await m.post('/v1/payment/precreate', { schemaCode, objectId, controlCode: 'Pay' });
    expect(order.canRefund).toBe(false);
    await fake.pay(order.orderNo);
    const refused = await m.raw('POST', '/v1/payment/refund', { orderNo: order.orderNo, amount: '1', reason: '' });
    expect(refused.body).toMatchObject({ successful: false, errorCode: 440007 });
    expect((await orderRow(order.orderNo)).refunded_fen).toBe(0);
    // Their own record: they own it, so they may refund it.
    const own = (await m.post('/v1/form/action/execute', { schemaCode, actionCode: 'Submit', values: { Title: '自己的', Amount: 3 } })).objectId as string;
    const ownOrder = await m.post('/v1/payment/precreate', { schemaCode, objectId: own, controlCode: 'Pay' });
    expect(ownOrder.canRefund).toBe(true);
    await fake.pay(ownOrder.orderNo);
    expect((await m.post('/v1/payment/refund', { orderNo: ownOrder.orderNo, amount: '3', reason: '' })).state).toBe('TRADE_CLOSED');
  });

  it('refuses a member of another engine and bad input, changing nothing', async () => {
    const objectId = await newRecord(7);
    const order = await a.post('/v1/payment/precreate', { schemaCode, objectId, controlCode: 'Pay' });
    const stranger = await registerPerson(t.app);
    const s = nodeClient(t.app, stranger);
    for (const [url, body] of [
      ['/v1/payment/precreate', { schemaCode, objectId, controlCode: 'Pay' }],
      ['/v1/payment/query', { orderNo: order.orderNo }],
      ['/v1/payment/close', { orderNo: order.orderNo }],
      ['/v1/payment/refund', { orderNo: order.orderNo, amount: '1', reason: '' }],
    ] as const) {
      const res = await s.raw('POST', url, body);
      expect(res.status).toBeLessThan(500);
      expect(res.body.successful).toBe(false);
    }
    expect((await orderRow(order.orderNo)).state).toBe('WAIT_BUYER_PAY');
    // A notify posted to another engine's address finds no such order there.
    const elsewhere = await deliver(`${PUBLIC_URL}v1/payment/notify/${stranger.engineCode}`, new URLSearchParams(fake.notifyOf(order.orderNo)).toString());
    expect(elsewhere.status).toBe(400);

    const cases: [unknown, number][] = [
      [{ schemaCode, objectId, controlCode: 'Other' }, 440001],
      [{ schemaCode, objectId, controlCode: 'Title' }, 440001],
      [{ schemaCode, objectId: 'no-such', controlCode: 'Pay' }, 250001],
      [{ schemaCode, objectId }, 777],
      [{ schemaCode, objectId, controlCode: 'Pay', amount: 1 }, 777],
    ];
    for (const [body, code] of cases) {
      const res = await a.raw('POST', '/v1/payment/precreate', body);
      expect(res.status).toBeLessThan(500);
      expect(res.body).toMatchObject({ successful: false });
      if (code !== 250001) expect(res.body.errorCode).toBe(code);
    }
    for (const amount of ['0', '-1', '1.001', 'abc', '']) {
      const res = await a.raw('POST', '/v1/payment/refund', { orderNo: order.orderNo, amount, reason: '' });
      expect(res.body).toMatchObject({ successful: false, errorCode: 777 });
    }
    expect((await a.raw('POST', '/v1/payment/query', { orderNo: 'P-NONE' })).body).toMatchObject({ successful: false, errorCode: 440004 });
    // The amount comes from the record: an empty, zero or three-decimal amount is refused by name.
    for (const amount of [null, 0]) {
      const bad = await newRecord(amount);
      const res = await a.raw('POST', '/v1/payment/precreate', { schemaCode, objectId: bad, controlCode: 'Pay' });
      expect(res.body).toMatchObject({ successful: false, errorCode: 440003 });
    }
    const untitled = await newRecord(1, '');
    expect((await a.raw('POST', '/v1/payment/precreate', { schemaCode, objectId: untitled, controlCode: 'Pay' })).body).toMatchObject({ successful: false, errorCode: 440015 });
  });

  it('refuses a gateway answer signed by another key, and a request the gateway cannot verify', async () => {
    const db = engineDb(t.database.db as Db, admin.engineCode);
    const objectId = await newRecord(9);
    const wrong = rsaKeyPair();
    await putPluginInstance(db, { templateCode: 'payment', status: 'installed', settings: { gatewayUrl: fake.gatewayUrl, appId: fake.appId, platformPublicKey: wrong.publicKey }, secrets: { privateKey: app.privateKey } });
    const mismatch = await a.raw('POST', '/v1/payment/precreate', { schemaCode, objectId, controlCode: 'Pay' });
    expect(mismatch.body).toMatchObject({ successful: false, errorCode: 440009 });
    await putPluginInstance(db, { templateCode: 'payment', status: 'installed', settings: { gatewayUrl: fake.gatewayUrl, appId: fake.appId, platformPublicKey: fake.platformPublicKey }, secrets: { privateKey: wrong.privateKey } });
    const unsigned = await a.raw('POST', '/v1/payment/precreate', { schemaCode, objectId, controlCode: 'Pay' });
    expect(unsigned.body).toMatchObject({ successful: false, errorCode: 440008 });
    expect(unsigned.body.errorMessage).toContain('isv.invalid-signature');
    expect(fake.calls.at(-1)).toEqual({ method: 'alipay.trade.precreate', verified: false });
    await putPluginInstance(db, { templateCode: 'payment', status: 'installed', settings: { gatewayUrl: fake.gatewayUrl, appId: fake.appId, platformPublicKey: 'not a key' }, secrets: { privateKey: app.privateKey } });
    expect((await a.raw('POST', '/v1/payment/precreate', { schemaCode, objectId, controlCode: 'Pay' })).body).toMatchObject({ successful: false, errorCode: 440013 });
    await putPluginInstance(db, { templateCode: 'payment', status: 'notInstalled', secrets: { privateKey: app.privateKey } });
    expect((await a.raw('POST', '/v1/payment/precreate', { schemaCode, objectId, controlCode: 'Pay' })).body).toMatchObject({ successful: false, errorCode: 430001 });
    // Nothing was written for any of them; the secret never shows in an answer.
    expect(await payValue(objectId)).toBeNull();
    await putPluginInstance(db, { templateCode: 'payment', status: 'installed', settings: { gatewayUrl: fake.gatewayUrl, appId: fake.appId, platformPublicKey: fake.platformPublicKey }, secrets: { privateKey: app.privateKey } });
    const order = await a.post('/v1/payment/precreate', { schemaCode, objectId, controlCode: 'Pay' });
    expect(JSON.stringify(order)).not.toContain('PRIVATE');
  });
});
