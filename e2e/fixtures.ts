import { expect, inject } from 'vitest';
import type { Browser, Locator, Page } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { call, memberSession, registerEngine, signedInPage, type Admin } from './session.ts';

/**
 * The named steps browser scenarios start from (docs/testing.md "Browser scenarios"): the run's platform and browser,
 * an engine with its administrator, an app with a published form, a signed-in page for anyone. Everything before the
 * screens a scenario is about happens through the API; only sign-in.e2e.ts signs in through the screens. A page gets
 * its session the way the web client keeps it (cookies `access-token` and `engine`).
 */

export type { Admin } from './session.ts';
export const baseUrl = () => inject('baseUrl');

let counter = 0;
const start = Date.now() % 1_000_000;
/**
 * A mobile number no other scenario of the run uses, even one running at the same time in another worker (the
 * worker's process id is part of it).
 */
export function uniqueMobile(): string {
  counter += 1;
  return `19${String(process.pid % 1000).padStart(3, '0')}${String((start + counter) % 1_000_000).padStart(6, '0')}`;
}

let shared: Promise<Browser> | undefined;
/** The run's browser, connected once a scenario (scenarios.ts releases the connection after each one). */
export function browser(): Promise<Browser> {
  shared ??= launchBrowser();
  return shared;
}
/** Lets go of the connection (and closes the scenario's contexts); the browser itself stays for the next scenario. */
export async function releaseBrowser(): Promise<void> {
  const connection = shared;
  shared = undefined;
  if (connection) await (await connection).close();
}

/** One call of the API as `who` (null: anonymous); fails the scenario on an error answer. */
export const api = <T>(who: Admin | null, method: 'GET' | 'POST', path: string, body?: unknown) => call<T>(baseUrl(), who, method, path, body);

/**
 * Waits until `read()` answers something `done` accepts (for hooks: expect.poll works only inside a test). Polls every
 * `intervalMs`; fails with the last answer after `timeoutMs`.
 */
export async function until<V>(what: string, read: () => Promise<V>, done: (value: V) => boolean, { timeoutMs = 60_000, intervalMs = 250 } = {}): Promise<V> {
  const started = Date.now();
  let last: V | undefined;
  while (Date.now() - started < timeoutMs) {
    last = await read();
    if (done(last)) return last;
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
  throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}; last: ${JSON.stringify(last)}`);
}

/** A new engine and its administrator (registered by API with the test platform's fixed code). */
export async function engineWithAdmin(options: { userName?: string; engineName?: string; mobile?: string } = {}): Promise<Admin & { mobile: string }> {
  const mobile = options.mobile ?? uniqueMobile();
  const admin = await registerEngine(baseUrl(), mobile, options.userName ?? '周宁', options.engineName ?? '长风商贸有限公司');
  return { ...admin, mobile };
}

export interface FormSpec {
  app: { code: string; displayName: string };
  form: { code: string; displayName: string };
  /** The form's controls as the designer saves them ({ type, code, options }). */
  controls: unknown[];
  /** Form attributes beside the display name (nameSchema, …). */
  attributes?: Record<string, unknown>;
}

/** An app with one form of the given controls, saved and published: answers the published version. */
export async function appWithPublishedForm(admin: Admin, spec: FormSpec): Promise<{ version: number }> {
  await appWithForms(admin, spec.app, [spec.form]);
  return publish(admin, spec.form.code, { attributes: { displayName: spec.form.displayName, ...spec.attributes }, controls: spec.controls });
}

/** An app (a function node of type 190) and empty forms in it, each { code, displayName }. */
export async function appWithForms(admin: Admin, app: { code: string; displayName: string }, forms: { code: string; displayName: string }[]) {
  await api(admin, 'POST', '/v1/functionnode', { nodeType: 190, code: app.code, displayName: app.displayName });
  for (const form of forms) await api(admin, 'POST', '/v1/functionnode', { nodeType: 200, code: form.code, appCode: app.code, displayName: form.displayName });
}

/** Saves a form's definition ({ attributes, controls }) over its latest draft and publishes it. */
export async function publish(admin: Admin, schemaCode: string, definition: unknown): Promise<{ version: number }> {
  const loaded = await api<{ draft: { version: number } }>(admin, 'POST', '/v1/formdesign/load', { schemaCode });
  const saved = await api<{ version: number }>(admin, 'POST', '/v1/formdesign/save', { schemaCode, baseVersion: loaded.draft.version, definition });
  await api(admin, 'POST', '/v1/formdesign/publish', { schemaCode, version: saved.version, confirm: [] });
  return { version: saved.version };
}

/** A page signed in as `who` in a browser context of its own (its own cookies: a second person beside the first). */
export async function pageOf(who: Admin, viewport = { width: 1440, height: 900 }): Promise<Page> {
  return signedInPage(await browser(), baseUrl(), who, viewport);
}

/** A member of the admin's engine (added to the company, signed in by code) and their own page. */
export async function memberPage(admin: Admin, name: string, options: { mobile?: string; viewport?: { width: number; height: number } } = {}) {
  const member = await memberSession(baseUrl(), admin, name, options.mobile ?? uniqueMobile());
  return { member, page: await pageOf(member, options.viewport) };
}

/** Picks a person or department in an open org picker dialog by searching their name, then confirms. */
export async function pickInOrgPicker(picker: Locator, name: string) {
  await picker.getByLabel('搜索', { exact: true }).fill(name);
  await picker.getByRole('group', { name: '搜索结果' }).getByRole('checkbox', { name: new RegExp(`^${name}`) }).check();
  await expect.poll(() => picker.getByRole('list', { name: '已选列表' }).getByText(name, { exact: true }).count()).toBe(1);
  await picker.getByRole('button', { name: '确定' }).click();
}

/**
 * Picks an engine in the top bar's 切换组织 list. The top bar's badges load beside it and may close the list while it
 * opens, so it is opened again until the pick lands.
 */
export async function switchEngineTo(page: Page, engineName: string) {
  const option = page.getByTitle(engineName, { exact: true });
  await expect
    .poll(async () => {
      if (!(await option.isVisible())) await page.getByLabel('切换组织').click();
      return option.click({ timeout: 2000 }).then(() => true, () => false);
    }, { timeout: 20_000, interval: 500 })
    .toBe(true);
  await expect.poll(() => page.getByText(`已切换到「${engineName}」`).count()).toBeGreaterThan(0);
}
