import { appendFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { inject } from 'vitest';
import { buffer } from 'node:stream/consumers';
import { chromium, type Browser, type Download, type Page } from 'playwright-core';
import { ROOT } from './global-setup.ts';
import { findForeignText } from '../packages/web/src/test/zh-cn-text-check.ts';

export const SCREENSHOT_DIR = path.join(ROOT, 'e2e/screenshots');

/**
 * The run's one Chromium (started by global-setup.ts), connected for this scenario: a scenario's contexts are its own
 * and `close()` ends only them and the connection, never the browser the other scenarios use.
 */
export function launchBrowser(): Promise<Browser> {
  return chromium.connect(inject('browserEndpoint'));
}

/** A page in its own browser context (its own cookies: one person's session). */
export async function newPage(browser: Browser, baseURL: string, viewport = { width: 1280, height: 800 }): Promise<Page> {
  const context = await browser.newContext({ baseURL, viewport, locale: 'zh-CN' });
  const page = await context.newPage();
  page.setDefaultTimeout(15_000);
  return page;
}

/**
 * The whole page as a picture. Not Playwright's `fullPage`: to measure the page, Chromium shrinks the window to 1×1
 * for a moment, which the web app takes for a phone — it switches to the phone layout and back, and an open dialog
 * is lost. The window is made as tall as the page instead (its width, hence the layout, stays), then put back.
 */
export async function screenshot(page: Page, name: string): Promise<void> {
  mkdirSync(SCREENSHOT_DIR, { recursive: true });
  await noteForeignText(page, name);
  const file = path.join(SCREENSHOT_DIR, `${name}.png`);
  const viewport = page.viewportSize();
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  if (!viewport || height <= viewport.height) return void (await page.screenshot({ path: file }));
  await page.setViewportSize({ width: viewport.width, height });
  try {
    await page.screenshot({ path: file });
  } finally {
    await page.setViewportSize(viewport);
  }
}

/** A download's bytes (the browser runs in a process of its own: `download.path()` is not available, a stream is). */
export async function downloaded(download: Download): Promise<Buffer> {
  return buffer(await download.createReadStream());
}

/** Latin words and foreign dates on a zh-CN screen, noted beside the screenshots (foreign-text.txt). */
async function noteForeignText(page: Page, name: string): Promise<void> {
  const { lang, text } = await page.evaluate(() => ({ lang: document.documentElement.lang, text: document.body?.innerText ?? '' }));
  if (!lang.startsWith('zh')) return;
  const found = findForeignText(text);
  if (found.length) appendFileSync(path.join(SCREENSHOT_DIR, 'foreign-text.txt'), `${name}: ${JSON.stringify(found)}\n`);
}
