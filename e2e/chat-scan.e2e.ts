import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, screenshot } from './browser.ts';
import { api, baseUrl, browser, engineWithAdmin, memberPage, pageOf, uniqueMobile, type Admin } from './fixtures.ts';
import { startFakeDingTalk, type FakeDingTalk } from '../packages/server/test/dingtalk-fake.ts';
import { startFakeWeCom, type FakeWeCom } from '../packages/server/test/wecom-fake.ts';
import { confirmScan } from '../packages/server/test/qr-login-fake.ts';
import { startFakeWechat, type FakeWechat } from '../packages/server/test/wechat-fake.ts';
import { E2E_CODE } from './global-setup.ts';

/**
 * Issue 25, QR login: a member picks 扫码登录 on the login page, enters the organisation's code and chooses DingTalk
 * (then WeCom); the platform's page (a local DingTalk / WeCom server) shows the QR code; the phone confirms — the test
 * posts the confirmation to the fake — and the browser comes back signed in. The administrator keeps DingTalk
 * shortcuts in the console.
 */
let admin: Admin;
let adminPage: Page;
let ding: FakeDingTalk;
let wx: FakeWeCom;
const memberMobile = uniqueMobile();

beforeAll(async () => {
  admin = await engineWithAdmin({ userName: '沈知远', engineName: '青溪茶业有限公司' });
  ding = await startFakeDingTalk();
  wx = await startFakeWeCom();
  const company = await api<{ id: string }>(admin, 'GET', '/v1/org/department');
  await api(admin, 'POST', '/v1/org/user/create', { name: '林晚晴', mobile: memberMobile, departmentIds: [company.id] });
  ding.users.push({ userid: 'lin.wanqing', unionid: 'union-lin', name: '林晚晴', mobile: memberMobile, dept_id_list: [1], leader_in_dept: [], active: true });
  wx.users.push({ userid: 'LinWanQing', name: '林晚晴', mobile: memberMobile, department: [1], main_department: 1, is_leader_in_dept: [0], status: 1 });
  await api(admin, 'POST', '/v1/sysintergration/chat/setting', { provider: 'dingtalk', enabled: true, baseUrl: ding.url, appKey: ding.appKey, appSecret: ding.appSecret, corpId: 'dingcorp01', agentId: '3001' });
  await api(admin, 'POST', '/v1/sysintergration/chat/setting', { provider: 'wxwork', enabled: true, baseUrl: wx.url, appKey: wx.corpId, appSecret: wx.secret, corpId: '', agentId: '1000002' });
  adminPage = await pageOf(admin, { width: 1366, height: 900 });
});
afterAll(async () => {
  await ding?.close();
  await wx?.close();
});

/** From the login page's 扫码登录 tab to the platform's QR page; answers the flow's state. */
async function openQr(page: Page, button: string, qrPath: string) {
  await page.goto('/entry/');
  await page.getByRole('tab', { name: '扫码登录' }).click();
  await page.getByLabel('组织编码').fill(admin.engineCode);
  await page.getByRole('button', { name: button, exact: true }).click();
  await page.waitForURL(`**${qrPath}**`);
  await expect.poll(() => page.locator('[data-testid="qr"] svg').count()).toBe(1);
  return new URL(page.url()).searchParams.get('state')!;
}

