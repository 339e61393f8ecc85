import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, registerPerson, type TestApp } from '../../test/helpers.ts';
import { engineDb } from '../db/database.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from '../config.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
});
afterAll(() => t.close());

const userInfo = (token: string | undefined, engineCode?: string) => call(t.app, 'GET', '/v1/user/info', { token, engineCode });

describe('tokens', () => {
  it('answers 401 / 200201 without a token or with a forged one', async () => {
    const none = await userInfo(undefined);
    expect(none.status).toBe(401);
    expect(none.body).toMatchObject({ successful: false, errorCode: 200201 });
    const p = await registerPerson(t.app);
    const forged = p.token.slice(0, -3) + (p.token.endsWith('AAA') ? 'BBB' : 'AAA');
    expect((await userInfo(forged, p.engineCode)).status).toBe(401);
    expect((await userInfo('not-a-jwt', p.engineCode)).body.errorCode).toBe(200201);
  });

  it('answers 401 / 200102 for an expired token', async () => {
    const p = await registerPerson(t.app);
    // A second app on the same database whose clock is 49 hours behind issues a token that is already expired now.
    const past = await buildApp({
      config: { ...loadConfig({}), rateLimit: false, jwtSecret: 'test-secret-0123456789abcdef' },
      db: t.database.db,
      logger: false,
      now: () => Date.now() - 49 * 3600_000,
    });
    const old = await past.extras.tokens.issue((await t.database.db.selectFrom('platform.accounts').select('id').where('mobile', '=', p.mobile).executeTakeFirstOrThrow()).id, 'user');
    await past.close();
    const res = await userInfo(old.accessToken, p.engineCode);
    expect(res.status).toBe(401);
    expect(res.body.errorCode).toBe(200102);
  });

  it('revokes the token on sign-out (GET /Login/Logout)', async () => {
    const p = await registerPerson(t.app);
    expect((await userInfo(p.token, p.engineCode)).status).toBe(200);
    const out = await call(t.app, 'GET', '/Login/Logout', { token: p.token });
    expect(out.body).toEqual({ successful: true, data: {} });
    const after = await userInfo(p.token, p.engineCode);
    expect(after.status).toBe(401);
    expect(after.body.errorCode).toBe(200201);
  });

  it('refreshes a token and revokes the one it replaces', async () => {
    const p = await registerPerson(t.app);
    const res = await call(t.app, 'GET', '/v1/token/refresh', { token: p.token });
    expect(res.body.data.expiresIn).toBe(48 * 3600);
    expect((await userInfo(res.body.data.accessToken, p.engineCode)).status).toBe(200);
    expect((await userInfo(p.token, p.engineCode)).status).toBe(401);
    expect((await call(t.app, 'GET', '/v1/token/refresh')).status).toBe(401);
  });
});

describe('engine access', () => {
  it('answers 403 when the EngineCode names an engine the user is not in', async () => {
    const a = await registerPerson(t.app);
    const b = await registerPerson(t.app);
    const res = await userInfo(a.token, b.engineCode);
    expect(res.status).toBe(403);
    expect(res.body).toMatchObject({ successful: false, errorCode: 100405 });
    const none = await userInfo(a.token, 'nosuch123');
    expect(none.status).toBe(403);
    expect(none.body.errorCode).toBe(200601);
  });

  it('uses the last engine when no EngineCode header is sent', async () => {
    const p = await registerPerson(t.app);
    const res = await userInfo(p.token);
    expect(res.body.data.currentEngine.engineCode).toBe(p.engineCode);
  });

  it('refuses a user at once when their engine or their user record is disabled', async () => {
    const p = await registerPerson(t.app);
    await t.database.db.updateTable('platform.engines').set({ state: 'archived' }).where('engine_code', '=', p.engineCode).execute();
    const archived = await userInfo(p.token, p.engineCode);
    expect(archived.status).toBe(403);
    expect(archived.body.errorCode).toBe(200403);
    await t.database.db.updateTable('platform.engines').set({ state: 'normal' }).where('engine_code', '=', p.engineCode).execute();
    await engineDb(t.database.db, p.engineCode).updateTable('org_users').set({ state: 'disabled' }).execute();
    const disabled = await userInfo(p.token, p.engineCode);
    expect(disabled.status).toBe(403);
    expect(disabled.body.errorCode).toBe(200502);
  });

  it('refuses a disabled account at once', async () => {
    const p = await registerPerson(t.app);
    await t.database.db.updateTable('platform.accounts').set({ state: 'disabled' }).where('mobile', '=', p.mobile).execute();
    const res = await call(t.app, 'GET', '/v1/engine/connected', { token: p.token });
    expect(res.status).toBe(403);
    expect(res.body.errorCode).toBe(200502);
  });

  it('answers 400001 when the engine licence has expired', async () => {
    const p = await registerPerson(t.app);
    await t.database.db.updateTable('platform.engines').set({ license_expires: new Date(Date.now() - 1000) }).where('engine_code', '=', p.engineCode).execute();
    const res = await userInfo(p.token, p.engineCode);
    expect(res.body.errorCode).toBe(400001);
  });
});

describe('guest sessions', () => {
  it('gives an Anonymous session that reads who it is and nothing else', async () => {
    const p = await registerPerson(t.app);
    const guest = await call(t.app, 'POST', '/v1/login/h3/guest', { body: { engineCode: p.engineCode } });
    expect(guest.body.data).toMatchObject({ engineCode: p.engineCode, authType: 4 });
    const info = await userInfo(guest.body.data.accessToken, p.engineCode);
    expect(info.body.data.user).toMatchObject({ authType: 4, isAdmin: false, accountId: null });
    const engines = await call(t.app, 'GET', '/v1/engine/connected', { token: guest.body.data.accessToken });
    expect(engines.status).toBe(403);
    const other = await registerPerson(t.app);
    expect((await userInfo(guest.body.data.accessToken, other.engineCode)).status).toBe(403);
  });

  it('answers 200601 for a guest of an unknown engine', async () => {
    const res = await call(t.app, 'POST', '/v1/login/h3/guest', { body: { engineCode: 'nosuch123' } });
    expect(res.body.errorCode).toBe(200601);
  });
});
