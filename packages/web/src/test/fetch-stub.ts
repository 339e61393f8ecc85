import { vi } from 'vitest';

export interface RecordedCall {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: unknown;
  credentials?: RequestCredentials;
}

type Handler = (call: RecordedCall, init: RequestInit) => Response | Promise<Response>;

export const ok = (data: unknown) => json({ successful: true, data });

export const fail = (errorCode: number, errorMessage: string, extra: Record<string, unknown> = {}, status = 200) =>
  json({ successful: false, errorCode, errorMessage, errorType: 'BIZ', ...extra }, status);

export function json(body: unknown, status = 200): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'Content-Type': 'application/json' } });
}

/**
 * Replaces global fetch with a router of handlers keyed by "METHOD /path" (query ignored). Unmatched calls
 * answer 404; calls to /v1/log answer success unless a handler says otherwise. Every call is recorded.
 */
export function stubFetch(handlers: Record<string, Handler>) {
  const calls: RecordedCall[] = [];
  const fetchMock = vi.fn(async (input: RequestInfo | URL, init: RequestInit = {}) => {
    const url = typeof input === 'string' ? input : input instanceof URL ? input.href : input.url;
    const method = (init.method ?? 'GET').toUpperCase();
    const headers = Object.fromEntries([...new Headers(init.headers).entries()].map(([k, v]) => [k.toLowerCase(), v]));
    const body = typeof init.body === 'string' ? JSON.parse(init.body) : init.body;
    const call: RecordedCall = { url, method, headers, body, credentials: init.credentials };
    calls.push(call);
    const path = new URL(url, 'http://localhost').pathname;
    const handler = handlers[`${method} ${path}`];
    if (handler) return handler(call, init);
    if (path === '/v1/log') return ok({});
    return json({ successful: false, errorCode: 100404, errorMessage: 'not stubbed', errorType: 'BIZ' }, 404);
  });
  vi.stubGlobal('fetch', fetchMock);
  const callsTo = (method: string, path: string) =>
    calls.filter((c) => c.method === method && new URL(c.url, 'http://localhost').pathname === path);
  return { calls, callsTo, fetchMock };
}
