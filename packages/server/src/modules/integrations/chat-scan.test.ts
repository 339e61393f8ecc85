// test-databases: both — one-use flow states claimed by one UPDATE … RETURNING; the shortcuts' joined list
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, FIXED_CODE, registerPerson, type TestApp } from '../../../test/helpers.ts';
import { addMember, orgClient, type Person } from '../../../test/org-helpers.ts';
import { createApp } from '../../../test/node-helpers.ts';
import { startFakeDingTalk, type FakeDingTalk } from '../../../test/dingtalk-fake.ts';
import { confirmScan } from '../../../test/qr-login-fake.ts';

// QR login through DingTalk against a local DingTalk server: the login page asks for the platform's QR page, the
// platform sends the browser back with a one-use code and the state, which completes the sign-in once. And the
// DingTalk shortcuts of the console.

describe('DingTalk QR login and shortcuts', () => {
  let t: TestApp;
  let admin: Person;
  let ding: FakeDingTalk;

  const scan = (query: Record<string, string>) => call(t.app, 'GET', '/v1/login/dingtalk/scan', { query });
  /** The platform's QR page the login page opens (opened, as the browser would), and its state. */
  async function startScan(redirectUrl?: string) {
    const res = await scan({ engineCode: admin.engineCode, ...(redirectUrl ? { redirectUrl } : {}) });
    expect(res.body.successful, JSON.stringify(res.body)).toBe(true);
    const page = new URL(res.body.data.redirectUrl as string);
    // The browser opens the platform's page, which shows the QR code.
    const html = await (await fetch(page)).text();
    expect(html).toContain('<svg');
    return { page, state: page.searchParams.get('state')! };
  }
  /** The phone confirms; the platform's page would now send the browser here. */
  async function scanned(state: string, userid: string) {
    return new URL(await confirmScan(ding.url, state, userid));
  }

  beforeAll(async () => {
    t = await createTestApp({ config: { workerMode: 'off' } });
    admin = await registerPerson(t.app, { userName: '扫码管理员' });
    ding = await startFakeDingTalk();
    await orgClient(t.app, admin).post('/v1/sysintergration/chat/setting', { provider: 'dingtalk', enabled: true, baseUrl: ding.url, appKey: ding.appKey, appSecret: ding.appSecret, corpId: 'dingcorp01', agentId: '3001' });
  });
  afterAll(async () => {
    await ding?.close();
    await t?.close();
  });

  it('a member scans, confirms on the phone and is signed in to the engine, once', async () => {
    const member = await addMember(t, admin, { name: '扫码成员' });
    ding.users.push({ userid: 'scan-m1', unionid: 'union-scan-m1', name: '扫码成员', mobile: member.mobile, dept_id_list: [1], leader_in_dept: [], active: true });
    const { page, state } = await startScan('/workbench/app/X1?tab=2');
    // DingTalk's OAuth2 login page with the app's AppKey and this site's page of DingTalk as the callback.
    expect(page.pathname).toBe('/oauth2/auth');
    expect(Object.fromEntries(page.searchParams)).toMatchObject({ client_id: ding.appKey, response_type: 'code', scope: 'openid', redirect_uri: 'http://localhost:80/entry/login/dingtalk' });

    const back = await scanned(state, 'scan-m1');
    expect(back.pathname).toBe('/entry/login/dingtalk');
    const done = await scan({ authCode: back.searchParams.get('authCode')!, state: back.searchParams.get('state')! });
    expect(done.body.successful, JSON.stringify(done.body)).toBe(true);
    expect(done.body.data).toMatchObject({ engineCode: admin.engineCode, returnTo: '/workbench/app/X1?tab=2' });
    expect((await call(t.app, 'GET', '/v1/user/info', { token: done.body.data.accessToken, engineCode: admin.engineCode })).status).toBe(200);

    // The same answer a second time (a replayed state) is refused, whatever the code.
    const again = await scan({ authCode: ding.authCodeFor('scan-m1'), state });
    expect(again.body.errorCode).toBe(200702);
  });

  it('refuses an unknown state, an expired one, a used code, a person outside the organisation and a foreign redirect', async () => {
    expect((await scan({ authCode: 'x', state: 'no-such-state' })).body.errorCode).toBe(200702);

    const late = await startScan();
    await t.database.db.updateTable('platform.sign_in_flows').set({ expires_at: new Date(Date.now() - 1000) }).where('state', '=', late.state).execute();
    const lateBack = await scanned(late.state, 'scan-m1');
    expect((await scan({ authCode: lateBack.searchParams.get('authCode')!, state: late.state })).body.errorCode).toBe(200703);

    // A code DingTalk does not know (or one used already): the scan failed, with DingTalk's reason in the detail.
    const bad = await startScan();
    const used = await scan({ authCode: 'not-a-code', state: bad.state });
    expect(used.body.errorCode).toBe(200701);
    expect(used.body.detail?.platformCode).toBe('InvalidAuthCode');

    // Someone with DingTalk but not in this organisation's DingTalk.
    const outsider = await startScan();
    const outsiderBack = await scanned(outsider.state, 'stranger');
    expect((await scan({ authCode: outsiderBack.searchParams.get('authCode')!, state: outsider.state })).body.errorCode).toBe(200501);

    // After signing in, only a page of this site.
    expect((await scan({ engineCode: admin.engineCode, redirectUrl: 'https://elsewhere.example/steal' })).body.errorCode).toBe(208006);
    // A wrong AppSecret: the app's information is wrong.
    await orgClient(t.app, admin).post('/v1/sysintergration/chat/setting', { provider: 'dingtalk', enabled: true, baseUrl: ding.url, appKey: ding.appKey, appSecret: 'wrong', corpId: '', agentId: '' });
    try {
      const wrong = await startScan();
      const wrongBack = await scanned(wrong.state, 'scan-m1');
      expect((await scan({ authCode: wrongBack.searchParams.get('authCode')!, state: wrong.state })).body.errorCode).toBe(207001);
    } finally {
      await orgClient(t.app, admin).post('/v1/sysintergration/chat/setting', { provider: 'dingtalk', enabled: true, baseUrl: ding.url, appKey: ding.appKey, appSecret: ding.appSecret, corpId: 'dingcorp01', agentId: '3001' });
    }
  });

  it('a state of one platform does not complete another, and an engine without the platform answers 200901', async () => {
    const { state } = await startScan();
    expect((await call(t.app, 'GET', '/v1/login/feishu/scan', { query: { code: 'x', state } })).body.errorCode).toBe(200702);
    expect((await call(t.app, 'GET', '/v1/login/wxwork/scan', { query: { engineCode: admin.engineCode } })).body.errorCode).toBe(200901);
    expect((await scan({})).body.errorCode).toBe(200101);
  });

  it('the Administrator lists, creates, updates and removes DingTalk shortcuts', async () => {
    const client = orgClient(t.app, admin);
    const app = await createApp(client, { displayName: '采购管理' });
    const other = await createApp(client, { displayName: '仓储管理' });
    const { id } = await client.post('/v1/shortcut/dingtalk', { name: '采购入口', nodeCode: app.code });
    let list = (await client.get('/v1/shortcut/dingtalk')).list;
    expect(list).toHaveLength(1);
    expect(list[0]).toMatchObject({ id, name: '采购入口', nodeCode: app.code, nodeName: '采购管理', appCode: app.code });
    const url = new URL(list[0].url);
    expect(url.pathname).toBe('/entry/login/dingtalk');
    expect(Object.fromEntries(url.searchParams)).toMatchObject({ engineCode: admin.engineCode, redirectUrl: `/workbench/app/${app.code}` });

    const put = await call(t.app, 'PUT', '/v1/shortcut/dingtalk', { token: admin.token, engineCode: admin.engineCode, body: { id, name: '仓储入口', nodeCode: other.code } });
    expect(put.body.successful, JSON.stringify(put.body)).toBe(true);
    list = (await client.get('/v1/shortcut/dingtalk')).list;
    expect(list[0]).toMatchObject({ name: '仓储入口', nodeName: '仓储管理' });

    // Unknown app, unknown shortcut, a name too long: refused, nothing changed.
    expect((await client.raw('POST', '/v1/shortcut/dingtalk', { name: '无此应用', nodeCode: 'NoSuchApp' })).body.errorCode).toBe(230001);
    expect((await client.raw('POST', '/v1/shortcut/dingtalk', { name: '名'.repeat(33), nodeCode: app.code })).body.errorCode).toBe(777);
    expect((await client.raw('POST', '/v1/shortcut/dingtalk/remove', { id: 'nope' })).body.errorCode).toBe(100404);
    expect((await client.get('/v1/shortcut/dingtalk')).list).toHaveLength(1);

    const member = await addMember(t, admin, { name: '非管理员' });
    expect((await orgClient(t.app, member).raw('POST', '/v1/shortcut/dingtalk', { name: '越权', nodeCode: app.code })).status).toBe(403);

    await client.post('/v1/shortcut/dingtalk/remove', { id });
    expect((await client.get('/v1/shortcut/dingtalk')).list).toEqual([]);
  });
});