describe('chat-platform QR login in the browser', () => {
  it('a member scans with DingTalk and lands in the workbench', async () => {
    const page = await newPage(await browser(), baseUrl());
    await page.goto('/entry/');
    await page.getByRole('tab', { name: '扫码登录' }).click();
    await page.getByLabel('组织编码').fill(admin.engineCode);
    await screenshot(page, 'chat-scan-01-tab');
    const state = await openQr(page, '钉钉扫码登录', '/oauth2/auth');
    await screenshot(page, 'chat-scan-02-dingtalk-qr');
    await confirmScan(ding.url, state, 'lin.wanqing');
    await page.waitForURL('**/workbench**');
    await expect.poll(() => page.getByText('你好，林晚晴').count()).toBeGreaterThan(0);
  });

  it('a member scans with WeCom; a person outside the organisation is told why not', async () => {
    const page = await newPage(await browser(), baseUrl());
    const state = await openQr(page, '企业微信扫码登录', '/wwopen/sso/qrConnect');
    await confirmScan(wx.url, state, 'LinWanQing');
    await page.waitForURL('**/workbench**');

    const stranger = await newPage(await browser(), baseUrl());
    const strangerState = await openQr(stranger, '钉钉扫码登录', '/oauth2/auth');
    await confirmScan(ding.url, strangerState, 'someone-else');
    await stranger.waitForURL('**/entry/login/dingtalk**');
    await expect.poll(() => stranger.getByText('扫码登录失败').count()).toBe(1);
    expect(await stranger.getByText('用户不存在').count()).toBe(1);
    await screenshot(stranger, 'chat-scan-03-outsider');
  });

  it('a member DingTalk gives no number binds the number the organisation knows, then is signed in', async () => {
    const mobile = uniqueMobile();
    const company = await api<{ id: string }>(admin, 'GET', '/v1/org/department');
    await api(admin, 'POST', '/v1/org/user/create', { name: '顾无号', mobile, departmentIds: [company.id] });
    ding.users.push({ userid: 'gu.wuhao', unionid: 'union-gu', name: '顾无号', dept_id_list: [1], leader_in_dept: [], active: true });
    const page = await newPage(await browser(), baseUrl());
    const state = await openQr(page, '钉钉扫码登录', '/oauth2/auth');
    await confirmScan(ding.url, state, 'gu.wuhao');
    await page.waitForURL('**/entry/login/dingtalk**');
    await page.getByLabel('手机号').fill(mobile);
    await page.getByRole('button', { name: '获取验证码' }).click();
    await page.getByLabel('验证码').fill(E2E_CODE);
    await screenshot(page, 'chat-scan-06-bind-mobile');
    await page.getByRole('button', { name: '绑定并登录' }).click();
    await page.waitForURL('**/workbench**');
    await expect.poll(() => page.getByText('你好，顾无号').count()).toBeGreaterThan(0);
  });

  it('the administrator adds a DingTalk shortcut to an app', async () => {
    await api(admin, 'POST', '/v1/functionnode', { code: `Tea${Date.now().toString(36)}`, displayName: '茶园巡检', nodeType: 190 });
    await adminPage.goto('/admin/sign-in');
    await adminPage.getByRole('tab', { name: '钉钉' }).click();
    await adminPage.getByRole('button', { name: '新建快捷方式' }).click();
    const dialog = adminPage.getByRole('dialog');
    await dialog.getByLabel('名称').fill('巡检入口');
    await dialog.getByLabel('打开的应用').click();
    await adminPage.getByTitle('茶园巡检').click();
    await dialog.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => adminPage.getByRole('cell', { name: '巡检入口' }).count()).toBe(1);
    expect(await adminPage.getByRole('cell', { name: '茶园巡检' }).count()).toBe(1);
    await screenshot(adminPage, 'chat-scan-04-shortcuts');
    await adminPage.getByRole('tab', { name: '企业微信' }).click();
    await expect.poll(() => adminPage.getByLabel('CorpID', { exact: true }).inputValue()).toBe(wx.corpId);
    await screenshot(adminPage, 'chat-scan-05-wecom-settings');
  });
});

