import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, uniqueMobile, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ config: { rateLimit: true } });
});
afterAll(() => t.close());

describe('rate limits', () => {
  it('limits code sending per client to 10 a minute (429, 100429)', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i++) statuses.push((await call(t.app, 'POST', '/v1/captcha/verifycode/send', { body: { mobile: uniqueMobile(), scene: 'register' } })).status);
    expect(statuses.slice(0, 10).every((s) => s === 200)).toBe(true);
    const limited = await call(t.app, 'POST', '/v1/captcha/verifycode/send', { body: { mobile: uniqueMobile(), scene: 'register' } });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ successful: false, errorCode: 100429 });
  });

  it('limits password sign-ins per client to 30 a minute', async () => {
    let last = 0;
    for (let i = 0; i < 31; i++) last = (await call(t.app, 'POST', '/v1/login/mobile/password', { body: { mobile: uniqueMobile(), password: 'Passw0rd1' } })).status;
    expect(last).toBe(429);
  });
});
