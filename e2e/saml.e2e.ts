import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, screenshot } from './browser.ts';
import { api, baseUrl, browser, engineWithAdmin, pageOf, uniqueMobile, type Admin } from './fixtures.ts';
import { startSamlIdp, type SamlIdp } from '../packages/server/test/saml-idp.ts';

/**
 * Issue 25, enterprise single sign-on by SAML 2.0 (decision 0087): the administrator chooses SAML in the console,
 * copies the assertion consumer address and enters a local identity provider's address, entity ID and certificate; a
 * member signs in from the corporate login page through the provider's page (its button posts the signed answer
 * back) and lands in the workbench; an unknown person, with creation off, is told why not.
 */
let admin: Admin;
let idp: SamlIdp;
let adminPage: Page;
const memberMobile = uniqueMobile();

beforeAll(async () => {
  admin = await engineWithAdmin({ userName: '沈砚秋', engineName: '青禾农业科技有限公司' });
  idp = await startSamlIdp({ entityId: 'https://idp.qinghe.test/saml' });
  const company = await api<{ id: string }>(admin, 'GET', '/v1/org/department');
  await api(admin, 'POST', '/v1/org/user/create', { name: '苏映雪', mobile: memberMobile, departmentIds: [company.id] });
  adminPage = await pageOf(admin, { width: 1366, height: 1000 });
});
afterAll(async () => {
  await idp?.close();
});

/** From the corporate login page to the identity provider's page, then its button. */
async function signInThroughProvider(page: Page, shot?: string) {
  await page.goto('/entry/login/corp');
  await page.getByLabel('组织编码').fill(admin.engineCode);
  await page.getByRole('button', { name: '单点登录' }).click();
  await page.waitForURL(`${new URL(idp.ssoUrl).origin}/sso**`);
  await expect.poll(() => page.getByText('测试身份提供方').count()).toBeGreaterThan(0);
  if (shot) await screenshot(page, shot);
  await page.getByRole('button', { name: '继续登录' }).click();
}

describe('SAML single sign-on in the browser', () => {
  it('the administrator sets up SAML in the console and can fetch the metadata', async () => {
    await adminPage.goto('/admin/sign-in');
    await adminPage.getByText('SAML 2.0', { exact: true }).click();
    const acs = adminPage.getByTestId('saml-acs-url');
    expect(await acs.textContent()).toBe(`${baseUrl()}/v1/login/sso/saml/${admin.engineCode}/acs`);
    await adminPage.getByRole('switch', { name: '启用单点登录' }).click();
    await adminPage.getByLabel('身份提供方登录地址（SSO URL）').fill(idp.ssoUrl);
    await adminPage.getByLabel('身份提供方实体 ID（Entity ID）').fill(idp.entityId);
    await adminPage.getByLabel('身份提供方签名证书（PEM）').fill(idp.cert);
    await adminPage.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => adminPage.getByText('已保存').count()).toBeGreaterThan(0);
    await screenshot(adminPage, 'saml-01-settings');
    const metadataUrl = (await adminPage.getByTestId('saml-metadata-url').textContent())!;
    const metadata = await (await fetch(metadataUrl)).text();
    expect(metadata).toContain(`Location="${baseUrl()}/v1/login/sso/saml/${admin.engineCode}/acs"`);
  });

  it('a member signs in through the identity provider\'s page and lands in the workbench', async () => {
    idp.person = { nameId: 'su.yingxue', attributes: { mobile: memberMobile, displayName: '苏映雪' } };
    const page = await newPage(await browser(), baseUrl());
    await signInThroughProvider(page, 'saml-02-idp-page');
    await page.waitForURL('**/workbench**');
    await expect.poll(() => page.getByText('你好，苏映雪').count()).toBeGreaterThan(0);
    expect(idp.requests.at(-1)?.acsUrl).toBe(`${baseUrl()}/v1/login/sso/saml/${admin.engineCode}/acs`);
    await expect.poll(() => page.locator('.ant-skeleton').count()).toBe(0);
    await screenshot(page, 'saml-03-workbench');
  });

  it('an unknown person is told that no user matches while creation is off', async () => {
    idp.person = { nameId: 'stranger', attributes: { mobile: uniqueMobile(), displayName: '陌生人' } };
    const page = await newPage(await browser(), baseUrl());
    await signInThroughProvider(page);
    await page.waitForURL('**/entry/login/sso/callback**');
    await expect.poll(() => page.getByText('单点登录失败').count()).toBe(1);
    expect(await page.getByText('该身份在本组织中没有对应的用户，请联系管理员').count()).toBe(1);
    await screenshot(page, 'saml-04-unknown-user');
  });
});
