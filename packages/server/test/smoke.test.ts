import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, registerPerson, type TestApp } from './helpers.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

describe('smoke', () => {
  it('registers and reads user info', async () => {
    const p = await registerPerson(t.app);
    const info = await call(t.app, 'GET', '/v1/user/info', { token: p.token, engineCode: p.engineCode });
    expect(info.body.successful).toBe(true);
    expect(info.body.data.user.authType).toBe(1);
  });
});