describe('WeChat scan sign-in in the browser (decision 0078)', () => {
  let wechat: FakeWechat;
  afterAll(async () => {
    await wechat?.close();
  });

  it('the administrator sets up WeChat; a member scans, binds the number once, and later scans straight in', async () => {
    wechat = await startFakeWechat();
    await adminPage.goto('/admin/sign-in');
    await adminPage.getByRole('tab', { name: '微信', exact: true }).click();
    await adminPage.getByRole('switch', { name: '启用微信扫码登录' }).click();
    await adminPage.getByLabel('AppID').fill(wechat.appId);
    await adminPage.getByLabel('AppSecret').fill(wechat.appSecret);
    await adminPage.getByLabel('接口地址').fill(wechat.url);
    await adminPage.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => adminPage.getByLabel('AppSecret').getAttribute('placeholder')).toBe('已设置');
    // WeChat has no directory: no sync on its tab.
    expect(await adminPage.getByRole('button', { name: '预览变更' }).count()).toBe(0);
    await screenshot(adminPage, 'chat-scan-07-wechat-settings');

    const mobile = uniqueMobile();
    const company = await api<{ id: string }>(admin, 'GET', '/v1/org/department');
    await api(admin, 'POST', '/v1/org/user/create', { name: '苏映雪', mobile, departmentIds: [company.id] });
    wechat.people.push({ openid: 'o-su', unionid: 'u-su', nickname: '映雪' });
    const page = await newPage(await browser(), baseUrl());
    const state = await openQr(page, '微信扫码登录', '/connect/qrconnect');
    await screenshot(page, 'chat-scan-08-wechat-qr');
    await confirmScan(wechat.url, state, 'o-su');
    await page.waitForURL('**/entry/login/wechat**');
    await page.getByLabel('手机号').fill(mobile);
    await page.getByRole('button', { name: '获取验证码' }).click();
    await page.getByLabel('验证码').fill(E2E_CODE);
    await screenshot(page, 'chat-scan-09-wechat-bind');
    await page.getByRole('button', { name: '绑定并登录' }).click();
    await page.waitForURL('**/workbench**');
    await expect.poll(() => page.getByText('你好，苏映雪').count()).toBeGreaterThan(0);

    const later = await newPage(await browser(), baseUrl());
    const laterState = await openQr(later, '微信扫码登录', '/connect/qrconnect');
    await confirmScan(wechat.url, laterState, 'o-su');
    await later.waitForURL('**/workbench**');
    await expect.poll(() => later.getByText('你好，苏映雪').count()).toBeGreaterThan(0);
  });

  /** 微信扫码绑定 on the binding page; the phone confirms as `openid`; WeChat sends the browser back to the page. */
  async function scanToBind(page: Page, openid: string) {
    await page.getByRole('button', { name: '微信扫码绑定' }).click();
    await page.waitForURL('**/connect/qrconnect**');
    await expect.poll(() => page.locator('[data-testid="qr"] svg').count()).toBe(1);
    await confirmScan(wechat.url, new URL(page.url()).searchParams.get('state')!, openid);
    await page.waitForURL('**/entry/register/wechat?**');
  }

  it('a signed-in member binds their WeChat from the user menu, then unbinds it (decision 0090)', async () => {
    const { page } = await memberPage(admin, '温如玉');
    wechat.people.push({ openid: 'o-wen', unionid: 'u-wen', nickname: '如玉' });
    await page.goto('/workbench');
    await page.getByRole('button', { name: '用户菜单' }).click();
    await page.getByText('绑定微信').click();
    await page.waitForURL('**/entry/register/wechat');
    await expect.poll(() => page.getByTestId('wechat-binding-state').textContent()).toBe('尚未绑定微信');
    await screenshot(page, 'chat-scan-11-wechat-binding');
    await scanToBind(page, 'o-wen');
    await expect.poll(() => page.getByText('微信已绑定').count()).toBe(1);
    await screenshot(page, 'chat-scan-12-wechat-bound');
    await page.getByRole('button', { name: '返回微信绑定' }).click();
    await expect.poll(() => page.getByTestId('wechat-binding-state').textContent()).toMatch(/^已绑定微信（/);

    // Su's WeChat is bound to Su (the scan above): Wen cannot take it.
    await page.getByRole('button', { name: '解除绑定' }).click();
    await page.getByRole('button', { name: '确认解除绑定' }).click();
    await expect.poll(() => page.getByTestId('wechat-binding-state').textContent()).toBe('尚未绑定微信');
    await scanToBind(page, 'o-su');
    await expect.poll(() => page.getByText('该微信已绑定本组织的其他用户，请先在该用户处解绑').count()).toBe(1);
    await screenshot(page, 'chat-scan-13-wechat-bound-elsewhere');
  });
});

