import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { rsaKeyPair, startAlipayFake, type AlipayFake } from '../packages/server/test/alipay-fake.ts';
import { screenshot } from './browser.ts';
import { api, appWithPublishedForm, baseUrl, engineWithAdmin, memberPage, pageOf, type Admin } from './fixtures.ts';

/**
 * Issue 44 (docs/decisions/0123, payment), must show: the payment plugin installed with a fake Alipay gateway (which
 * checks every signature), a form with an amount and a payment control; a member opens their record, presses 发起支付,
 * the QR code shows; the fake pays and posts its signed notify to the platform; the record shows 已支付. A refund of
 * part of it shows 部分退款; a forged notify is refused and changes nothing. The administrator adds the automation
 * payment step in the designer (the attendance step's card is shown beside it once that plugin is installed).
 */
const APP = { code: 'members', displayName: '会员中心' };
const FORM = { code: 'dues', displayName: '会员缴费' };

let admin: Admin;
let page: Page;
let member: Admin & { userId: string };
let fake: AlipayFake;
let objectId: string;
const keys = rsaKeyPair();

beforeAll(async () => {
  fake = await startAlipayFake({ appPublicKey: keys.publicKey });
  admin = await engineWithAdmin({ userName: '沈墨', engineName: '青禾健身俱乐部' });
  await api(admin, 'POST', '/v1/plugin/install', {
    code: 'payment',
    settings: { gatewayUrl: fake.gatewayUrl, appId: fake.appId, platformPublicKey: fake.platformPublicKey },
    secrets: { privateKey: keys.privateKey },
  });
  await appWithPublishedForm(admin, {
    app: APP,
    form: FORM,
    controls: [
      { type: 'textBox', code: 'Title', options: { displayName: '缴费项目' } },
      { type: 'number', code: 'Amount', options: { displayName: '金额', decimalPlaces: 2 } },
      { type: 'plugin', code: 'Pay', options: { displayName: '在线支付', pluginCode: 'payment', pluginSettings: { amountField: 'Amount', subjectField: 'Title' } } },
    ],
  });
  const opened = await memberPage(admin, '林知夏');
  member = opened.member as Admin & { userId: string };
  page = opened.page;
  await api(admin, 'POST', '/v1/functionnode/auth/set', { code: APP.code, unitId: member.userId, permission: 'access' });
  objectId = (await api<{ objectId: string }>(member, 'POST', '/v1/form/action/execute', { schemaCode: FORM.code, actionCode: 'Submit', values: { Title: '年卡会费', Amount: 88.8 } })).objectId;
});
afterAll(() => fake?.close());

/** The record opens to be read; its owner presses 编辑, where the control's actions are. */
async function openForEdit() {
  await page.goto(`/form/open/${FORM.code}/${objectId}`);
  await page.getByRole('button', { name: /编\s*辑/ }).click();
}
const stateTag = () => page.getByTestId('payment-state');
const payValue = async () => (await api<{ values: Record<string, any> }>(member, 'POST', '/v1/form/loaddata', { schemaCode: FORM.code, objectId })).values.Pay;

