import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, screenshot } from './browser.ts';
import { api, appWithForms, appWithPublishedForm, baseUrl, browser, engineWithAdmin, memberPage, pageOf, pickInOrgPicker, uniqueMobile, until, type Admin } from './fixtures.ts';
import { E2E_CODE } from './global-setup.ts';
import { memberSession } from './session.ts';

/**
 * Issue 19 (docs/decisions/0037, 0043, 0056), must show: the administrator grants a group "own department, amount
 * hidden, no export" in the designer's 表单权限 and previews the list and a record as a member sees them; the member
 * sees exactly that; an anonymous visitor fills the form's public link (as the member, so without the amount); an
 * open-query page answers a visitor who proves their mobile number with a code.
 */
let admin: Admin;
let adminPage: Page;
let member: Admin & { userId: string };
let memberView: Page;
const clientPhone = uniqueMobile();

beforeAll(async () => {
  admin = await engineWithAdmin({ userName: '孙岚', engineName: '远帆贸易有限公司' });
  await appWithPublishedForm(admin, {
    app: { code: 'crm', displayName: '客户管理' },
    form: { code: 'deals', displayName: '商机' },
    controls: [
      { type: 'textBox', code: 'Client', options: { displayName: '客户' } },
      { type: 'number', code: 'Amount', options: { displayName: '金额' } },
      { type: 'textBox', code: 'Note', options: { displayName: '备注' } },
      { type: 'textBox', code: 'Phone', options: { displayName: '联系手机' } },
    ],
  });
  const company = await api<{ id: string }>(admin, 'GET', '/v1/org/department');
  const sales = await api<{ id: string }>(admin, 'POST', '/v1/org/department/create', { parentId: company.id, name: '华南销售部' });
  ({ member, page: memberView } = await memberPage(admin, '王芳'));
  await api(admin, 'POST', '/v1/org/user/update', { id: member.userId, departmentIds: [sales.id], mainDepartmentId: sales.id });
  await api(admin, 'POST', '/v1/functionnode/auth/set', { code: 'crm', unitId: member.userId, permission: 'access' });
  for (const [who, client, amount] of [[admin, '总部客户甲', 900], [admin, '总部客户乙', 700], [member, '华南客户丙', 300], [member, '华南客户丁', 500]] as const) {
    await api(who, 'POST', '/v1/form/action/execute', { schemaCode: 'deals', actionCode: 'Submit', values: { Client: client, Amount: amount, Note: '年度', Phone: client === '华南客户丙' ? clientPhone : null } });
  }
  adminPage = await pageOf(admin);
});

/** Ticks one unit in an open picker dialog after searching for it. */

