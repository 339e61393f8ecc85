import { ChatPlatformError } from './chat-provider.ts';

// The HTTP every chat-platform adapter speaks: JSON over the settings' fetch (the platform's outbound fetch, which
// refuses addresses of its own network unless the deployment allows them: docs/decisions/0072, 0077) with a time
// limit, a network failure, a refused address or an answer that is not JSON reported as "unreachable", and the app
// access tokens cached per base URL and credentials until a few minutes before the platform's expiry.

export interface PlatformAnswer {
  status: number;
  body: Record<string, unknown>;
}

export async function fetchJson(http: typeof fetch, platform: string, url: URL, init: { method?: 'GET' | 'POST'; headers?: Record<string, string>; body?: unknown } = {}): Promise<PlatformAnswer> {
  let res: Response;
  try {
    res = await http(url, {
      method: init.method ?? (init.body === undefined ? 'GET' : 'POST'),
      headers: { ...(init.body === undefined ? {} : { 'content-type': 'application/json; charset=utf-8' }), ...init.headers },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      signal: AbortSignal.timeout(15_000),
    });
  } catch (error) {
    throw new ChatPlatformError('network', `${platform} cannot be reached: ${(error as Error).message}`, 'unreachable');
  }
  const body = (await res.json().catch(() => undefined)) as Record<string, unknown> | undefined;
  if (!body || typeof body !== 'object') throw new ChatPlatformError(res.status, `${platform} answered ${res.status} without JSON`, 'unreachable');
  return { status: res.status, body };
}

const tokens = new Map<string, { token: string; until: number }>();

/** An app access token from the cache, or fetched (and cached until five minutes before it expires). */
export async function cachedToken(key: string, fresh: boolean, fetchToken: () => Promise<{ token: string; expiresIn: number }>): Promise<string> {
  const cached = tokens.get(key);
  if (!fresh && cached && cached.until > Date.now()) return cached.token;
  const { token, expiresIn } = await fetchToken();
  tokens.set(key, { token, until: Date.now() + (expiresIn - 300) * 1000 });
  return token;
}

/** A call with the app token; when the platform says the token expired, the token is fetched again once. */
export async function withAppToken<T>(token: (fresh: boolean) => Promise<string>, expired: (error: ChatPlatformError) => boolean, run: (token: string) => Promise<T>): Promise<T> {
  try {
    return await run(await token(false));
  } catch (error) {
    if (error instanceof ChatPlatformError && expired(error)) return run(await token(true));
    throw error;
  }
}
