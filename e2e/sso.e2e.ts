import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, screenshot } from './browser.ts';
import { api, baseUrl, browser, engineWithAdmin, pageOf, uniqueMobile, type Admin } from './fixtures.ts';
import { startOidcIssuer, type OidcIssuer } from '../packages/server/test/oidc-issuer.ts';
import { fillDirectory, startFakeDingTalk, type FakeDingTalk } from '../packages/server/test/dingtalk-fake.ts';
import { startFakeWeCom, type FakeWeCom } from '../packages/server/test/wecom-fake.ts';
import { startFakeFeishu, type FakeFeishu } from '../packages/server/test/feishu-fake.ts';

/**
 * Issue 25, enterprise single sign-on: the administrator sets up the organisation's identity provider (a local OpenID
 * Connect issuer) in the console; a member then signs in from the corporate login page through the issuer and lands
 * in the workbench; an unknown person, with creation off, is told why they cannot. Then DingTalk (a local DingTalk
 * server): its app settings, a preview of the directory sync and the sync job's result in the log; then its event
 * subscription: the administrator copies the request URL and enters the keys, DingTalk pushes contact changes, and
 * only those are synced (decision 0077). WeCom and Feishu (local servers too): the same request URL and keys under
 * each platform's own names, the platform's URL check answered, and a WeCom push applied (decision 0089).
 */
let admin: Admin;
let issuer: OidcIssuer;
let adminPage: Page;
let ding: FakeDingTalk;
let wx: FakeWeCom;
let fs: FakeFeishu;
const memberMobile = uniqueMobile();

beforeAll(async () => {
  admin = await engineWithAdmin({ userName: '顾清和', engineName: '临川纺织有限公司' });
  issuer = await startOidcIssuer({ redirectUris: [`${baseUrl()}/entry/login/sso/callback`] });
  const company = await api<{ id: string }>(admin, 'GET', '/v1/org/department');
  await api(admin, 'POST', '/v1/org/user/create', { name: '柳如烟', mobile: memberMobile, departmentIds: [company.id] });
  adminPage = await pageOf(admin, { width: 1366, height: 900 });
});
afterAll(async () => {
  await issuer?.close();
  await ding?.close();
  await wx?.close();
  await fs?.close();
});

async function corporateSignIn(page: Page) {
  await page.goto('/entry/login/corp');
  await page.getByLabel('组织编码').fill(admin.engineCode);
  await page.getByRole('button', { name: '单点登录' }).click();
}

describe('enterprise single sign-on in the browser', () => {
  it('the administrator sets up the identity provider in the console', async () => {
    await adminPage.goto('/admin/sign-in');
    const callback = adminPage.getByLabel('回调地址');
    await expect.poll(() => callback.inputValue()).toBe(`${baseUrl()}/entry/login/sso/callback`);
    await adminPage.getByRole('switch', { name: '启用单点登录' }).click();
    await adminPage.getByLabel('颁发者地址（Issuer）').fill(issuer.url);
    await adminPage.getByLabel('客户端 ID').fill(issuer.clientId);
    await adminPage.getByLabel('客户端密钥').fill(issuer.clientSecret);
    await screenshot(adminPage, 'sso-01-settings');
    await adminPage.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => adminPage.getByText('已保存').count()).toBeGreaterThan(0);
    await expect.poll(() => adminPage.getByLabel('客户端密钥').getAttribute('placeholder')).toBe('已设置');
  });

  it('a member signs in through the issuer and lands in the workbench', async () => {
    issuer.person = { sub: 'liu.ruyan', name: '柳如烟', phone_number: `+86 ${memberMobile}` };
    const page = await newPage(await browser(), baseUrl());
    await corporateSignIn(page);
    await page.waitForURL('**/workbench**');
    await expect.poll(() => page.getByText('你好，柳如烟').count()).toBeGreaterThan(0);
    expect(issuer.authorizeRequests.at(-1)?.searchParams.get('code_challenge_method')).toBe('S256');
    await expect.poll(() => page.locator('.ant-skeleton').count()).toBe(0);
    await screenshot(page, 'sso-02-workbench');
  });

  it('an unknown person is told that no user matches while creation is off', async () => {
    issuer.person = { sub: 'stranger', name: '陌生人', phone_number: uniqueMobile() };
    const page = await newPage(await browser(), baseUrl());
    await corporateSignIn(page);
    await page.waitForURL('**/entry/login/sso/callback**');
    await expect.poll(() => page.getByText('单点登录失败').count()).toBe(1);
    expect(await page.getByText('该身份在本组织中没有对应的用户，请联系管理员').count()).toBe(1);
    await screenshot(page, 'sso-03-unknown-user');
  });
});

