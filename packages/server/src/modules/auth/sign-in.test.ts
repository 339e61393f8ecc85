import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, FIXED_CODE, forgetRecentCodes, registerPerson, uniqueMobile, type TestApp } from '../../../test/helpers.ts';
import { engineDb } from '../../db/database.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const login = (mobile: string, password: string, engineCode?: string) =>
  call(t.app, 'POST', '/v1/login/mobile/password', { body: { mobile, password, ...(engineCode ? { engineCode } : {}) } });

async function codeLogin(mobile: string, code = FIXED_CODE) {
  await forgetRecentCodes(t.database, mobile);
  await call(t.app, 'POST', '/v1/captcha/verifycode/send', { body: { mobile, scene: 'login' } });
  return call(t.app, 'GET', '/v1/login/mobile/verifycode', { query: { mobile, code } });
}

describe('password sign-in', () => {
  it('signs in with the right password and starts in the engine', async () => {
    const p = await registerPerson(t.app);
    const res = await login(p.mobile, p.password);
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ successful: true, data: { engineCode: p.engineCode, authType: 1, expiresIn: 48 * 3600 } });
    expect(res.body).not.toHaveProperty('errorCode');
    const info = await call(t.app, 'GET', '/v1/user/info', { token: res.body.data.accessToken, engineCode: p.engineCode });
    expect(info.body.data.user.name).toBe('张三');
  });

  it('answers 200501 for an unknown mobile number', async () => {
    const res = await login(uniqueMobile(), 'Passw0rd1');
    expect(res.body).toMatchObject({ successful: false, errorCode: 200501, errorType: 'BIZ' });
  });

  it('answers 201201 for a wrong password, counting down, then locks with 201202', async () => {
    const p = await registerPerson(t.app);
    for (let i = 1; i <= 4; i++) {
      const res = await login(p.mobile, 'Wrong0pass');
      expect(res.body.errorCode).toBe(201201);
      expect(res.body.detail.remainingAttempts).toBe(5 - i);
    }
    expect((await login(p.mobile, 'Wrong0pass')).body.errorCode).toBe(201202);
    // Locked: even the right password is refused until the lock ends.
    expect((await login(p.mobile, p.password)).body.errorCode).toBe(201202);
    // A code sign-in proves the number and lifts the lock.
    expect((await codeLogin(p.mobile)).body.successful).toBe(true);
    expect((await login(p.mobile, p.password)).body.successful).toBe(true);
  });

  it('refuses a disabled account with 200502', async () => {
    const p = await registerPerson(t.app);
    await t.database.db.updateTable('platform.accounts').set({ state: 'disabled' }).where('mobile', '=', p.mobile).execute();
    expect((await login(p.mobile, p.password)).body.errorCode).toBe(200502);
  });

  it('refuses a user disabled in their only engine with 200502', async () => {
    const p = await registerPerson(t.app);
    await engineDb(t.database.db, p.engineCode).updateTable('org_users').set({ state: 'disabled' }).execute();
    expect((await login(p.mobile, p.password)).body.errorCode).toBe(200502);
  });

  it.each([
    ['disabled', 200401],
    ['migrating', 200402],
    ['archived', 200403],
    ['allocating', 200404],
  ] as const)('refuses an engine that is %s with %i', async (state, code) => {
    const p = await registerPerson(t.app);
    await t.database.db.updateTable('platform.engines').set({ state }).where('engine_code', '=', p.engineCode).execute();
    expect((await login(p.mobile, p.password)).body.errorCode).toBe(code);
  });

  it('starts in another usable engine when the last one is disabled', async () => {
    const p = await registerPerson(t.app);
    const second = await call(t.app, 'POST', '/v1/register/engine', { token: p.token, body: { engineName: '第二家公司' } });
    const secondCode = second.body.data.engineCode;
    await t.database.db.updateTable('platform.engines').set({ state: 'disabled' }).where('engine_code', '=', secondCode).execute();
    const res = await login(p.mobile, p.password);
    expect(res.body.data.engineCode).toBe(p.engineCode);
    // Asking for the disabled engine by name gets its code.
    expect((await login(p.mobile, p.password, secondCode)).body.errorCode).toBe(200401);
  });

  it('answers 200603 for an engine the account has not joined and 200601 for none at all', async () => {
    const a = await registerPerson(t.app);
    const b = await registerPerson(t.app);
    expect((await login(a.mobile, a.password, b.engineCode)).body.errorCode).toBe(200603);
    expect((await login(a.mobile, a.password, 'zzzz9999')).body.errorCode).toBe(200601);
  });

  it('serves the same call at /v1/login/tokens/password', async () => {
    const p = await registerPerson(t.app);
    const res = await call(t.app, 'POST', '/v1/login/tokens/password', { body: { mobile: p.mobile, password: p.password } });
    expect(res.body.successful).toBe(true);
  });
});

