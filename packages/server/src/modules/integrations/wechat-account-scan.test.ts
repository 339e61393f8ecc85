// test-databases: both — the scene is marked scanned by one conditional UPDATE of a jsonb payload and claimed by another
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, FIXED_CODE, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addMember, orgClient, type Person } from '../../../test/org-helpers.ts';
import { startFakeWechat, type FakeWechat } from '../../../test/wechat-fake.ts';
import { engineDb } from '../../db/database.ts';
import { pause, wakeScene } from './wechat-account-scan.ts';

// Sign-in by the engine's WeChat official account (decision 0097) against a local WeChat: the account's token, a
// temporary QR code with a one-use scene, the scan pushed to the engine's push address as WeChat signs it, and the
// browser that started the scan asking for the scene's state until it is signed in.

describe('WeChat official account scan sign-in', () => {
  let t: TestApp;
  let admin: Person;
  let wechat: FakeWechat;
  let origin: string;
  const scene = (query: Record<string, string>) => call(t.app, 'GET', '/v1/login/wechat/scene', { query });
  const save = (person: Person, over: Record<string, unknown> = {}) =>
    orgClient(t.app, person).post('/v1/sysintergration/chat/setting', {
      provider: 'wechat',
      enabled: true,
      wechatMethod: 'officialAccount',
      baseUrl: wechat.url,
      appKey: wechat.appId,
      appSecret: wechat.appSecret,
      corpId: '',
      agentId: '',
      callbackToken: wechat.account.token,
      callbackAesKey: wechat.account.aesKey,
      ...over,
    });

  /** The login page's start: the scene, the browser's key and the QR code's ticket. */
  async function start(engineCode = admin.engineCode, redirectUrl?: string) {
    const started = await call(t.app, 'GET', '/v1/login/wechat/scan', { query: { engineCode, ...(redirectUrl ? { redirectUrl } : {}) } });
    expect(started.body.successful, JSON.stringify(started.body)).toBe(true);
    const page = new URL(started.body.data.redirectUrl as string, 'http://site');
    expect(page.pathname).toBe('/entry/login/wechat');
    const sceneId = page.searchParams.get('scene')!;
    const key = started.body.data.browserKey as string;
    const waiting = await scene({ scene: sceneId, key });
    expect(waiting.body.data, JSON.stringify(waiting.body)).toMatchObject({ status: 'waiting' });
    const qr = new URL(waiting.body.data.qrUrl as string);
    return { scene: sceneId, key, ticket: qr.searchParams.get('ticket')!, qrUrl: qr };
  }

  beforeAll(async () => {
    t = await createTestApp({ config: { workerMode: 'off' } });
    origin = await t.app.listen({ port: 0, host: '127.0.0.1' });
    admin = await registerPerson(t.app, { userName: '公众号管理员' });
    wechat = await startFakeWechat();
    wechat.account.pushUrl = `${origin}/v1/sysintergration/wechat/push/${admin.engineCode}`;
  });
  afterAll(async () => {
    await wechat?.close();
    await t?.close();
  });

  it('keeps the account\'s secrets write-only, shows the push address and answers WeChat\'s URL check', async () => {
    // Not set up yet: the push address answers 200901 and the login page is told so.
    expect((await wechat.account.verify()).body).toContain('200901');
    const saved = await save(admin);
    expect(saved).toMatchObject({ provider: 'wechat', wechatMethod: 'officialAccount', hasAppSecret: true, hasCallbackKeys: true, hasCallbackAesKey: true });
    expect(saved.callbackUrl).toMatch(new RegExp(`/v1/sysintergration/wechat/push/${admin.engineCode}$`));
    for (const secret of [wechat.appSecret, wechat.account.token, wechat.account.aesKey]) expect(JSON.stringify(saved)).not.toContain(secret);
    const check = await wechat.account.verify();
    expect(check).toMatchObject({ status: 200, body: check.echostr });
    // A token that is not the account's rule, and an EncodingAESKey of the wrong form: the catalogue's 777, nothing saved.
    const bad = await orgClient(t.app, admin).raw('POST', '/v1/sysintergration/chat/setting', { provider: 'wechat', enabled: true, baseUrl: '', appKey: 'wx1', corpId: '', agentId: '', callbackToken: 'a b', callbackAesKey: 'short' });
    expect(bad.status).toBeLessThan(500);
    expect(bad.body.successful).toBe(false);
    expect((await orgClient(t.app, admin).get('/v1/sysintergration/chat/setting/load', { provider: 'wechat' })).appKey).toBe(wechat.appId);
  });

  it('the first scan binds the WeChat by a proved number; a later scan (as a new follower, safe mode) signs in at once', async () => {
    const member = await addMember(t, admin, { name: '公众号成员' });
    wechat.people.push({ openid: 'oa-member', unionid: 'u-oa-member', nickname: '' });
    const first = await start(admin.engineCode, '/workbench/app/Orders');
    // The QR image is WeChat's showqrcode of the ticket.
    expect(first.qrUrl.pathname).toBe('/cgi-bin/showqrcode');
    const image = await fetch(first.qrUrl);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(await wechat.account.scan(first.ticket, 'oa-member')).toEqual({ status: 200, body: 'success' });
    const unbound = await scene({ scene: first.scene, key: first.key });
    expect(unbound.body.errorCode).toBe(200504);
    const securityToken = unbound.body.detail.securityToken as string;
    await call(t.app, 'POST', '/v1/account/sendmobileverifycode', { body: { securityToken, mobile: member.mobile } });
    const bound = await call(t.app, 'POST', '/v1/account/bindmobile', { body: { securityToken, mobile: member.mobile, code: FIXED_CODE } });
    expect(bound.body.successful, JSON.stringify(bound.body)).toBe(true);
    const identities = await engineDb(t.database.db, admin.engineCode).selectFrom('org_user_identities').select(['subject', 'user_id']).where('provider', '=', 'wechat').execute();
    // Bound by the unionid user/info gives, the same as the website login's.
    expect(identities).toEqual([{ subject: 'u-oa-member', user_id: member.userId }]);

    const later = await start(admin.engineCode, '/workbench/app/Orders');
    expect(await wechat.account.scan(later.ticket, 'oa-member', { subscribe: true, safeMode: true })).toEqual({ status: 200, body: 'success' });
    // The page's long poll answers as soon as the push has marked the scene.
    const signedIn = await scene({ scene: later.scene, key: later.key, wait: '5' });
    expect(signedIn.body.data, JSON.stringify(signedIn.body)).toMatchObject({ status: 'signedIn', login: { engineCode: admin.engineCode, returnTo: '/workbench/app/Orders' } });
    const me = await call(t.app, 'GET', '/v1/user/info', { token: signedIn.body.data.login.accessToken, engineCode: admin.engineCode });
    expect(me.body.data.user.name).toBe('公众号成员');
    // Used once: asked again, the scene is refused.
    expect((await scene({ scene: later.scene, key: later.key })).body.errorCode).toBe(200702);
  });

  it('a push this process receives wakes a waiting long poll at once; a poll waiting when the scan comes signs in', async () => {
    // A minute's wait, far past the test's limit: only the wake can end it.
    const waiting = pause(t.database.db, 'scene-woken', 60_000);
    wakeScene(t.database.db, 'scene-woken');
    await waiting;

    wechat.people.push({ openid: 'oa-waiting', unionid: 'u-oa-member', nickname: '' });
    const started = await start(admin.engineCode, '/workbench');
    const polling = scene({ scene: started.scene, key: started.key, wait: '20' });
    expect(await wechat.account.scan(started.ticket, 'oa-waiting')).toEqual({ status: 200, body: 'success' });
    expect((await polling).body.data).toMatchObject({ status: 'signedIn', login: { engineCode: admin.engineCode } });
  });

  it('refuses a push with a wrong signature and changes nothing', async () => {
    const started = await start();
    const forged = await wechat.account.scan(started.ticket, 'oa-member', { wrongToken: true });
    expect(forged?.status).toBeLessThan(500);
    expect(forged?.body).toContain('200904');
    const safeForged = await wechat.account.scan(started.ticket, 'oa-member', { wrongToken: true, safeMode: true });
    expect(safeForged?.body).toContain('200904');
    expect((await scene({ scene: started.scene, key: started.key })).body.data.status).toBe('waiting');
  });

  it('another browser cannot use the scene; an expired scene is told so; a late push changes nothing', async () => {
    const started = await start();
    await wechat.account.scan(started.ticket, 'oa-member');
    const other = await scene({ scene: started.scene, key: 'not-the-browsers-key' });
    expect(other.body.errorCode).toBe(200702);
    // The other browser's try did not spend it: the browser that asked signs in.
    expect((await scene({ scene: started.scene, key: started.key })).body.data.status).toBe('signedIn');

    const late = await start();
    await t.database.db.updateTable('platform.sign_in_flows').set({ expires_at: new Date(Date.now() - 1000) }).where('state', '=', late.scene).execute();
    expect((await scene({ scene: late.scene, key: late.key })).body.errorCode).toBe(200703);
    expect(await wechat.account.scan(late.ticket, 'oa-member')).toEqual({ status: 200, body: 'success' });
    const row = await t.database.db.selectFrom('platform.sign_in_flows').select('payload').where('state', '=', late.scene).executeTakeFirstOrThrow();
    expect((row.payload as { openid?: string }).openid).toBeUndefined();
    expect((await scene({ scene: 'no-such-scene', key: late.key })).body.errorCode).toBe(200702);
  });

  it('fetches the account token again once when WeChat says it is invalid (40001) or expired (42001)', async () => {
    const tokensBefore = wechat.calls.get('/cgi-bin/token') ?? 0;
    wechat.account.invalidateTokens(40001);
    const started = await start();
    expect(wechat.calls.get('/cgi-bin/token')).toBe(tokensBefore + 1);
    await wechat.account.scan(started.ticket, 'oa-member');
    wechat.account.invalidateTokens(42001);
    expect((await scene({ scene: started.scene, key: started.key })).body.data.status).toBe('signedIn');
    expect(wechat.calls.get('/cgi-bin/token')).toBe(tokensBefore + 2);
  });

  it('a scene of one engine never signs into another', async () => {
    const other = await registerPerson(t.app, { userName: '另一组织管理员', engineName: '另一家公司' });
    await save(other);
    const started = await start(admin.engineCode);
    // The scan arrives at the other engine's push address, signed with the same account's token: it is not that
    // engine's scene, so nothing is marked.
    wechat.account.pushUrl = `${origin}/v1/sysintergration/wechat/push/${other.engineCode}`;
    try {
      expect(await wechat.account.scan(started.ticket, 'oa-member')).toEqual({ status: 200, body: 'success' });
    } finally {
      wechat.account.pushUrl = `${origin}/v1/sysintergration/wechat/push/${admin.engineCode}`;
    }
    expect((await scene({ scene: started.scene, key: started.key })).body.data.status).toBe('waiting');
    await wechat.account.scan(started.ticket, 'oa-member');
    const signedIn = await scene({ scene: started.scene, key: started.key });
    expect(signedIn.body.data.login.engineCode).toBe(admin.engineCode);
  });

  it('answers bad input and WeChat\'s refusals with the catalogue, never a 5xx', async () => {
    for (const query of [{}, { scene: 'x' }, { scene: 'x', key: 'k', wait: '99' }, { scene: 'x'.repeat(65), key: 'k' }]) {
      const res = await scene(query as Record<string, string>);
      expect(res.status, JSON.stringify(query)).toBeLessThan(500);
      expect(res.body.successful).toBe(false);
    }
    const garbage = await t.app.inject({ method: 'POST', url: `/v1/sysintergration/wechat/push/${admin.engineCode}?signature=x&timestamp=1&nonce=2`, headers: { 'content-type': 'text/xml' }, payload: '<xml><unclosed>' });
    expect(garbage.statusCode).toBeLessThan(500);
    expect(garbage.json().errorCode).toBe(200904);
    const unknownEngine = await t.app.inject({ method: 'GET', url: '/v1/sysintergration/wechat/push/NoSuchEngine?signature=x&timestamp=1&nonce=2&echostr=e' });
    expect(unknownEngine.json().errorCode).toBe(200601);

    await save(admin, { appSecret: 'wrong-secret' });
    try {
      const wrong = await call(t.app, 'GET', '/v1/login/wechat/scan', { query: { engineCode: admin.engineCode } });
      expect(wrong.body.errorCode).toBe(207001);
      expect(wrong.body.detail.platformCode).toBe(40125);
    } finally {
      await save(admin);
    }
    // A follower WeChat does not know (user/info: 40003): the scan failed, said plainly.
    const started = await start();
    await wechat.account.scan(started.ticket, 'o-unknown');
    const failed = await scene({ scene: started.scene, key: started.key });
    expect(failed.body.errorCode).toBe(200701);
    expect(failed.body.detail.platformCode).toBe(40003);
  });

  it('a signed-in member binds their WeChat by the account\'s code, then signs in by scanning; no one else can use the scene', async () => {
    const member = await addMember(t, admin, { name: '扫码绑定成员' });
    wechat.people.push({ openid: 'oa-binder', unionid: '', nickname: '' });
    const started = await orgClient(t.app, member).post('/v1/account/wechat/binding/start', {});
    const page = new URL(started.redirectUrl as string, 'http://site');
    expect(page.pathname).toBe('/entry/register/wechat');
    const bindScene = page.searchParams.get('scene')!;
    const waiting = await orgClient(t.app, member).get('/v1/account/wechat/binding/scene', { scene: bindScene });
    expect(waiting.status).toBe('waiting');
    // Another user of the engine, and the sign-in's poll, cannot take it.
    expect((await orgClient(t.app, admin).raw('GET', '/v1/account/wechat/binding/scene', { scene: bindScene })).body.errorCode).toBe(200702);
    expect((await scene({ scene: bindScene, key: 'any' })).body.errorCode).toBe(200702);
    await wechat.account.scan(new URL(waiting.qrUrl as string).searchParams.get('ticket')!, 'oa-binder');
    const bound = await orgClient(t.app, member).get('/v1/account/wechat/binding/scene', { scene: bindScene, wait: '3' });
    expect(bound).toMatchObject({ status: 'bound', binding: { bound: true } });
    // No unionid (the account is not bound to an open platform): the openid is the binding.
    const identity = await engineDb(t.database.db, admin.engineCode).selectFrom('org_user_identities').select('user_id').where('provider', '=', 'wechat').where('subject', '=', 'oa-binder').execute();
    expect(identity).toEqual([{ user_id: member.userId }]);
    expect((await orgClient(t.app, member).raw('GET', '/v1/account/wechat/binding/scene', { scene: bindScene })).body.errorCode).toBe(200702);

    const signIn = await start();
    await wechat.account.scan(signIn.ticket, 'oa-binder');
    const signedIn = await scene({ scene: signIn.scene, key: signIn.key });
    expect(signedIn.body.data, JSON.stringify(signedIn.body)).toMatchObject({ status: 'signedIn', login: { engineCode: admin.engineCode } });
  });
});
