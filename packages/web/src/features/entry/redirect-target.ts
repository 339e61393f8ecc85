/**
 * Where to go after signing in. A `redirectUrl` is followed only when it stays on this origin, so a link
 * cannot send someone to another site with a fresh session; entry pages are skipped to avoid loops.
 */
export const DEFAULT_AFTER_SIGN_IN = '/workbench';

export function safeRedirectTarget(value: string | null | undefined, origin = window.location.origin): string | undefined {
  if (!value) return undefined;
  let url: URL;
  try {
    url = new URL(value, origin);
  } catch {
    return undefined;
  }
  if (url.origin !== origin) return undefined;
  // …except the association pages, which need a session and send signed-out visitors to sign in (decision 0091).
  if (/^\/(entry|mobile)(\/|$)/i.test(url.pathname) && !/^\/entry\/(ass-org|make-org)\/?$/i.test(url.pathname)) return undefined;
  return `${url.pathname}${url.search}${url.hash}`;
}