describe('a member pays for a record by QR code', () => {
  it('presses 发起支付 and sees the QR code of the record’s amount', async () => {
    await openForEdit();
    await expect.poll(() => stateTag().textContent(), { timeout: 30_000 }).toBe('未支付');
    await page.getByRole('button', { name: '发起支付' }).click();
    const dialog = page.getByRole('dialog', { name: '扫码支付' });
    await expect.poll(() => dialog.getByTestId('payment-qr').count()).toBe(1);
    await expect.poll(() => dialog.getByText('¥88.80').count()).toBe(1);
    expect(fake.calls.at(-1)).toEqual({ method: 'alipay.trade.precreate', verified: true });
    await screenshot(page, 'payment-1-qr-dialog');
  });

  it('the provider pays and calls back: the dialog closes and the record shows 已支付', async () => {
    const orderNo = [...fake.trades.keys()].at(-1)!;
    const delivered = await fake.pay(orderNo);
    expect(delivered).toEqual({ status: 200, text: 'success' });
    await expect.poll(() => page.getByRole('dialog', { name: '扫码支付' }).count(), { timeout: 15_000 }).toBe(0);
    await expect.poll(() => stateTag().textContent()).toBe('已支付');
    await expect.poll(() => page.getByText('实付 ¥88.80').count()).toBe(1);
    expect(await payValue()).toMatchObject({ orderNo, state: 'TRADE_SUCCESS', paidAmount: '88.80' });
    await expect.poll(() => page.locator('.ant-message-notice').count(), { timeout: 10_000 }).toBe(0);
    await screenshot(page, 'payment-2-paid');
  });

  it('a forged notify is refused and changes nothing', async () => {
    const orderNo = [...fake.trades.keys()].at(-1)!;
    const forged = { ...fake.notifyOf(orderNo), trade_status: 'TRADE_CLOSED' };
    const answer = await fetch(`${baseUrl()}/v1/payment/notify/${admin.engineCode}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams(forged).toString() });
    expect(answer.status).toBe(400);
    expect(await answer.text()).not.toBe('success');
    expect(await payValue()).toMatchObject({ state: 'TRADE_SUCCESS', refundedAmount: '0.00' });
  });

  it('the record’s owner refunds part of it: 部分退款', async () => {
    await openForEdit();
    await expect.poll(() => stateTag().textContent(), { timeout: 30_000 }).toBe('已支付');
    await page.getByRole('button', { name: '退款' }).click();
    const dialog = page.getByRole('dialog', { name: '退款' });
    await dialog.getByLabel('退款金额（元）').fill('20');
    await dialog.getByLabel('退款原因').fill('少上一节课');
    await screenshot(page, 'payment-3-refund-dialog');
    await dialog.getByRole('button', { name: /退\s*款/ }).click();
    await expect.poll(() => stateTag().textContent()).toBe('部分退款');
    await expect.poll(() => page.getByText('已退 ¥20.00').count()).toBe(1);
    expect(await payValue()).toMatchObject({ state: 'TRADE_SUCCESS', refundedAmount: '20.00' });
    expect([...fake.trades.values()].at(-1)!.refunds.size).toBe(1);
    await expect.poll(() => page.locator('.ant-message-notice').count(), { timeout: 10_000 }).toBe(0);
    await screenshot(page, 'payment-4-refunded');
  });

  it('the administrator adds the payment step to an automation in the designer and saves it', async () => {
    await api(admin, 'POST', '/v1/plugin/install', { code: 'attendance', settings: { platform: 'dingtalk' } });
    const adminPage = await pageOf(admin);
    await adminPage.goto(`/form/automation/${FORM.code}`);
    await adminPage.getByRole('button', { name: /新建自动化/ }).first().click();
    const drawer = adminPage.getByRole('dialog');
    await drawer.getByLabel('自动化名称').fill('缴费提交后发起支付');
    await drawer.getByRole('button', { name: /添加动作/ }).click();
    await adminPage.getByRole('menuitem', { name: '支付' }).click();
    const pay = drawer.getByRole('group', { name: '1. 支付' });
    await pay.getByLabel('支付控件').click();
    await adminPage.getByTitle('在线支付', { exact: true }).click();
    await screenshot(adminPage, 'payment-5-automation-step');

    await drawer.getByRole('button', { name: /添加动作/ }).click();
    await adminPage.getByRole('menuitem', { name: '考勤' }).click();
    const attendance = drawer.getByRole('group', { name: '2. 考勤' });
    await attendance.getByLabel('目标表单').click();
    await adminPage.getByTitle(`${FORM.displayName}（${FORM.code}）`).click();
    await attendance.getByText('最近 N 天').click();
    await attendance.getByText('指定部门（含下级部门）').click();
    await attendance.scrollIntoViewIfNeeded();
    await screenshot(adminPage, 'payment-6-attendance-step');
    await attendance.getByRole('button', { name: '删除动作' }).click();

    await drawer.getByRole('button', { name: /保存/ }).click();
    await expect.poll(() => adminPage.getByText('已保存').count(), { timeout: 15_000 }).toBeGreaterThan(0);
    const saved = (await api<{ automations: { name: string; steps: unknown[] }[] }>(admin, 'POST', '/v1/automatic/list', { schemaCode: FORM.code })).automations;
    expect(saved).toMatchObject([{ name: '缴费提交后发起支付', steps: [{ id: 'S1', type: 'payment', settings: { controlCode: 'Pay' } }] }]);
  });
});