describe('token exchange in the browser (decision 0079)', () => {
  it('a member inside the DingTalk client opens the page in the computer\'s browser and is still signed in there', async () => {
    const { page } = await memberPage(admin, '钟离秋');
    // The DingTalk client's web view names itself in the user agent.
    await page.addInitScript(() => Object.defineProperty(navigator, 'userAgent', { get: () => 'Mozilla/5.0 (Windows NT 10.0) AppleWebKit/537.36 Chrome/120 DingTalk(7.6.0) nw Channel/201200' }));
    await page.goto('/workbench');
    await expect.poll(() => page.getByText('你好，钟离秋').count()).toBeGreaterThan(0);
    await page.getByRole('button', { name: '用户菜单' }).click();
    await screenshot(page, 'chat-scan-10-open-in-browser');
    const [opened] = await Promise.all([page.context().waitForEvent('page'), page.getByText('在浏览器中打开').click()]);
    await opened.waitForURL('**/entry/login/exchange**').catch(() => undefined);
    const handoff = new URL(opened.url());
    await opened.close();
    expect(handoff.pathname).toBe('/entry/login/exchange');
    expect(handoff.searchParams.get('redirectUrl')).toBe('/workbench');

    // The computer's browser: a fresh profile with no session of its own.
    const desktop = await newPage(await browser(), baseUrl());
    await desktop.goto(`${handoff.pathname}${handoff.search}`);
    await desktop.waitForURL('**/workbench**');
    await expect.poll(() => desktop.getByText('你好，钟离秋').count()).toBeGreaterThan(0);
    // The link worked once: opened again it is refused.
    const again = await newPage(await browser(), baseUrl());
    await again.goto(`${handoff.pathname}${handoff.search}`);
    await expect.poll(() => again.getByText('无法接续登录').count()).toBe(1);
    await screenshot(again, 'chat-scan-11-exchange-used');
  });
});

