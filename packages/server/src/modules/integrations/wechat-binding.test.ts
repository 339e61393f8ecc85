// test-databases: both — the binding's row is decided by the identities' primary key, and the flow's claim by one update
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addMember, orgClient, type Person } from '../../../test/org-helpers.ts';
import { startFakeWechat, type FakeWechat } from '../../../test/wechat-fake.ts';
import { confirmScan } from '../../../test/qr-login-fake.ts';
import { engineDb } from '../../db/database.ts';

// A signed-in user binds their personal WeChat (decision 0090) against the local WeChat: the QR page of WeChat's
// website login sends the browser back to /entry/register/wechat, whose code binds that WeChat to the user who
// started the scan; one WeChat per user, one user per WeChat; unbinding removes only the binding.

describe('binding a personal WeChat to a signed-in account', () => {
  let t: TestApp;
  let admin: Person;
  let member: Awaited<ReturnType<typeof addMember>>;
  let wechat: FakeWechat;
  const bindings = () => engineDb(t.database.db, admin.engineCode).selectFrom('org_user_identities').select(['subject', 'user_id']).where('provider', '=', 'wechat').orderBy('subject').execute();

  /** Starts a binding as `person`, confirms on the phone as `openid`; answers the code and state WeChat sends back. */
  async function scanAs(person: Person, openid: string) {
    const started = await orgClient(t.app, person).post('/v1/account/wechat/binding/start', {});
    const page = new URL(started.redirectUrl as string);
    expect(Object.fromEntries(page.searchParams)).toMatchObject({ appid: wechat.appId, scope: 'snsapi_login', redirect_uri: 'http://localhost:80/entry/register/wechat' });
    // The browser opens WeChat's QR page, then the phone confirms.
    expect(await (await fetch(page)).text()).toContain('<svg');
    const back = new URL(await confirmScan(wechat.url, page.searchParams.get('state')!, openid));
    expect(back.pathname).toBe('/entry/register/wechat');
    return { code: back.searchParams.get('code')!, state: back.searchParams.get('state')! };
  }

  beforeAll(async () => {
    t = await createTestApp({ config: { workerMode: 'off' } });
    admin = await registerPerson(t.app, { userName: '微信管理员' });
    member = await addMember(t, admin, { name: '微信成员' });
    wechat = await startFakeWechat();
    wechat.people.push({ openid: 'o-a', unionid: 'u-a', nickname: '甲' }, { openid: 'o-b', unionid: 'u-b', nickname: '乙' });
  });
  afterAll(async () => {
    await wechat?.close();
    await t?.close();
  });

  it('answers 200901 until WeChat is set up; a signed-out caller is refused', async () => {
    expect((await orgClient(t.app, member).raw('POST', '/v1/account/wechat/binding/start', {})).body.errorCode).toBe(200901);
    await orgClient(t.app, admin).post('/v1/sysintergration/chat/setting', { provider: 'wechat', enabled: true, baseUrl: wechat.url, appKey: wechat.appId, appSecret: wechat.appSecret, corpId: '', agentId: '' });
    expect(await orgClient(t.app, member).get('/v1/account/wechat/binding')).toEqual({ bound: false, boundTime: null });
    const anonymous = await t.app.inject({ method: 'POST', url: '/v1/account/wechat/binding/start', payload: {} });
    expect(anonymous.json().successful).toBe(false);
  });

  it('binds the scanned WeChat to the user who started it; the state is used once and only by that user', async () => {
    const answer = await scanAs(member, 'o-a');
    // Another signed-in user cannot use this user's scan.
    expect((await orgClient(t.app, admin).raw('POST', '/v1/account/wechat/binding', answer)).body.errorCode).toBe(200702);
    const [code2] = [wechat.codeFor('o-a')];
    // The state was claimed by the refused attempt: a fresh scan is needed.
    expect((await orgClient(t.app, member).raw('POST', '/v1/account/wechat/binding', { ...answer, code: code2 })).body.errorCode).toBe(200702);
    const bound = await orgClient(t.app, member).post('/v1/account/wechat/binding', await scanAs(member, 'o-a'));
    expect(bound).toMatchObject({ bound: true });
    expect(await bindings()).toEqual([{ subject: 'u-a', user_id: member.userId }]);
    // The same WeChat again: nothing changes.
    expect(await orgClient(t.app, member).post('/v1/account/wechat/binding', await scanAs(member, 'o-a'))).toMatchObject({ bound: true });
  });

  it('refuses a second WeChat for the user (206001) and a WeChat bound to another user (206002), binding nothing', async () => {
    expect((await orgClient(t.app, member).raw('POST', '/v1/account/wechat/binding', await scanAs(member, 'o-b'))).body.errorCode).toBe(206001);
    const elsewhere = await orgClient(t.app, admin).raw('POST', '/v1/account/wechat/binding', await scanAs(admin, 'o-a'));
    expect(elsewhere.body).toMatchObject({ errorCode: 206002, errorMessage: expect.stringContaining('已绑定本组织的其他用户') });
    expect(await bindings()).toEqual([{ subject: 'u-a', user_id: member.userId }]);
    // A code WeChat does not know: the scan failed, with WeChat's code.
    const state = (await scanAs(admin, 'o-b')).state;
    expect((await orgClient(t.app, admin).raw('POST', '/v1/account/wechat/binding', { code: 'unknown', state })).body).toMatchObject({ errorCode: 200701, detail: { platformCode: 40029 } });
  });

  it('unbinds: the WeChat may then be bound to another user; unbinding again is refused (206003)', async () => {
    expect(await orgClient(t.app, member).post('/v1/account/wechat/binding/remove', {})).toEqual({ bound: false, boundTime: null });
    const again = await orgClient(t.app, member).raw('POST', '/v1/account/wechat/binding/remove', {});
    expect(again.body).toMatchObject({ errorCode: 206003, errorMessage: expect.stringContaining('尚未绑定微信') });
    expect(await orgClient(t.app, admin).post('/v1/account/wechat/binding', await scanAs(admin, 'o-a'))).toMatchObject({ bound: true });
    const adminUser = await engineDb(t.database.db, admin.engineCode).selectFrom('org_users').select('id').where('mobile', '=', admin.mobile).executeTakeFirstOrThrow();
    expect(await bindings()).toEqual([{ subject: 'u-a', user_id: adminUser.id }]);
  });

  it('two binds of one user with two WeChats at the same moment: one is bound, the other refused (206001)', async () => {
    wechat.people.push({ openid: 'o-c', unionid: 'u-c', nickname: '丙' });
    const answers = [await scanAs(member, 'o-b'), await scanAs(member, 'o-c')];
    // WeChat answers both at once, so that both binds check the user's bindings before either writes.
    wechat.holdTogether('/sns/userinfo', 2);
    const results = await Promise.all(answers.map((answer) => orgClient(t.app, member).raw('POST', '/v1/account/wechat/binding', answer)));
    expect(results.map((r) => r.body.successful ?? false).sort()).toEqual([false, true]);
    expect(results.find((r) => !r.body.successful)!.body.errorCode).toBe(206001);
    const own = (await bindings()).filter((b) => b.user_id === member.userId);
    expect(own).toHaveLength(1);
  });
});
