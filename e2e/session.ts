import { expect } from 'vitest';
import type { Browser, Page } from 'playwright-core';
import { E2E_CODE } from './global-setup.ts';
import { newPage } from './browser.ts';

/** An engine's administrator as the scenarios use them: the token and engine code of their session. */
export interface Admin {
  token: string;
  engineCode: string;
}

/** One call of the platform's API as `who`; fails the scenario on an error answer. */
export async function call<T>(baseUrl: string, who: Admin | null, method: 'GET' | 'POST', path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${baseUrl}${path}`, {
    method,
    headers: { 'Content-Type': 'application/json', ...(who ? { Authorization: `Bearer ${who.token}`, EngineCode: who.engineCode } : {}) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = (await response.json()) as { successful: boolean; data: T; errorMessage?: string };
  expect(json.successful, `${method} ${path}: ${json.errorMessage ?? ''}`).toBe(true);
  return json.data;
}

/** Registers a new engine (the fixed verification code of the test platform) and answers its administrator. */
export async function registerEngine(baseUrl: string, mobile: string, userName: string, engineName: string): Promise<Admin> {
  await fetch(`${baseUrl}/v1/captcha/verifycode/send`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ mobile, scene: 'register' }) });
  const registered = await call<{ accessToken: string; engineCode: string }>(baseUrl, null, 'POST', '/v1/register/engine', {
    mobile, code: E2E_CODE, password: 'Hetang2026', userName, engineName, scale: '21-50',
  });
  return { token: registered.accessToken, engineCode: registered.engineCode };
}

/** A page signed in as `who` (the session cookies the web app reads). */
export async function signedInPage(browser: Browser, baseUrl: string, who: Admin, viewport?: { width: number; height: number }): Promise<Page> {
  const page = await newPage(browser, baseUrl, viewport);
  await page.context().addCookies([
    { name: 'access-token', value: who.token, url: baseUrl },
    { name: 'engine', value: who.engineCode, url: baseUrl },
  ]);
  return page;
}

/** A member added by `admin` and signed in by code (their first sign-in makes their account): session and user id. */
export async function memberSession(baseUrl: string, admin: Admin, name: string, mobile: string): Promise<Admin & { userId: string }> {
  const company = await call<{ id: string }>(baseUrl, admin, 'GET', '/v1/org/department');
  const user = await call<{ id: string }>(baseUrl, admin, 'POST', '/v1/org/user/create', { name, mobile, departmentIds: [company.id] });
  await fetch(`${baseUrl}/v1/captcha/verifycode/send`, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ mobile, scene: 'login' }) });
  const signedIn = await call<{ accessToken: string; engineCode: string }>(baseUrl, null, 'GET', `/v1/login/mobile/verifycode?mobile=${mobile}&code=${E2E_CODE}`);
  return { token: signedIn.accessToken, engineCode: signedIn.engineCode, userId: user.id };
}
