import { afterEach, describe, expect, it, vi } from 'vitest';
import { reloadOnStaleRelease } from './stale-release.ts';

function fakeWindow() {
  const target = new EventTarget();
  const storage = new Map<string, string>();
  const reload = vi.fn();
  const win = Object.assign(target, {
    sessionStorage: { getItem: (k: string) => storage.get(k) ?? null, setItem: (k: string, v: string) => void storage.set(k, v) },
    location: { reload },
  }) as unknown as Window;
  return { win, reload };
}

const failedLoad = () => new Event('vite:preloadError', { cancelable: true });

afterEach(() => vi.restoreAllMocks());

describe('a page open across a release', () => {
  it('loads the new release once when a lazily loaded file is gone, and lets a second failure within a minute show', () => {
    const { win, reload } = fakeWindow();
    let t = 1_000_000;
    reloadOnStaleRelease(win, () => t);
    const first = failedLoad();
    win.dispatchEvent(first);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(first.defaultPrevented).toBe(true);

    t += 30_000;
    const again = failedLoad();
    win.dispatchEvent(again);
    expect(reload).toHaveBeenCalledTimes(1);
    expect(again.defaultPrevented).toBe(false);

    t += 60_000;
    win.dispatchEvent(failedLoad());
    expect(reload).toHaveBeenCalledTimes(2);
  });
});
