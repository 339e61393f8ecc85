const KEY = 'tritium.release-reload';

/**
 * A new release replaced the build while this page was open: a screen it loads lazily names a file that is gone (the
 * server answers 404). The page loads the new release once instead of showing the error; should that fail again within
 * a minute, the error is left to show (no reload loop).
 */
export function reloadOnStaleRelease(win: Window = window, now: () => number = Date.now): void {
  win.addEventListener('vite:preloadError', (event) => {
    const last = Number(win.sessionStorage.getItem(KEY) ?? 0);
    if (now() - last < 60_000) return;
    win.sessionStorage.setItem(KEY, String(now()));
    event.preventDefault();
    win.location.reload();
  });
}