describe('DingTalk directory sync in the console', () => {
  it('saves the app, previews the changes and runs the sync', async () => {
    ding = await startFakeDingTalk();
    fillDirectory(ding, 6, 30, '168');
    await adminPage.goto('/admin/sign-in');
    await adminPage.getByRole('tab', { name: '钉钉' }).click();
    await adminPage.getByRole('switch', { name: '启用钉钉' }).click();
    await adminPage.getByLabel('AppKey').fill(ding.appKey);
    await adminPage.getByLabel('AppSecret').fill(ding.appSecret);
    await adminPage.getByLabel('接口地址').fill(ding.url);
    await adminPage.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => adminPage.getByLabel('AppSecret').getAttribute('placeholder')).toBe('已设置');
    await adminPage.getByRole('button', { name: '预览变更' }).click();
    await expect.poll(() => adminPage.getByText('新增 30，修改 0，关联 0，停用 0，不变 0，跳过 0').count()).toBe(1);
    expect(await adminPage.getByText('新增 6，修改 0，关联 0，不变 0').count()).toBe(1);
    await adminPage.getByRole('button', { name: '开始同步' }).click();
    await expect.poll(() => adminPage.getByText('已完成').count(), { timeout: 30_000 }).toBe(1);
    await expect.poll(() => adminPage.getByText(/人员新增 30、修改 0、停用 0/).count()).toBe(1);
    await screenshot(adminPage, 'sso-04-dingtalk-sync');
  });

  it('takes DingTalk\'s change pushes at the URL it shows and syncs only the changes', async () => {
    const url = adminPage.getByTestId('directory-callback-url');
    await expect.poll(() => url.textContent()).toBe(`${baseUrl()}/v1/sysintergration/directory/callback/dingtalk/${admin.engineCode}`);
    await adminPage.getByLabel('签名 Token').fill(ding.callbackToken);
    await adminPage.getByLabel('加密 aes_key').fill('too-short');
    await adminPage.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => adminPage.getByText('aes_key 应为 43 位字母、数字或 + /').count()).toBe(1);
    await adminPage.getByLabel('加密 aes_key').fill(ding.callbackAesKey);
    await adminPage.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => adminPage.getByLabel('加密 aes_key').getAttribute('placeholder')).toBe('已设置');

    // DingTalk checks the URL, then pushes a newcomer and a rename to the address the screen shows.
    const pushUrl = (await url.textContent())!;
    expect((await ding.push(pushUrl, { EventType: 'check_url' })).accepted).toBe(true);
    ding.users.push({ userid: 'u-new', unionid: 'un-new', name: '沈知微', mobile: uniqueMobile(), dept_id_list: [101], leader_in_dept: [], active: true });
    ding.users.find((u) => u.userid === 'u2')!.name = '林晚照';
    expect((await ding.push(pushUrl, { EventType: 'user_add_org', UserId: ['u-new'] })).accepted).toBe(true);
    expect((await ding.push(pushUrl, { EventType: 'user_modify_org', UserId: ['u2'] })).accepted).toBe(true);
    ding.calls.clear();

    // The queued sync applies them in the background (one run, or two if the runner took the first push alone); the
    // log shows runs of the changes and nothing waits any more.
    const changeRuns = () => adminPage.getByRole('cell', { name: '变更', exact: true }).count();
    await expect
      .poll(async () => {
        await adminPage.reload();
        await adminPage.getByRole('tab', { name: '钉钉' }).click();
        return (await adminPage.getByTestId('pending-events').textContent()) === '待同步的变更：0 条' && (await adminPage.getByText('进行中').count()) + (await adminPage.getByText('等待中').count()) === 0 ? changeRuns() : 0;
      }, { timeout: 30_000, interval: 1000 })
      .toBeGreaterThan(0);
    expect(ding.calls.get('/topapi/v2/user/list')).toBeUndefined();
    for (const name of ['沈知微', '林晚照']) {
      const found = await api<{ list: { name: string }[] }>(admin, 'POST', '/v1/org/user/list', { keyword: name });
      expect(found.list.map((p) => p.name)).toEqual([name]);
    }
    await screenshot(adminPage, 'sso-05-dingtalk-events');
  });
});

