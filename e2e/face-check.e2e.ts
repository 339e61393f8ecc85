import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from 'playwright-core';
import { facePicture, startTencentFaceFake, TENCENT, type TencentFaceFake } from '../packages/server/test/tencent-face-fake.ts';
import { screenshot } from './browser.ts';
import { api, appWithPublishedForm, engineWithAdmin, memberPage, pageOf, type Admin } from './fixtures.ts';

/**
 * Issue 44, face check (docs/decisions/0123 "Face check"), on the phone layout: the face plugin is installed pointing
 * at a fake Tencent Cloud face API (which checks the TC3-HMAC-SHA256 signature of every call); the administrator
 * uploads the member's face photo on the member's details in the organisation page; the member fills a form on a
 * phone, takes a photo of someone else (比对未通过 · 相似度 12), then of themselves (比对通过 · 相似度 88), submits,
 * and the record shows the person and the score.
 */
const eventually = <T>(read: () => T | Promise<T>) => expect.poll(read, { timeout: 20_000 });
const APP = { code: 'attend', displayName: '考勤打卡' };
const FORM = { code: 'site_sign', displayName: '现场签到' };
const PHONE = { width: 390, height: 844 };

let fake: TencentFaceFake;
let admin: Admin;
let member: Admin & { userId: string };
let phone: Page;

beforeAll(async () => {
  fake = await startTencentFaceFake();
  admin = await engineWithAdmin({ userName: '韩梅', engineName: '青松物业有限公司' });
  await appWithPublishedForm(admin, {
    app: APP,
    form: FORM,
    controls: [
      { type: 'textBox', code: 'Site', options: { displayName: '签到地点' } },
      { type: 'faceRecognition', code: 'Face', options: { displayName: '刷脸签到' } },
    ],
  });
  await api(admin, 'POST', '/v1/plugin/install', {
    code: 'face',
    settings: { endpoint: fake.url, region: TENCENT.region, secretId: TENCENT.secretId, threshold: 80 },
    secrets: { secretKey: TENCENT.secretKey },
  });
  const signedIn = await memberPage(admin, '赵磊', { viewport: PHONE });
  member = signedIn.member;
  phone = signedIn.page;
  await api(admin, 'POST', '/v1/functionnode/auth/set', { code: APP.code, unitId: member.userId, permission: 'access' });
});
afterAll(() => fake?.close());

describe('face check on the phone', () => {
  it('the administrator stores the member’s face photo on the member’s details', async () => {
    const page = await pageOf(admin);
    await page.goto('/admin/org');
    await page.getByRole('button', { name: '编辑 赵磊' }).click();
    const editor = page.getByRole('dialog', { name: '编辑成员' });
    const section = editor.getByTestId('face-photo-section');
    await eventually(() => section.getByText('未留存').count()).toBe(1);
    await section.getByTestId('face-photo-input').setInputFiles({ name: '赵磊.png', mimeType: 'image/png', buffer: facePicture('zhaolei', 0) });
    await eventually(() => section.getByText(/^已留存（/).count()).toBe(1);
    await expect.poll(() => page.locator('.ant-message-notice').count(), { timeout: 10_000 }).toBe(0);
    await section.scrollIntoViewIfNeeded();
    await screenshot(page, 'face-check-1-photo-stored');
    const stored = await api<{ hasPhoto: boolean }>(admin, 'GET', `/v1/facecheck/photo?userId=${member.userId}`);
    expect(stored.hasPhoto).toBe(true);
  });

  it('a photo of someone else fails; the member’s own passes, and the record shows the person and the score', async () => {
    await phone.goto(`/form/open/${FORM.code}`);
    const form = phone.getByRole('form', { name: FORM.displayName });
    const field = (name: string) => form.getByRole('group', { name, exact: true });
    await field('签到地点').getByRole('textbox').fill('三号楼大堂');
    const face = field('刷脸签到');
    await eventually(() => face.getByRole('button', { name: /拍照比对/ }).count()).toBe(1);
    expect(await face.getByTestId('face-input').getAttribute('capture')).toBe('user');
    await screenshot(phone, 'face-check-2-phone-form');

    await face.getByTestId('face-input').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: facePicture('stranger') });
    await eventually(() => face.getByText('比对未通过 · 相似度 12', { exact: false }).count()).toBe(1);
    await eventually(() => face.getByRole('button', { name: /重新比对/ }).count()).toBe(1);
    await screenshot(phone, 'face-check-3-failed');

    await face.getByTestId('face-input').setInputFiles({ name: 'photo.png', mimeType: 'image/png', buffer: facePicture('zhaolei', 40) });
    await eventually(() => face.getByText(/比对通过 · 相似度 88（赵磊）/).count()).toBe(1);
    await screenshot(phone, 'face-check-4-passed');
    expect(fake.calls.map((c) => c.score)).toEqual([12, 88]);

    await phone.getByRole('button', { name: '提交', exact: true }).click();
    await eventually(() => phone.getByText('已提交').count()).toBeGreaterThan(0);
    await eventually(() => field('刷脸签到').getByText('赵磊 · 相似度 88').count()).toBe(1);
    await screenshot(phone, 'face-check-5-record');
    const list = await api<{ list: { ObjectId: string; Face: string }[] }>(admin, 'POST', '/v1/bizdata/query', { schemaCode: FORM.code });
    expect(list.list).toHaveLength(1);
  });
});
