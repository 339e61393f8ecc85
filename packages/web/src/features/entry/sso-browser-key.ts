// Single sign-on (docs/decisions/0087 for SAML, 0097 for OpenID Connect): the start answers a key that only this browser
// tab keeps; the sign-in page sends it with the code or state the identity provider's answer came back with, so that
// an answer taken to another browser is refused.

const STORAGE_KEY = 'tritium.sso.browserKey';

export function keepSsoBrowserKey(key: string | undefined): void {
  try {
    if (key) sessionStorage.setItem(STORAGE_KEY, key);
    else sessionStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage refused (private mode): the sign-in then fails with "sign in again", never silently.
  }
}

/** The query for completing a sign-in: with the kept key (SAML's code, OpenID Connect's state). */
export function withSsoBrowserKey(query: Record<string, string>): Record<string, string> {
  if (!query.saml && !query.state) return query;
  let key: string | null = null;
  try {
    key = sessionStorage.getItem(STORAGE_KEY);
  } catch {
    key = null;
  }
  return key ? { ...query, key } : query;
}