describe('WeChat official account scan sign-in in the browser (decision 0097)', () => {
  let wechat: FakeWechat;
  afterAll(async () => {
    await wechat?.close();
  });

  /** From the login page's 扫码登录 tab to this site's QR page of the official account; answers the code's ticket. */
  async function openAccountQr(page: Page) {
    await page.goto('/entry/');
    await page.getByRole('tab', { name: '扫码登录' }).click();
    await page.getByLabel('组织编码').fill(admin.engineCode);
    await page.getByRole('button', { name: '微信扫码登录', exact: true }).click();
    await page.waitForURL('**/entry/login/wechat?scene=**');
    const qr = page.getByTestId('wechat-account-qr');
    // The image is WeChat's showqrcode (here the local WeChat's), loaded by the browser.
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    return new URL((await qr.getAttribute('src'))!).searchParams.get('ticket')!;
  }

  it('the administrator switches WeChat to the official account; a member scans the code on the sign-in page and is signed in', async () => {
    wechat = await startFakeWechat();
    await adminPage.goto('/admin/sign-in');
    await adminPage.getByRole('tab', { name: '微信', exact: true }).click();
    const enabled = adminPage.getByRole('switch', { name: '启用微信扫码登录' });
    if ((await enabled.getAttribute('aria-checked')) !== 'true') await enabled.click();
    await adminPage.getByText('公众号扫码（关注公众号后登录）').click();
    await adminPage.getByLabel('AppID').fill(wechat.appId);
    await adminPage.getByLabel('AppSecret').fill(wechat.appSecret);
    await adminPage.getByLabel('接口地址').fill(wechat.url);
    await adminPage.getByLabel('令牌（Token）').fill('a b');
    await adminPage.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => adminPage.getByText('Token 须为 3 到 32 位字母或数字').count()).toBe(1);
    await adminPage.getByLabel('令牌（Token）').fill(wechat.account.token);
    await adminPage.getByLabel('消息加解密密钥（EncodingAESKey，安全模式时填写）').fill(wechat.account.aesKey);
    await adminPage.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => adminPage.getByLabel('令牌（Token）').getAttribute('placeholder')).toBe('已设置');
    const pushUrl = (await adminPage.getByTestId('wechat-push-url').textContent())!;
    expect(pushUrl).toBe(`${baseUrl()}/v1/sysintergration/wechat/push/${admin.engineCode}`);
    await screenshot(adminPage, 'chat-scan-14-wechat-account-settings');
    // Saving the address in the account's console: WeChat checks it.
    wechat.account.pushUrl = pushUrl;
    const check = await wechat.account.verify();
    expect(check.body).toBe(check.echostr);

    const mobile = uniqueMobile();
    const company = await api<{ id: string }>(admin, 'GET', '/v1/org/department');
    await api(admin, 'POST', '/v1/org/user/create', { name: '秦照影', mobile, departmentIds: [company.id] });
    wechat.people.push({ openid: 'oa-qin', unionid: 'u-qin', nickname: '' });
    const page = await newPage(await browser(), baseUrl());
    const ticket = await openAccountQr(page);
    await screenshot(page, 'chat-scan-15-wechat-account-qr');
    // A new follower scans in WeChat's safe mode: the page learns of it and asks for the number once.
    expect(await wechat.account.scan(ticket, 'oa-qin', { subscribe: true, safeMode: true })).toEqual({ status: 200, body: 'success' });
    await page.getByLabel('手机号').fill(mobile);
    await page.getByRole('button', { name: '获取验证码' }).click();
    await page.getByLabel('验证码').fill(E2E_CODE);
    await page.getByRole('button', { name: '绑定并登录' }).click();
    await page.waitForURL('**/workbench**');
    await expect.poll(() => page.getByText('你好，秦照影').count()).toBeGreaterThan(0);

    // A follower's later scan signs in at once.
    const later = await newPage(await browser(), baseUrl());
    await wechat.account.scan(await openAccountQr(later), 'oa-qin');
    await later.waitForURL('**/workbench**');
    await expect.poll(() => later.getByText('你好，秦照影').count()).toBeGreaterThan(0);
  });

  it('a signed-in member binds their WeChat by the official account\'s code from the user menu', async () => {
    const { page } = await memberPage(admin, '陆听澜');
    wechat.people.push({ openid: 'oa-lu', unionid: 'u-lu', nickname: '' });
    await page.goto('/workbench');
    await page.getByRole('button', { name: '用户菜单' }).click();
    await page.getByText('绑定微信').click();
    await page.waitForURL('**/entry/register/wechat');
    await page.getByRole('button', { name: '微信扫码绑定' }).click();
    await page.waitForURL('**/entry/register/wechat?scene=**');
    const qr = page.getByTestId('wechat-account-qr');
    await expect.poll(() => qr.evaluate((img: HTMLImageElement) => img.complete && img.naturalWidth)).toBeGreaterThan(0);
    expect(await page.getByText('请使用要绑定的微信扫描二维码，关注公众号后即完成绑定').count()).toBe(1);
    await screenshot(page, 'chat-scan-16-wechat-account-binding');
    await wechat.account.scan(new URL((await qr.getAttribute('src'))!).searchParams.get('ticket')!, 'oa-lu');
    await expect.poll(() => page.getByText('微信已绑定').count()).toBe(1);
    await page.getByRole('button', { name: '返回微信绑定' }).click();
    await expect.poll(() => page.getByTestId('wechat-binding-state').textContent()).toMatch(/^已绑定微信（/);
  });
});
