import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot } from './browser.ts';
import { E2E_CODE } from './global-setup.ts';
import { switchEngineTo } from './fixtures.ts';

/**
 * Issue "Platform foundation and sign-in", must show: register an engine, sign out, sign in by password, sign in
 * by code, reset the password, register a second engine for the same account and switch between the two.
 */
let browser: Browser;
let page: Page;
const mobile = `135${String(Date.now()).slice(-8)}`;
const firstEngine = '青云科技有限公司';
const secondEngine = '远山贸易有限公司';

beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser, inject('baseUrl'));
});
afterAll(() => browser?.close());

async function requestCode(p: Page) {
  await p.getByRole('button', { name: /获取验证码/ }).click();
  await expect.poll(() => p.getByRole('button', { name: /重新发送/ }).count()).toBe(1);
  await p.getByLabel('验证码', { exact: true }).fill(E2E_CODE);
}

async function expectWorkbench(p: Page, engineName: string) {
  await p.waitForURL('**/workbench**');
  await expect.poll(() => p.getByText('你好，张明').count()).toBeGreaterThan(0);
  await expect.poll(() => p.getByText(engineName).count()).toBeGreaterThan(0);
}

async function signOut(p: Page) {
  await p.getByRole('button', { name: /用户菜单|张明/ }).click();
  await p.getByText('退出登录', { exact: true }).last().click();
  await p.waitForURL('**/entry/logout**');
  await expect.poll(() => p.getByText('已退出登录').count()).toBeGreaterThan(0);
}

describe('sign-in and registration in the browser', () => {
  it('shows the login page in Chinese', async () => {
    await page.goto('/');
    await page.waitForURL('**/entry/**');
    await expect.poll(() => page.getByRole('tab', { name: '密码登录' }).count()).toBe(1);
    expect(await page.getByLabel('手机号').count()).toBe(1);
    await screenshot(page, '01-login');
  });

  it('registers an engine and lands in its workbench', async () => {
    await page.goto('/entry/register');
    await page.getByLabel('手机号').fill(mobile);
    await requestCode(page);
    await page.getByLabel('组织名称').fill(firstEngine);
    // A new number is asked for a name and a password.
    await page.getByRole('button', { name: '注册并创建组织' }).click();
    await page.getByLabel('姓名').fill('张明');
    await page.getByLabel('密码', { exact: true }).fill('Qingyun2026');
    await page.getByLabel('组织规模').click();
    await page.getByText('21-50人').click();
    await screenshot(page, '02-register');
    await page.getByRole('button', { name: '注册并创建组织' }).click();
    await page.waitForURL('**/entry/register/success**');
    await screenshot(page, '03-register-success');
    await page.getByRole('button', { name: '进入工作台' }).click();
    await expectWorkbench(page, firstEngine);
    await screenshot(page, '04-workbench');
  });

  it('signs out, then in by password', async () => {
    await signOut(page);
    await screenshot(page, '05-logout');
    await page.goto('/entry/');
    await page.getByRole('tab', { name: '密码登录' }).click();
    await page.getByLabel('手机号').fill(mobile);
    await page.getByLabel('密码', { exact: true }).fill('Wrong2026x');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await expect.poll(() => page.getByText('手机号或密码错误').count()).toBeGreaterThan(0);
    await screenshot(page, '06-wrong-password');
    await page.getByLabel('密码', { exact: true }).fill('Qingyun2026');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await expectWorkbench(page, firstEngine);
  });

  it('signs out, then in by verification code', async () => {
    await signOut(page);
    await page.goto('/entry/');
    await page.getByRole('tab', { name: '验证码登录' }).click();
    const panel = page.getByRole('tabpanel', { name: '验证码登录' });
    await panel.getByLabel('手机号').fill(mobile);
    await requestCode(panel as unknown as Page);
    await screenshot(page, '07-code-login');
    await panel.getByRole('button', { name: '登录', exact: true }).click();
    await expectWorkbench(page, firstEngine);
  });

  it('resets the password and signs in with the new one', async () => {
    await signOut(page);
    await page.goto('/entry/login/reset');
    await page.getByLabel('手机号').fill(mobile);
    await requestCode(page);
    await page.getByLabel('新密码', { exact: true }).fill('Yuanshan2027');
    await page.getByLabel('确认新密码').fill('Yuanshan2027');
    await screenshot(page, '08-reset');
    await page.getByRole('button', { name: '重置密码' }).click();
    await expect.poll(() => page.getByText('密码已重置，请使用新密码登录').count()).toBeGreaterThan(0);
    await page.goto('/entry/');
    await page.getByRole('tab', { name: '密码登录' }).click();
    await page.getByLabel('手机号').fill(mobile);
    await page.getByLabel('密码', { exact: true }).fill('Yuanshan2027');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await expectWorkbench(page, firstEngine);
  });

  it('registers a second engine for the same account and switches between the two', async () => {
    await page.getByRole('button', { name: /用户菜单|张明/ }).click();
    await page.getByText('创建新组织').click();
    await page.waitForURL('**/entry/register**');
    await page.getByLabel('组织名称').fill(secondEngine);
    await screenshot(page, '09-register-second');
    await page.getByRole('button', { name: '注册并创建组织' }).click();
    await page.waitForURL('**/entry/register/success**');
    await page.getByRole('button', { name: '进入工作台' }).click();
    await expectWorkbench(page, secondEngine);

    await switchEngineTo(page, firstEngine);
    await expectWorkbench(page, firstEngine);
    await screenshot(page, '11-switched');
    // The switch holds through a reload: the engine cookie and the server agree.
    await page.reload();
    await expectWorkbench(page, firstEngine);
  });

  it('sends a visitor without a session to sign in, and back afterwards', async () => {
    const fresh = await newPage(browser, inject('baseUrl'));
    await fresh.goto('/workbench');
    await fresh.waitForURL('**/entry/**');
    expect(decodeURIComponent(fresh.url())).toContain('redirectUrl=/workbench');
    await fresh.context().close();
  });

  it('fits a phone: the login page and the code sign-in page outside the layout', async () => {
    const phone = await newPage(browser, inject('baseUrl'), { width: 390, height: 844 });
    await phone.goto('/entry/');
    await expect.poll(() => phone.getByRole('tab', { name: '验证码登录' }).count()).toBe(1);
    // Nothing wider than the screen: no sideways scrolling on a phone.
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(phone, '12-phone-login');
    await phone.goto('/mobile/code');
    await expect.poll(() => phone.getByLabel('手机号').count()).toBe(1);
    expect(await phone.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await screenshot(phone, '13-phone-mobile-code');
    await phone.context().close();
  });
});
