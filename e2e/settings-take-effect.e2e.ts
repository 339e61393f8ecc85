import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { screenshot } from './browser.ts';
import { api, appWithForms, baseUrl, engineWithAdmin, memberPage, pageOf, publish, uniqueMobile, type Admin } from './fixtures.ts';
import { E2E_CODE } from './global-setup.ts';
import { call } from './session.ts';

/**
 * Issue 48 (docs/decisions/0115), must show: a PC form opens as its container mode says (Modal, Drawer, its own page);
 * a form switched off on the PC or on the phone leaves that device's workbench and its record says so there; an
 * AppCreator creates an app from the workbench and builds in it.
 */
let admin: Admin;
let adminPage: Page;
const controls = [{ type: 'textBox', code: 'Title', options: { displayName: '标题' } }];
const forms = [
  { code: 'inModal', displayName: '弹窗表单', containerMode: 'Modal' },
  { code: 'inDrawer', displayName: '抽屉表单', containerMode: 'Drawer' },
  { code: 'onPage', displayName: '页面表单', containerMode: 'Specified' },
  { code: 'phoneOnly', displayName: '手机表单', pcVisible: false },
  { code: 'pcOnly', displayName: '电脑表单', mobileVisible: false },
];
let phoneOnlyRecord: string;

beforeAll(async () => {
  admin = await engineWithAdmin({ userName: '顾青', engineName: '青禾设备有限公司' });
  await appWithForms(admin, { code: 'ops', displayName: '运营管理' }, forms.map(({ code, displayName }) => ({ code, displayName })));
  for (const { code, ...attributes } of forms) await publish(admin, code, { attributes, controls });
  phoneOnlyRecord = (await api<{ objectId: string }>(admin, 'POST', '/v1/form/action/execute', { schemaCode: 'phoneOnly', actionCode: 'Submit', values: { Title: '手机数据' } })).objectId;
  adminPage = await pageOf(admin);
});

describe('settings take effect in the browser', () => {
  const form = (page: Page, name: string) => page.getByRole('form', { name });
  const addOn = async (page: Page, code: string) => {
    await page.goto(`/workbench/app/ops/${code}`);
    await page.getByRole('button', { name: /新增/ }).first().click();
  };

  it('opens each PC form as its container mode says', async () => {
    await addOn(adminPage, 'inModal');
    await expect.poll(() => adminPage.locator('.ant-modal').getByRole('form', { name: '弹窗表单' }).count()).toBe(1);
    await screenshot(adminPage, 'settings-1-modal');

    await addOn(adminPage, 'inDrawer');
    await expect.poll(() => adminPage.locator('.ant-drawer-right').getByRole('form', { name: '抽屉表单' }).count()).toBe(1);
    expect(await adminPage.locator('.ant-modal').count()).toBe(0);
    await screenshot(adminPage, 'settings-2-drawer');

    await addOn(adminPage, 'onPage');
    await adminPage.waitForURL('**/form/open/onPage');
    await expect.poll(() => form(adminPage, '页面表单').count()).toBe(1);
    expect(await adminPage.locator('.ant-modal, .ant-drawer').count()).toBe(0);
    await screenshot(adminPage, 'settings-3-page');
  });

  it('hides a form from the workbench of the device it is switched off on', async () => {
    const { member, page } = await memberPage(admin, '林舟');
    await api(admin, 'POST', '/v1/functionnode/auth/set', { code: 'ops', unitId: member.userId, permission: 'access' });
    const tree = page.getByRole('navigation', { name: '功能菜单' });
    await page.goto('/workbench/app/ops');
    await expect.poll(() => tree.getByText('电脑表单', { exact: true }).count()).toBe(1);
    // Polled: the first paint may still be settling on the device's layout.
    await expect.poll(() => tree.getByText('手机表单', { exact: true }).count()).toBe(0);
    await screenshot(page, 'settings-4-pc-tree');
    await page.goto(`/form/open/phoneOnly/${phoneOnlyRecord}`);
    await expect.poll(() => page.getByText('此表单未在电脑端启用，请在手机上打开').count()).toBe(1);

    const phone = await pageOf(member, { width: 390, height: 844 });
    await phone.goto('/workbench/app/ops');
    await expect.poll(() => phone.getByText('手机表单', { exact: true }).count()).toBe(1);
    await expect.poll(() => phone.getByText('电脑表单', { exact: true }).count()).toBe(0);
    await screenshot(phone, 'settings-5-phone-app');
    await phone.goto(`/form/open/phoneOnly/${phoneOnlyRecord}`);
    await expect.poll(() => form(phone, '手机表单').count()).toBe(1);
  });

  it('lets an AppCreator create an app and build in it', async () => {
    const mobile = uniqueMobile();
    const company = await api<{ id: string }>(admin, 'GET', '/v1/org/department');
    await api(admin, 'POST', '/v1/org/user/create', { name: '韩初', mobile, departmentIds: [company.id], authType: 6 });
    await fetch(`${baseUrl()}/v1/captcha/verifycode/send`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ mobile, scene: 'login' }) });
    const signedIn = await call<{ accessToken: string; engineCode: string }>(baseUrl(), null, 'GET', `/v1/login/mobile/verifycode?mobile=${mobile}&code=${E2E_CODE}`);
    const page = await pageOf({ token: signedIn.accessToken, engineCode: signedIn.engineCode });
    await page.goto('/workbench');
    const apps = page.getByRole('navigation', { name: '应用列表' });
    await apps.getByRole('button', { name: '新建应用' }).click();
    const dialog = page.getByRole('dialog', { name: '新建应用' });
    await dialog.getByLabel('名称').fill('巡检记录');
    await dialog.getByLabel('编码').fill('patrol');
    await dialog.getByRole('button', { name: '确定' }).click();
    await page.waitForURL('**/workbench/app/patrol');
    await page.getByRole('button', { name: '新建功能' }).click();
    await page.getByRole('menuitem', { name: '表单', exact: true }).click();
    const formDialog = page.getByRole('dialog', { name: '新建表单' });
    await formDialog.getByLabel('名称').fill('巡检单');
    await formDialog.getByRole('button', { name: '确定' }).click();
    await page.waitForURL('**/form/designer?schemaCode=*');
    await expect.poll(() => page.getByText('巡检单').count()).toBeGreaterThan(0);
    await screenshot(page, 'settings-6-app-creator-designer');
    const administered = await api<{ codes: string[] }>({ token: signedIn.accessToken, engineCode: signedIn.engineCode }, 'GET', '/v1/functionnode/app/hascode/list');
    expect(administered.codes).toEqual(['patrol']);
  });
});
