// test-databases: pglite — the flows and bindings are those of chat-scan.test.ts (both databases); here WeChat's protocol
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, FIXED_CODE, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addMember, orgClient, type Person } from '../../../test/org-helpers.ts';
import { startFakeWechat, type FakeWechat } from '../../../test/wechat-fake.ts';
import { confirmScan } from '../../../test/qr-login-fake.ts';
import { engineDb } from '../../db/database.ts';

// WeChat scan sign-in and binding (decision 0078) against a local WeChat speaking its website login: the QR page
// (/connect/qrconnect), /sns/oauth2/access_token and /sns/userinfo with WeChat's answers and error codes. WeChat gives
// no number: the first scan binds the person to the engine's user whose number they prove, later scans sign in.

describe('WeChat scan sign-in and binding', () => {
  let t: TestApp;
  let admin: Person;
  let wechat: FakeWechat;
  const scan = (query: Record<string, string>) => call(t.app, 'GET', '/v1/login/wechat/scan', { query });
  const post = (url: string, body: unknown) => call(t.app, 'POST', url, { body });
  const save = (over: Record<string, unknown> = {}) =>
    orgClient(t.app, admin).post('/v1/sysintergration/chat/setting', { provider: 'wechat', enabled: true, baseUrl: wechat.url, appKey: wechat.appId, appSecret: wechat.appSecret, corpId: '', agentId: '', ...over });

  /** Opens WeChat's QR page as the browser would; the phone confirms for `openid`; answers where WeChat sends back. */
  async function scanAs(openid: string) {
    const started = await scan({ engineCode: admin.engineCode });
    expect(started.body.successful, JSON.stringify(started.body)).toBe(true);
    const page = new URL(started.body.data.redirectUrl as string);
    expect(await (await fetch(page)).text()).toContain('<svg');
    return new URL(await confirmScan(wechat.url, page.searchParams.get('state')!, openid));
  }
  const complete = (back: URL) => scan({ code: back.searchParams.get('code')!, state: back.searchParams.get('state')! });

  beforeAll(async () => {
    t = await createTestApp({ config: { workerMode: 'off' } });
    admin = await registerPerson(t.app, { userName: '微信管理员' });
    wechat = await startFakeWechat();
  });
  afterAll(async () => {
    await wechat?.close();
    await t?.close();
  });

  it('answers 200901 until the engine sets WeChat up; the QR page is WeChat\'s website login with the AppID', async () => {
    expect((await scan({ engineCode: admin.engineCode })).body.errorCode).toBe(200901);
    const saved = await save();
    // Website login by default; the push address is the official account's (decision 0097), unused by this method.
    expect(saved).toMatchObject({ provider: 'wechat', wechatMethod: 'website', hasAppSecret: true, callbackUrl: `http://localhost:80/v1/sysintergration/wechat/push/${admin.engineCode}`, hasCallbackKeys: false });
    expect(JSON.stringify(saved)).not.toContain(wechat.appSecret);
    const started = await scan({ engineCode: admin.engineCode });
    const page = new URL(started.body.data.redirectUrl as string);
    expect(page.pathname).toBe('/connect/qrconnect');
    expect(page.hash).toBe('#wechat_redirect');
    expect(Object.fromEntries(page.searchParams)).toMatchObject({ appid: wechat.appId, response_type: 'code', scope: 'snsapi_login', redirect_uri: 'http://localhost:80/entry/login/wechat' });
    // WeChat has no directory to sync.
    expect((await orgClient(t.app, admin).raw('POST', '/v1/sysintergration/directory/preview', { provider: 'wechat' })).body.errorCode).toBe(200901);
  });

  it('the first scan binds the person by a proved number, later scans sign in at once', async () => {
    const member = await addMember(t, admin, { name: '微信成员' });
    wechat.people.push({ openid: 'o-member', unionid: 'u-member', nickname: '小微' });
    const first = await complete(await scanAs('o-member'));
    expect(first.body.errorCode).toBe(200504);
    expect(first.body.detail).toMatchObject({ provider: 'wechat', name: '小微' });
    const securityToken = first.body.detail.securityToken as string;
    await post('/v1/account/sendmobileverifycode', { securityToken, mobile: member.mobile });
    const bound = await post('/v1/account/bindmobile', { securityToken, mobile: member.mobile, code: FIXED_CODE });
    expect(bound.body.successful, JSON.stringify(bound.body)).toBe(true);
    expect(bound.body.data.engineCode).toBe(admin.engineCode);
    const identity = await engineDb(t.database.db, admin.engineCode).selectFrom('org_user_identities').select(['subject', 'user_id']).where('provider', '=', 'wechat').execute();
    // Bound by the unionid, which stays the same across the organisation's WeChat apps.
    expect(identity).toEqual([{ subject: 'u-member', user_id: member.userId }]);

    const again = await complete(await scanAs('o-member'));
    expect(again.body.successful, JSON.stringify(again.body)).toBe(true);
    expect(again.body.data.engineCode).toBe(admin.engineCode);
  });

  it('a second WeChat cannot bind to a user who has one (206001) and nothing is bound', async () => {
    const member = (await engineDb(t.database.db, admin.engineCode).selectFrom('org_users').select(['id', 'mobile']).where('name', '=', '微信成员').executeTakeFirstOrThrow());
    wechat.people.push({ openid: 'o-other', unionid: 'u-other', nickname: '另一个微信' });
    const first = await complete(await scanAs('o-other'));
    const securityToken = first.body.detail.securityToken as string;
    // The member's last code was asked for a moment ago: as if a minute had passed (the resend interval).
    await t.database.db.updateTable('platform.verify_codes').set({ created_time: new Date(Date.now() - 120_000) }).where('mobile', '=', member.mobile).execute();
    expect((await post('/v1/account/sendmobileverifycode', { securityToken, mobile: member.mobile })).body.successful).toBe(true);
    const refused = await post('/v1/account/bindmobile', { securityToken, mobile: member.mobile, code: FIXED_CODE });
    expect(refused.body.errorCode).toBe(206001);
    const subjects = await engineDb(t.database.db, admin.engineCode).selectFrom('org_user_identities').select('subject').where('provider', '=', 'wechat').execute();
    expect(subjects.map((s) => s.subject)).toEqual(['u-member']);
  });

  it('answers WeChat\'s refusals with the catalogue: a used code, a wrong AppSecret, WeChat unreachable', async () => {
    const back = await scanAs('o-member');
    expect((await complete(back)).body.successful).toBe(true);
    // The same code again at a fresh flow: WeChat says 40163 (code been used).
    const fresh = await scanAs('o-member');
    const used = await scan({ code: back.searchParams.get('code')!, state: fresh.searchParams.get('state')! });
    expect(used.body.errorCode).toBe(200701);
    expect(used.body.detail.platformCode).toBe(40163);

    await save({ appSecret: 'wrong-secret' });
    try {
      const wrong = await complete(await scanAs('o-member'));
      expect(wrong.body.errorCode).toBe(207001);
      expect(wrong.body.detail.platformCode).toBe(40125);
    } finally {
      await save();
    }
    const started = await scanAs('o-member');
    await save({ baseUrl: 'http://127.0.0.1:9' });
    try {
      expect((await complete(started)).body.errorCode).toBe(200902);
    } finally {
      await save();
    }
  });
});