describe('verification-code sign-in', () => {
  it('signs in with a valid code once; the same code cannot be used again', async () => {
    const p = await registerPerson(t.app);
    const first = await codeLogin(p.mobile);
    expect(first.body).toMatchObject({ successful: true, data: { engineCode: p.engineCode } });
    const again = await call(t.app, 'GET', '/v1/login/mobile/verifycode', { query: { mobile: p.mobile, code: FIXED_CODE } });
    expect(again.body.errorCode).toBe(201101);
  });

  it('answers 201101 for a wrong code and 200504 for an unregistered number', async () => {
    const p = await registerPerson(t.app);
    expect((await codeLogin(p.mobile, '000000')).body.errorCode).toBe(201101);
    expect((await codeLogin(uniqueMobile())).body.errorCode).toBe(200504);
  });

  it('stops accepting a code after five wrong tries', async () => {
    const p = await registerPerson(t.app);
    await forgetRecentCodes(t.database, p.mobile);
    await call(t.app, 'POST', '/v1/captcha/verifycode/send', { body: { mobile: p.mobile, scene: 'login' } });
    for (let i = 0; i < 5; i++) {
      const res = await call(t.app, 'GET', '/v1/login/mobile/verifycode', { query: { mobile: p.mobile, code: '111111' } });
      expect(res.body.errorCode).toBe(201101);
    }
    const right = await call(t.app, 'GET', '/v1/login/mobile/verifycode', { query: { mobile: p.mobile, code: FIXED_CODE } });
    expect(right.body.errorCode).toBe(201101);
  });

  it('refuses a code sent for another scene', async () => {
    const p = await registerPerson(t.app);
    await forgetRecentCodes(t.database, p.mobile);
    await call(t.app, 'POST', '/v1/captcha/verifycode/send', { body: { mobile: p.mobile, scene: 'reset' } });
    const res = await call(t.app, 'GET', '/v1/login/mobile/verifycode', { query: { mobile: p.mobile, code: FIXED_CODE } });
    expect(res.body.errorCode).toBe(201101);
  });

  it('refuses an expired code', async () => {
    const p = await registerPerson(t.app);
    await forgetRecentCodes(t.database, p.mobile);
    await call(t.app, 'POST', '/v1/captcha/verifycode/send', { body: { mobile: p.mobile, scene: 'login' } });
    await t.database.db.updateTable('platform.verify_codes').set({ expires_at: new Date(Date.now() - 1000) }).where('mobile', '=', p.mobile).execute();
    const res = await call(t.app, 'GET', '/v1/login/mobile/verifycode', { query: { mobile: p.mobile, code: FIXED_CODE } });
    expect(res.body.errorCode).toBe(201101);
  });
});

describe('password reset', () => {
  it('sets a new password, refuses the old one and revokes earlier tokens', async () => {
    const p = await registerPerson(t.app);
    await forgetRecentCodes(t.database, p.mobile);
    await call(t.app, 'POST', '/v1/captcha/verifycode/send', { body: { mobile: p.mobile, scene: 'reset' } });
    const reset = await call(t.app, 'PUT', '/v1/login/password/reset', { body: { mobile: p.mobile, code: FIXED_CODE, password: 'NewPassw0rd' } });
    expect(reset.body).toEqual({ successful: true, data: {} });
    expect((await login(p.mobile, p.password)).body.errorCode).toBe(201201);
    const fresh = await login(p.mobile, 'NewPassw0rd');
    expect(fresh.body.successful).toBe(true);
    const old = await call(t.app, 'GET', '/v1/user/info', { token: p.token, engineCode: p.engineCode });
    expect(old.status).toBe(401);
    expect(old.body.errorCode).toBe(200201);
    const now = await call(t.app, 'GET', '/v1/user/info', { token: fresh.body.data.accessToken, engineCode: p.engineCode });
    expect(now.body.successful).toBe(true);
  });

  it('refuses a weak new password with 777 and changes nothing', async () => {
    const p = await registerPerson(t.app);
    const res = await call(t.app, 'PUT', '/v1/login/password/reset', { body: { mobile: p.mobile, code: FIXED_CODE, password: '12345678' } });
    expect(res.body.errorCode).toBe(777);
    expect(res.body.detail.issues[0].path).toBe('password');
    expect((await login(p.mobile, p.password)).body.successful).toBe(true);
  });

  it('answers 200504 for an unregistered number', async () => {
    const res = await call(t.app, 'PUT', '/v1/login/password/reset', { body: { mobile: uniqueMobile(), code: FIXED_CODE, password: 'NewPassw0rd' } });
    expect(res.body.errorCode).toBe(200504);
  });
});
