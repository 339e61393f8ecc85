import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, newPage, screenshot } from './browser.ts';

/**
 * Issue #17 (hardening), must show: a validation error from the API rendered in Chinese, then in English after the
 * language switch — here a password pasted with a NUL character, which the server's edge refuses (docs/decisions/0028).
 */
let browser: Browser;
let page: Page;
const mobile = `136${String(Date.now()).slice(-8)}`;

beforeAll(async () => {
  browser = await launchBrowser();
  page = await newPage(browser, inject('baseUrl'));
});
afterAll(() => browser?.close());

const fieldError = (p: Page, text: string) => p.locator('.ant-form-item-explain-error').filter({ hasText: text });

describe('validation messages in the user language', () => {
  it('shows the server field error in Chinese, then in English', async () => {
    await page.goto('/entry/');
    await page.getByRole('tab', { name: '密码登录' }).click();
    await page.getByLabel('手机号').fill(mobile);
    await page.getByLabel('密码', { exact: true }).fill('Pass\u0000word1');
    await page.getByRole('button', { name: '登录', exact: true }).click();
    await expect.poll(() => fieldError(page, '不能包含空字符（U+0000）').count()).toBe(1);
    // No English text of the validation library on the Chinese screen.
    expect(await page.getByText(/Invalid input|expected/).count()).toBe(0);
    await screenshot(page, 'validation-zh');

    await page.getByText('English', { exact: true }).click();
    await expect.poll(() => page.getByRole('button', { name: 'Sign in', exact: true }).count()).toBe(1);
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('Pass\u0000word2');
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect.poll(() => fieldError(page, 'Must not contain the NUL character (U+0000)').count()).toBe(1);
    expect(await fieldError(page, '不能包含空字符').count()).toBe(0);
    await screenshot(page, 'validation-en');
  });
});
