import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, forgetRecentCodes, openTestDatabase, registerPerson, uniqueMobile, type TestApp } from '../../../test/helpers.ts';
import type { Database } from '../../db/database.ts';
import { createHttpSmsSender } from './sms.ts';
import { createVerifyCodeService } from './verify-code.service.ts';

/** A local SMS gateway that records what it is sent and fails on demand. */
function fakeGateway() {
  const received: { to: string; text: string; auth?: string }[] = [];
  let mode: 'ok' | 'http-error' | 'refuse' = 'ok';
  const server: Server = createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      if (mode === 'http-error') {
        res.writeHead(503).end('down');
        return;
      }
      received.push({ ...JSON.parse(body), auth: req.headers.authorization });
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(mode === 'refuse' ? { ok: false, error: 'blocked' } : { ok: true }));
    });
  });
  return {
    received,
    setMode: (m: typeof mode) => (mode = m),
    start: () => new Promise<string>((resolve) => server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`))),
    stop: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

let database: Database;
let t: TestApp;
const gateway = fakeGateway();
beforeAll(async () => {
  database = await openTestDatabase();
  const url = await gateway.start();
  t = await createTestApp({ database, config: { fixedVerifyCode: undefined, smsUrl: url, smsToken: 'sms-secret' } });
});
afterAll(async () => {
  await t.close();
  await database.close();
  await gateway.stop();
});

const send = (mobile: string, scene = 'login') => call(t.app, 'POST', '/v1/captcha/verifycode/send', { body: { mobile, scene } });

describe('verification codes through the HTTP SMS gateway', () => {
  it('sends a 6-digit code that signs the person in', async () => {
    const mobile = uniqueMobile();
    const res = await send(mobile, 'register');
    expect(res.body.data).toEqual({ expiresIn: 300, resendAfter: 60 });
    const message = gateway.received.at(-1)!;
    expect(message.to).toBe(mobile);
    expect(message.auth).toBe('Bearer sms-secret');
    const code = /(\d{6})/.exec(message.text)![1];
    const reg = await call(t.app, 'POST', '/v1/register/engine', { body: { mobile, code, password: 'Passw0rd1', userName: '李四', engineName: '短信测试公司' } });
    expect(reg.body.successful).toBe(true);
    // The code is stored hashed, never in clear.
    const rows = await database.db.selectFrom('platform.verify_codes').select('code_hash').where('mobile', '=', mobile).execute();
    expect(rows.every((r) => !r.code_hash.includes(code))).toBe(true);
  });

  it('answers 201102 when a code is requested again within 60 seconds', async () => {
    const mobile = uniqueMobile();
    expect((await send(mobile, 'register')).body.successful).toBe(true);
    const again = await send(mobile, 'register');
    expect(again.body.errorCode).toBe(201102);
    expect(again.body.detail.retryAfter).toBeGreaterThan(0);
    // Another scene is another purpose: its code may be asked for at once.
    expect((await send(mobile, 'bind')).body.successful).toBe(true);
  });

  it('answers 201102 after ten codes to one number in a day', async () => {
    const mobile = uniqueMobile();
    for (let i = 0; i < 10; i++) {
      await forgetRecentCodes(database, mobile);
      expect((await send(mobile, 'register')).body.successful).toBe(true);
    }
    await forgetRecentCodes(database, mobile);
    expect((await send(mobile, 'register')).body.errorCode).toBe(201102);
  });

  it('answers 201103 when the gateway fails, and the failed send does not count', async () => {
    const mobile = uniqueMobile();
    gateway.setMode('http-error');
    expect((await send(mobile, 'register')).body.errorCode).toBe(201103);
    gateway.setMode('refuse');
    expect((await send(mobile, 'register')).body.errorCode).toBe(201103);
    gateway.setMode('ok');
    const count = await database.db.selectFrom('platform.verify_codes').select((eb) => eb.fn.countAll<number>().as('n')).where('mobile', '=', mobile).executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(0);
    expect((await send(mobile, 'register')).body.successful).toBe(true);
  });

  it('refuses a fixed code when a real provider is configured', () => {
    expect(() =>
      createVerifyCodeService({ db: database.db, sms: createHttpSmsSender('http://127.0.0.1:1/', undefined), fixedCode: '123456', log: t.app.log }),
    ).toThrow(/TRITIUM_FIXED_VERIFY_CODE/);
  });

  it('sends sign-in and reset codes to registered numbers only (200504)', async () => {
    const mobile = uniqueMobile();
    expect((await send(mobile, 'login')).body.errorCode).toBe(200504);
    expect((await send(mobile, 'reset')).body.errorCode).toBe(200504);
    expect(gateway.received.some((m) => m.to === mobile)).toBe(false);
  });
});