describe('form permissions in the browser', () => {
  it('the administrator grants a department "own department, amount hidden, no export" and previews a member', async () => {
    await adminPage.goto('/form/designer?schemaCode=deals');
    await adminPage.getByRole('button', { name: '表单权限' }).click();
    const drawer = adminPage.getByRole('dialog', { name: '表单权限' });
    await expect.poll(() => drawer.getByText('还没有权限组').count()).toBe(1);
    await drawer.getByRole('button', { name: '新建权限组' }).click();
    const editor = adminPage.getByRole('dialog', { name: '新建权限组' });
    await editor.getByLabel('权限组名称').fill('华南销售');
    await editor.getByLabel('部门', { exact: true }).click();
    await pickInOrgPicker(adminPage.getByRole('dialog', { name: '选择部门' }), '华南销售部');
    await expect.poll(() => editor.getByText('华南销售部').count()).toBeGreaterThan(0);
    await editor.getByLabel('查看范围').click();
    await adminPage.locator('.ant-select-dropdown:visible').getByText('本部门', { exact: true }).click();
    await editor.getByRole('radiogroup', { name: '金额' }).getByText('隐藏').click();
    await screenshot(adminPage, 'permission-1-group-editor');
    await editor.getByRole('button', { name: '保存' }).click();
    await expect.poll(() => drawer.getByText('华南销售', { exact: true }).count()).toBe(1);
    await expect.poll(() => drawer.getByText('金额（隐藏）').count()).toBe(1);
    await drawer.getByLabel('以成员身份预览').click();
    await pickInOrgPicker(adminPage.getByRole('dialog', { name: '选择人员' }), '王芳');
    // The preview is her own list and record as the server answers them: her department only, no amount.
    const rights = drawer.getByLabel('该成员的权限');
    await expect.poll(() => rights.getByText('本部门').count()).toBe(1);
    expect(await rights.getByText('导出').count()).toBe(0);
    const list = drawer.getByRole('table', { name: '王芳 看到的列表（共 2 条）' });
    await expect.poll(() => list.getByRole('cell', { name: '华南客户丙' }).count()).toBe(1);
    expect(await list.getByRole('cell', { name: '总部客户甲' }).count()).toBe(0);
    expect(await list.getByRole('columnheader', { name: '金额' }).count()).toBe(0);
    await list.getByRole('cell', { name: '华南客户丙' }).click();
    const record = drawer.getByLabel('王芳 看到的这条数据');
    await expect.poll(() => record.getByText('华南客户丙').count()).toBe(1);
    expect(await record.getByText('金额').count()).toBe(0);
    await record.scrollIntoViewIfNeeded();
    await screenshot(adminPage, 'permission-2-drawer-preview');
  });

  it('the administrator grants a second member access to the form in 应用权限', async () => {
    const lei = await memberSession(baseUrl(), admin, '李雷', uniqueMobile());
    const opens = () => fetch(`${baseUrl()}/v1/form/permission/mine`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', Authorization: `Bearer ${lei.token}`, EngineCode: lei.engineCode },
      body: JSON.stringify({ schemaCode: 'deals' }),
    }).then(async (r) => (await r.json()) as { successful: boolean });
    expect((await opens()).successful).toBe(false);
    await adminPage.goto('/workbench/app/crm');
    await adminPage.getByRole('button', { name: '「客户管理」的操作' }).click();
    await adminPage.getByRole('menuitem', { name: '应用权限' }).click();
    const drawer = adminPage.getByRole('dialog', { name: '应用权限：客户管理' });
    await drawer.getByLabel('节点').click();
    await adminPage.locator('.ant-select-dropdown:visible').getByText('商机', { exact: true }).click();
    await drawer.getByLabel('选择要授权的人员').click();
    await pickInOrgPicker(adminPage.getByRole('dialog', { name: '选择人员' }), '李雷');
    await drawer.getByRole('button', { name: /授权$/ }).click();
    await expect.poll(() => drawer.getByRole('cell', { name: '李雷', exact: true }).count()).toBe(1);
    await screenshot(adminPage, 'permission-5-app-permissions');
    expect((await opens()).successful).toBe(true);
    await adminPage.keyboard.press('Escape');
  });

  it('a sub-administrator given 管理员 on the app in 应用权限 administers that app and no other', async () => {
    await appWithForms(admin, { code: 'hr', displayName: '人事管理' }, [{ code: 'staff', displayName: '员工' }]);
    const { member: sub, page: subPage } = await memberPage(admin, '韩梅');
    await api(admin, 'POST', '/v1/org/user/update', { id: sub.userId, authType: 2 });
    await api(admin, 'POST', '/v1/functionnode/auth/set', { code: 'hr', unitId: sub.userId, permission: 'access' });
    await adminPage.goto('/workbench/app/crm');
    await adminPage.getByRole('button', { name: '「客户管理」的操作' }).click();
    await adminPage.getByRole('menuitem', { name: '应用权限' }).click();
    const drawer = adminPage.getByRole('dialog', { name: '应用权限：客户管理' });
    await drawer.getByLabel('选择要授权的人员').click();
    await pickInOrgPicker(adminPage.getByRole('dialog', { name: '选择人员' }), '韩梅');
    await drawer.getByLabel('权限', { exact: true }).click();
    await adminPage.locator('.ant-select-dropdown:visible').getByText('管理员', { exact: true }).click();
    await drawer.getByRole('button', { name: /授权$/ }).click();
    await expect.poll(() => drawer.getByRole('cell', { name: '韩梅', exact: true }).count()).toBe(1);
    await screenshot(adminPage, 'permission-5b-sub-administrator');
    await adminPage.keyboard.press('Escape');
    // Through the API: the admin-app codes and the sub-administrator's app list name this app only.
    expect(await api(sub, 'GET', '/v1/functionnode/app/hascode/list')).toEqual({ codes: ['crm'], isAdministrator: false });
    expect((await api<{ list: { code: string }[] }>(sub, 'GET', '/v1/functionnode/app/subadminapplist')).list.map((a) => a.code)).toEqual(['crm']);
    // In the browser: the app's menu for 客户管理, none for 人事管理 (which she only opens).
    // As the app's administrator she sees every record of its form (no group names her) and may design it.
    await subPage.goto('/workbench/app/crm/deals');
    await expect.poll(() => subPage.getByText('总部客户甲', { exact: true }).count()).toBeGreaterThan(0);
    expect(await subPage.getByRole('button', { name: '设计表单' }).count()).toBe(1);
    expect(await subPage.getByRole('button', { name: '「客户管理」的操作' }).count()).toBe(1);
    expect(await subPage.getByText('人事管理').count()).toBeGreaterThan(0);
    expect(await subPage.getByRole('button', { name: '「人事管理」的操作' }).count()).toBe(0);
    await screenshot(subPage, 'permission-5c-sub-administrator-apps');
  });

  it('the member sees only her department\'s records, no amount and no export', async () => {
    await memberView.goto('/workbench/app/crm/deals');
    // The record's title and its 客户 column both show the client.
    await expect.poll(() => memberView.getByRole('cell', { name: '华南客户丙' }).count()).toBeGreaterThan(0);
    expect(await memberView.getByRole('cell', { name: '华南客户丁' }).count()).toBeGreaterThan(0);
    expect(await memberView.getByRole('cell', { name: '总部客户甲' }).count()).toBe(0);
    expect(await memberView.getByRole('columnheader', { name: '金额' }).count()).toBe(0);
    // The buttons follow her rights once they are read: 新增 shows, 导出 and 导入 do not.
    await expect.poll(() => memberView.getByRole('button', { name: '新增' }).count()).toBeGreaterThan(0);
    expect(await memberView.getByRole('button', { name: '导出', exact: true }).count()).toBe(0);
    expect(await memberView.getByRole('button', { name: '导入', exact: true }).count()).toBe(0);
    await screenshot(memberView, 'permission-3-member-list');
    // The record opens without the amount; the administrator's list still shows it.
    await memberView.getByRole('cell', { name: '华南客户丙' }).first().click();
    const form = memberView.getByRole('dialog');
    await expect.poll(() => form.getByText('华南客户丙').count()).toBeGreaterThan(0);
    expect(await form.getByText('金额').count()).toBe(0);
    await screenshot(memberView, 'permission-4-member-record');
    await adminPage.goto('/workbench/app/crm/deals');
    await expect.poll(() => adminPage.getByRole('cell', { name: '总部客户甲' }).count()).toBeGreaterThan(0);
    expect(await adminPage.getByRole('columnheader', { name: '金额' }).count()).toBe(1);
  });

  it('an anonymous visitor fills the public link as the member, so without the amount; the record is hers', async () => {
    await api(admin, 'POST', '/v1/form/externalform/save', { schemaCode: 'deals', enabled: true, ownerId: member.userId });
    const { link } = await api<{ link: { path: string } }>(admin, 'POST', '/v1/form/externalform/get', { schemaCode: 'deals' });
    const visitor = await newPage(await browser(), baseUrl(), { width: 390, height: 844 });
    await visitor.goto(link.path);
    const form = visitor.getByRole('form', { name: '商机' });
    await form.getByLabel('客户').fill('访客客户戊');
    expect(await form.getByText('金额').count()).toBe(0);
    await form.getByRole('button', { name: /提\s*交/ }).click();
    await expect.poll(() => visitor.getByText('提交成功，感谢填写！').count(), { timeout: 15_000 }).toBe(1);
    await visitor.close();
    await memberView.reload();
    await expect.poll(() => memberView.getByRole('cell', { name: '访客客户戊' }).count(), { timeout: 15_000 }).toBeGreaterThan(0);
  });

  it('an open-query page answers a visitor who proves their mobile number with a code, and only their record', async () => {
    await api(admin, 'POST', '/v1/form/openquery/save', { schemaCode: 'deals', enabled: true, access: 'identity', mobileField: 'Phone', queryFields: ['Client'], resultFields: ['Client', 'Note'], ownerId: member.userId });
    const { query } = await until('the query page', () => api<{ query: { path: string } | null }>(admin, 'POST', '/v1/form/openquery/get', { schemaCode: 'deals' }), (r) => r.query !== null);
    const visitor = await newPage(await browser(), baseUrl(), { width: 390, height: 844 });
    await visitor.goto(query!.path);
    await visitor.getByLabel('客户').fill('华南客户丙');
    await visitor.getByLabel('手机号').fill(clientPhone);
    await visitor.getByRole('button', { name: '获取验证码' }).click();
    await expect.poll(() => visitor.getByText('验证码已发送').count(), { timeout: 15_000 }).toBe(1);
    await visitor.getByLabel('验证码').fill(E2E_CODE);
    await visitor.getByRole('button', { name: /查\s*询/ }).click();
    const table = visitor.getByRole('table');
    await table.getByText('华南客户丙').waitFor();
    expect(await table.getByText('年度').count()).toBe(1);
    expect(await table.getByText('金额').count()).toBe(0);
    await screenshot(visitor, 'permission-6-open-query-by-mobile');
    await visitor.close();
  });
});