describe('mobile binding for a chat-platform person without a mobile number', () => {
  let t: TestApp;
  let admin: Person;
  let ding: FakeDingTalk;
  const post = (url: string, body: unknown) => call(t.app, 'POST', url, { body });

  beforeAll(async () => {
    t = await createTestApp({ config: { workerMode: 'off' } });
    admin = await registerPerson(t.app, { userName: '绑定管理员' });
    ding = await startFakeDingTalk();
    await orgClient(t.app, admin).post('/v1/sysintergration/chat/setting', { provider: 'dingtalk', enabled: true, baseUrl: ding.url, appKey: ding.appKey, appSecret: ding.appSecret, corpId: '', agentId: '' });
  });
  afterAll(async () => {
    await ding?.close();
    await t?.close();
  });

  it('answers 200504 with a ticket; the person proves a number of the engine and is bound and signed in, once', async () => {
    const member = await addMember(t, admin, { name: '无号成员' });
    ding.users.push({ userid: 'no-mobile', unionid: 'un-nm', name: '无号成员', dept_id_list: [1], leader_in_dept: [], active: true });
    const first = await call(t.app, 'GET', '/v1/login/dingtalk/corp', { query: { engineCode: admin.engineCode, code: ding.authCodeFor('no-mobile') } });
    expect(first.body.errorCode).toBe(200504);
    const securityToken = first.body.detail.securityToken as string;
    expect(first.body.detail).toMatchObject({ provider: 'dingtalk', name: '无号成员' });

    expect((await post('/Account/ValidateMobile', { securityToken, mobile: member.mobile })).body.data).toEqual({ exists: true });
    expect((await post('/Account/ValidateMobile', { securityToken, mobile: '13900000000' })).body.data).toEqual({ exists: false });
    expect((await post('/v1/account/sendmobileverifycode', { securityToken, mobile: member.mobile })).body.successful).toBe(true);
    // A wrong code changes nothing; the right one binds and signs in.
    expect((await post('/v1/account/bindmobile', { securityToken, mobile: member.mobile, code: '000000' })).body.errorCode).toBe(201101);
    const bound = await post('/v1/account/bindmobile', { securityToken, mobile: member.mobile, code: FIXED_CODE });
    expect(bound.body.successful, JSON.stringify(bound.body)).toBe(true);
    expect(bound.body.data.engineCode).toBe(admin.engineCode);
    // The ticket was used; the next free login finds the person by the binding.
    await post('/v1/account/sendmobileverifycode', { securityToken: 'x', mobile: member.mobile }).then((r) => expect(r.body.errorCode).toBe(201001));
    expect((await post('/v1/account/bindmobile', { securityToken, mobile: member.mobile, code: FIXED_CODE })).body.errorCode).toBe(201001);
    const again = await call(t.app, 'GET', '/v1/login/dingtalk/corp', { query: { engineCode: admin.engineCode, code: ding.authCodeFor('no-mobile') } });
    expect(again.body.data.engineCode).toBe(admin.engineCode);
  });

  it('a number that is no user of the engine is refused, and an expired ticket is 201001', async () => {
    ding.users.push({ userid: 'no-mobile-2', unionid: 'un-nm2', name: '外来者', dept_id_list: [1], leader_in_dept: [], active: true });
    const first = await call(t.app, 'GET', '/v1/login/dingtalk/corp', { query: { engineCode: admin.engineCode, code: ding.authCodeFor('no-mobile-2') } });
    const securityToken = first.body.detail.securityToken as string;
    const stranger = '13911112222';
    await post('/v1/account/sendmobileverifycode', { securityToken, mobile: stranger });
    expect((await post('/v1/account/bindmobile', { securityToken, mobile: stranger, code: FIXED_CODE })).body.errorCode).toBe(200501);
    const next = await call(t.app, 'GET', '/v1/login/dingtalk/corp', { query: { engineCode: admin.engineCode, code: ding.authCodeFor('no-mobile-2') } });
    const late = next.body.detail.securityToken as string;
    await t.database.db.updateTable('platform.sign_in_flows').set({ expires_at: new Date(Date.now() - 1000) }).where('state', '=', late).execute();
    expect((await post('/v1/account/sendmobileverifycode', { securityToken: late, mobile: stranger })).body.errorCode).toBe(201001);
  });
});
