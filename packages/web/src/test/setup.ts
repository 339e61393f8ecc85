import { afterEach, vi } from 'vitest';
import { cleanup } from '@testing-library/react';
import { changeLocale, currentLocale } from '../lib/i18n.ts';
import { setNotifier } from '../lib/notifier.ts';
import { clearBreadcrumbs } from '../lib/breadcrumbs.ts';

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
