/**
 * Session cookies. calls.md §7: the client reads the bearer token from the `access-token` cookie and the
 * engine it acts in from the `engine` cookie; both are written here and nowhere else.
 */
export const TOKEN_COOKIE = 'access-token';
export const ENGINE_COOKIE = 'engine';

// calls.md §9: the token lives 48 hours.
export const TOKEN_MAX_AGE_SECONDS = 48 * 60 * 60;
// The engine is a preference, not a credential: it outlives the token so the next sign-in lands in the same place.
export const ENGINE_MAX_AGE_SECONDS = 30 * 24 * 60 * 60;

function writeCookie(name: string, value: string, maxAgeSeconds: number): void {
  const secure = typeof location !== 'undefined' && location.protocol === 'https:' ? '; Secure' : '';
  document.cookie = `${name}=${encodeURIComponent(value)}; Path=/; Max-Age=${maxAgeSeconds}; SameSite=Lax${secure}`;
}

export function readCookie(name: string): string | undefined {
  for (const part of document.cookie.split(';')) {
    const index = part.indexOf('=');
    if (index < 0) continue;
    if (part.slice(0, index).trim() !== name) continue;
    const raw = part.slice(index + 1).trim();
    try {
      return decodeURIComponent(raw);
    } catch {
      return raw;
    }
  }
  return undefined;
}

function clearCookie(name: string): void {
  document.cookie = `${name}=; Path=/; Max-Age=0; SameSite=Lax`;
}

export function getToken(): string | undefined {
  return readCookie(TOKEN_COOKIE) || undefined;
}

export function hasToken(): boolean {
  return !!getToken();
}

export function setToken(token: string, maxAgeSeconds = TOKEN_MAX_AGE_SECONDS): void {
  writeCookie(TOKEN_COOKIE, token, maxAgeSeconds);
}

export function clearToken(): void {
  clearCookie(TOKEN_COOKIE);
}

export function getEngineCode(): string | undefined {
  return readCookie(ENGINE_COOKIE) || undefined;
}

export function setEngineCode(engineCode: string): void {
  writeCookie(ENGINE_COOKIE, engineCode, ENGINE_MAX_AGE_SECONDS);
}

export function clearEngineCode(): void {
  clearCookie(ENGINE_COOKIE);
}

const sessionStartListeners = new Set<() => void>();

/**
 * Calls `listener` whenever a new session starts (a sign-in, a registration, another engine): the query cache
 * forgets the answers of the previous one (lib/query-client.ts). Returns the unsubscribe.
 */
export function onSessionStart(listener: () => void): () => void {
  sessionStartListeners.add(listener);
  return () => sessionStartListeners.delete(listener);
}

/** Stores what a sign-in answered: the token, and the engine when the account belongs to one. */
export function startSession(result: { accessToken: string; expiresIn: number; engineCode: string | null }): void {
  setToken(result.accessToken, Math.min(result.expiresIn || TOKEN_MAX_AGE_SECONDS, TOKEN_MAX_AGE_SECONDS));
  if (result.engineCode) setEngineCode(result.engineCode);
  else clearEngineCode();
  for (const listener of sessionStartListeners) listener();
}

/** Signing out forgets both cookies, so the next person on this browser starts clean. */
export function endSession(): void {
  clearToken();
  clearEngineCode();
}
