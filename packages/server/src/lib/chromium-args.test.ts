import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, OMNIBOX_POPUP_FEATURES, PLAYWRIGHT_DISABLED_FEATURES } from './chromium-args.ts';
import { DEFAULT_CHROMIUM_PATH } from '../modules/print/print-pdf.ts';

// Chromium's switches (docs/decisions/0107): Playwright's features stay off, and a new browser context opens no
// address-bar popup of its own.

/** The feature list Playwright passes as `--disable-features`, read from the installed package's source. */
function playwrightsList(): string[] {
  const pkg = createRequire(import.meta.url).resolve('playwright-core/package.json');
  const source = readFileSync(path.join(path.dirname(pkg), 'lib/coreBundle.js'), 'utf8');
  const list = /disabledFeatures = \[([\s\S]*?)\]\.filter\(Boolean\)/.exec(source)?.[1];
  if (!list) throw new Error("Playwright's disabledFeatures list was not found in lib/coreBundle.js: read it again and update chromium-args.ts");
  return [...list.matchAll(/^\s*"([A-Za-z]+)",?\s*(?:\/\/.*)?$/gm)].map((m) => m[1]!);
}

/** The browser UI pages (chrome://) Chromium holds after two contexts have opened a page each. */
async function browserUiAfterTwoContexts(args: string[]): Promise<string[]> {
  const browser = await chromium.launch({ executablePath: process.env.TRITIUM_CHROMIUM_PATH || DEFAULT_CHROMIUM_PATH, headless: true, args });
  try {
    for (let i = 0; i < 2; i++) await (await (await browser.newContext()).newPage()).setContent('<p>页</p>');
    const cdp = await browser.newBrowserCDPSession();
    const { targetInfos } = (await cdp.send('Target.getTargets')) as { targetInfos: { type: string; url: string }[] };
    return targetInfos.filter((t) => t.url.startsWith('chrome://')).map((t) => t.url);
  } finally {
    await browser.close();
  }
}

describe('Chromium switches', () => {
  it("repeat Playwright's own disabled features whole (Chromium keeps only the last --disable-features)", () => {
    expect(PLAYWRIGHT_DISABLED_FEATURES).toEqual(playwrightsList());
    const switches = CHROMIUM_ARGS.filter((a) => a.startsWith('--disable-features='));
    expect(switches).toHaveLength(1);
    expect(switches[0]!.slice('--disable-features='.length).split(',')).toEqual([...PLAYWRIGHT_DISABLED_FEATURES, ...OMNIBOX_POPUP_FEATURES]);
  });

  it('a new context opens no address-bar popup; without the switch each opens two', async () => {
    const without = CHROMIUM_ARGS.filter((a) => !a.startsWith('--disable-features='));
    const popups = (await browserUiAfterTwoContexts(without)).filter((url) => url.startsWith('chrome://omnibox-popup'));
    expect(popups.length).toBeGreaterThanOrEqual(2);
    expect(await browserUiAfterTwoContexts([...CHROMIUM_ARGS])).toEqual([]);
  });
});
