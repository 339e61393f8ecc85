import { afterAll, afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { changeLocale, currentLocale, loadWorkbenchCatalogue } from '../lib/i18n.ts';
import { setNotifier } from '../lib/notifier.ts';
import { clearBreadcrumbs } from '../lib/breadcrumbs.ts';
import './computed-style.ts';

// Tests render workbench screens without their route, which is what loads this part of the catalogue in the app.
await loadWorkbenchCatalogue();

// findBy… and waitFor wait on a condition up to this long (the library's default is 1 s): web files run two at a
// time beside the server suites (docs/testing.md), and a loaded machine may take longer than a second to render.
configure({ asyncUtilTimeout: 5_000 });

// antd reads media queries for responsive props; happy-dom has no matchMedia.
if (!window.matchMedia) {
  Object.defineProperty(window, 'matchMedia', {
    writable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }),
  });
}

function clearCookies() {
  for (const part of document.cookie.split(';')) {
    const name = part.split('=')[0]?.trim();
    if (name) document.cookie = `${name}=; Path=/; Max-Age=0`;
  }
}

afterEach(async () => {
  cleanup();
  if (currentLocale() !== 'zh-CN') await changeLocale('zh-CN');
  localStorage.clear();
  clearCookies();
  clearBreadcrumbs();
  setNotifier(undefined);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  window.history.replaceState(null, '', '/');
});

// Work React scheduled during the last clean-up runs on a later turn (its scheduler uses setImmediate here): let it run
// while the file's window still exists — after the environment is gone it fails with "window is not defined".
const nodeTurn = (globalThis as unknown as { setImmediate: (callback: () => void) => unknown }).setImmediate;
afterAll(async () => {
  for (let turn = 0; turn < 5; turn++) await new Promise<void>((resolve) => nodeTurn(() => resolve()));
  // The web files share a worker and its window (vitest.config.ts, isolate off): what a file's portals left in the body
  // (a message still fading out, a drawer's container) must not be found by the next file's queries.
  document.body.replaceChildren();
});