describe('WeCom and Feishu change pushes in the console', () => {
  it('shows WeCom\'s request URL, takes its Token and EncodingAESKey, answers its URL check and applies a push', async () => {
    wx = await startFakeWeCom();
    wx.users.push({ userid: 'wx-a', name: '陆云舒', mobile: uniqueMobile(), department: [1], main_department: 1, is_leader_in_dept: [0], status: 1 });
    await adminPage.goto('/admin/sign-in');
    await adminPage.getByRole('tab', { name: '企业微信' }).click();
    const panel = adminPage.getByRole('tabpanel', { name: '企业微信' });
    await panel.getByRole('switch', { name: '启用企业微信' }).click();
    await panel.getByLabel('CorpID').fill(wx.corpId);
    await panel.getByLabel('Secret', { exact: true }).fill(wx.secret);
    await panel.getByLabel('接口地址').fill(wx.url);
    const url = panel.getByTestId('directory-callback-url');
    await expect.poll(() => url.textContent()).toBe(`${baseUrl()}/v1/sysintergration/directory/callback/wxwork/${admin.engineCode}`);
    await panel.getByLabel('Token', { exact: true }).fill(wx.callbackToken);
    await panel.getByLabel('EncodingAESKey').fill('too-short');
    await panel.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => panel.getByText('EncodingAESKey 应为 43 位字母、数字或 + /').count()).toBe(1);
    await panel.getByLabel('EncodingAESKey').fill(wx.callbackAesKey);
    await panel.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => panel.getByLabel('EncodingAESKey').getAttribute('placeholder')).toBe('已设置');
    await screenshot(adminPage, 'sso-06-wecom-events');

    // WeCom checks the URL when it is saved there, then pushes a new member to it.
    const pushUrl = (await url.textContent())!;
    const check = wx.urlCheck();
    expect(await (await fetch(`${pushUrl}?${new URLSearchParams(check.query)}`)).text()).toBe(check.expected);
    const { query, body } = wx.signedPush({ ChangeType: 'create_user', UserID: 'wx-a' });
    expect(await (await fetch(`${pushUrl}?${new URLSearchParams(query)}`, { method: 'POST', headers: { 'content-type': 'text/xml' }, body })).text()).toBe('success');
    await expect
      .poll(async () => (await api<{ list: { name: string }[] }>(admin, 'POST', '/v1/org/user/list', { keyword: '陆云舒' })).list.length, { timeout: 30_000, interval: 1000 })
      .toBe(1);
    expect(wx.calls.get('/cgi-bin/user/list')).toBeUndefined();
  });

  it('names Feishu\'s Verification Token and Encrypt Key and answers its URL verification', async () => {
    fs = await startFakeFeishu();
    await adminPage.getByRole('tab', { name: '飞书' }).click();
    const panel = adminPage.getByRole('tabpanel', { name: '飞书' });
    await panel.getByRole('switch', { name: '启用飞书' }).click();
    await panel.getByLabel('App ID').fill(fs.appId);
    await panel.getByLabel('App Secret').fill(fs.appSecret);
    await panel.getByLabel('接口地址').fill(fs.url);
    await panel.getByLabel('Verification Token').fill(fs.verificationToken);
    await panel.getByLabel('Encrypt Key').fill('has a space');
    await panel.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => panel.getByText('Encrypt Key 不能包含空格，最多 128 个字符').count()).toBe(1);
    await panel.getByLabel('Encrypt Key').fill(fs.encryptKey);
    await panel.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => panel.getByLabel('Encrypt Key').getAttribute('placeholder')).toBe('已设置');
    const pushUrl = (await panel.getByTestId('directory-callback-url').textContent())!;
    expect(pushUrl).toBe(`${baseUrl()}/v1/sysintergration/directory/callback/feishu/${admin.engineCode}`);
    const verification = fs.urlVerification('c-42');
    expect(await (await fetch(pushUrl, { method: 'POST', headers: verification.headers, body: verification.body })).json()).toEqual({ challenge: 'c-42' });
    await screenshot(adminPage, 'sso-07-feishu-events');
  });
});
