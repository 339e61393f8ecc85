import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { orgClient, type Person } from '../../../test/org-helpers.ts';
import { startOidcIssuer, type OidcIssuer } from '../../../test/oidc-issuer.ts';
import { fillDirectory, startFakeDingTalk, type FakeDingTalk } from '../../../test/dingtalk-fake.ts';

// The chat platforms' base URLs and the OpenID issuer are an engine administrator's settings: they go out through the
// outbound fetch (decisions 0072, 0077). A deployment that does not allow private addresses (the default) refuses a
// platform or issuer on its own network before any request leaves; the tests' app (private allowed) reaches the same
// local fakes, so the refusal is the guard's and nothing else's.

const CALLBACK = 'http://tritium.test/entry/login/sso/callback';

describe('chat platforms and the OpenID issuer go out through the outbound guard', () => {
  let t: TestApp;
  let strict: TestApp;
  let admin: Person;
  let ding: FakeDingTalk;
  let issuer: OidcIssuer;

  beforeAll(async () => {
    t = await createTestApp({ config: { workerMode: 'off' } });
    // A second process on the same database, configured as a deployment is by default (TRITIUM_OUTBOUND_PRIVATE unset).
    strict = await createTestApp({ database: t.database, config: { workerMode: 'off', outboundPrivate: false } });
    admin = await registerPerson(t.app, { userName: '出站管理员' });
    ding = await startFakeDingTalk();
    issuer = await startOidcIssuer({ redirectUris: [CALLBACK] });
    fillDirectory(ding, 2, 3, '169');
    await orgClient(t.app, admin).post('/v1/sysintergration/chat/setting', { provider: 'dingtalk', enabled: true, baseUrl: ding.url, appKey: ding.appKey, appSecret: ding.appSecret, corpId: 'c', agentId: '1' });
    await orgClient(t.app, admin).post('/v1/sysintergration/sso/setting', {
      enabled: true, issuerUrl: issuer.url, clientId: issuer.clientId, clientSecret: issuer.clientSecret, scopes: 'profile', matchBy: 'mobile', claim: '', createUsers: false, callbackUrl: CALLBACK,
    });
  });
  afterAll(async () => {
    await ding?.close();
    await issuer?.close();
    await strict?.close();
    await t?.close();
  });

  it('a DingTalk base URL on the platform\'s own network: sign-in and sync answer "unreachable" and send nothing', async () => {
    const code = ding.authCodeFor('u0');
    ding.calls.clear();
    const refused = await call(strict.app, 'GET', '/v1/login/dingtalk/corp', { query: { engineCode: admin.engineCode, code } });
    expect(refused.body.errorCode).toBe(200902);
    expect(refused.body.detail.reason).toMatch(/own network/);
    const preview = await call(strict.app, 'POST', '/v1/sysintergration/directory/preview', { token: admin.token, engineCode: admin.engineCode, body: { provider: 'dingtalk' } });
    expect(preview.body.errorCode).toBe(200902);
    expect([...ding.calls.keys()]).toEqual([]);
    // The same settings from the app that allows private addresses reach the fake.
    const allowed = await call(t.app, 'POST', '/v1/sysintergration/directory/preview', { token: admin.token, engineCode: admin.engineCode, body: { provider: 'dingtalk' } });
    expect(allowed.body.successful, JSON.stringify(allowed.body)).toBe(true);
    expect(ding.calls.get('/gettoken')).toBe(1);
  });

  it('an OpenID issuer on the platform\'s own network: discovery is refused (208004)', async () => {
    const refused = await call(strict.app, 'GET', '/v1/login/sso', { query: { engineCode: admin.engineCode } });
    expect(refused.body.errorCode).toBe(208004);
    expect(refused.body.detail).toMatchObject({ step: 'discovery', reason: expect.stringMatching(/own network/) });
    const allowed = await call(t.app, 'GET', '/v1/login/sso', { query: { engineCode: admin.engineCode } });
    expect(allowed.body.successful, JSON.stringify(allowed.body)).toBe(true);
    expect(allowed.body.data.redirectUrl.startsWith(`${issuer.url}/`)).toBe(true);
  });
});
