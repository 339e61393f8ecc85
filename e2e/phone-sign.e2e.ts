import { beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { newPage, screenshot } from './browser.ts';
import { api as callAs, appWithPublishedForm, baseUrl, browser, engineWithAdmin, pageOf, type Admin } from './fixtures.ts';

/**
 * Signing on the phone (issue 48, docs/decisions/0114): a PC user opens a record with a hand-sign field, clicks
 * 手机签名 and reads the link under the QR code; a phone without a session opens it, draws and submits; the PC form
 * shows the signature without a reload; the link, opened again, says it was used.
 */
let page: Page;
let admin: Admin;
let objectId: string;
const api = <T>(method: 'GET' | 'POST', path: string, body?: unknown) => callAs<T>(admin, method, path, body);

beforeAll(async () => {
  admin = await engineWithAdmin({ userName: '顾验收', engineName: '云岭工程有限公司' });
  await appWithPublishedForm(admin, {
    app: { code: 'site', displayName: '工程管理' },
    form: { code: 'acceptance', displayName: '验收单' },
    attributes: { nameSchema: '{Title}' },
    controls: [
      { type: 'textBox', code: 'Title', options: { displayName: '验收项目' } },
      { type: 'handSign', code: 'Sign', options: { displayName: '客户签名' } },
    ],
  });
  objectId = (await api<{ objectId: string }>('POST', '/v1/form/action/execute', { schemaCode: 'acceptance', actionCode: 'Save', values: { Title: '三号楼验收' } })).objectId;
  page = await pageOf(admin, { width: 1440, height: 900 });
});

describe('signing on the phone', () => {
  it('the phone signs through the QR link and the PC form shows the signature without a reload', async () => {
    await page.goto(`/form/open/acceptance/${objectId}?mode=Edit`);
    const field = page.getByRole('group', { name: '客户签名', exact: true });
    // A mark on the page's window: a reload would lose it.
    const marker = await page.evaluate(() => ((window as unknown as { stayed?: number }).stayed = Date.now()));
    await field.getByRole('button', { name: /手机签名/ }).click();
    const dialog = page.getByRole('dialog', { name: '手机签名' });
    await expect.poll(() => dialog.getByRole('img', { name: '签名二维码' }).count(), { timeout: 15_000 }).toBe(1);
    const address = (await dialog.getByLabel('签名链接').innerText()).trim();
    expect(address).toMatch(/\/entry\/sign\/[A-Za-z0-9_-]{43}$/);
    await screenshot(page, 'phone-sign-qr');
    const path = new URL(address).pathname;

    const phone = await newPage(await browser(), baseUrl(), { width: 390, height: 844 });
    await phone.goto(path);
    await expect.poll(() => phone.getByText('顾验收请您签名').count(), { timeout: 15_000 }).toBe(1);
    expect(await phone.getByText('表单：验收单').count()).toBe(1);
    expect(await phone.getByText('签名项：客户签名').count()).toBe(1);
    expect(await phone.getByText('数据：三号楼验收').count()).toBe(1);
    const pad = phone.getByLabel('签名区域');
    const box = (await pad.boundingBox())!;
    await phone.mouse.move(box.x + 30, box.y + 60);
    await phone.mouse.down();
    await phone.mouse.move(box.x + 150, box.y + 120, { steps: 8 });
    await phone.mouse.move(box.x + 280, box.y + 70, { steps: 8 });
    await phone.mouse.up();
    await screenshot(phone, 'phone-sign-pad');
    await phone.getByRole('button', { name: '提交签名' }).click();
    await expect.poll(() => phone.getByText('签名已提交').count(), { timeout: 15_000 }).toBe(1);

    // The PC dialog closes by itself and the field shows the phone's signature; nothing was reloaded.
    await expect.poll(() => field.getByRole('img', { name: '签名图片' }).count(), { timeout: 15_000 }).toBe(1);
    expect(await page.evaluate(() => (window as unknown as { stayed?: number }).stayed)).toBe(marker);
    await expect.poll(() => dialog.count()).toBe(0);
    await screenshot(page, 'phone-sign-pc-filled');

    await page.getByRole('button', { name: /^暂\s*存$/ }).click();
    await expect
      .poll(async () => (await api<{ values: { Sign: { contentType: string } | null } }>('POST', '/v1/form/loaddata', { schemaCode: 'acceptance', objectId })).values.Sign?.contentType, { timeout: 15_000 })
      .toBe('image/png');

    await phone.goto(path);
    await expect.poll(() => phone.getByText('无法使用该签名链接').count(), { timeout: 15_000 }).toBe(1);
    expect(await phone.getByText('该签名链接已使用过，请在电脑上重新生成二维码').count()).toBe(1);
    await screenshot(phone, 'phone-sign-used');
  });
});
