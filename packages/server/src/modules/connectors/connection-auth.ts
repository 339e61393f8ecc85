import { createHash, createHmac } from 'node:crypto';
import type { ConnectionTable } from '../../db/types.ts';
import type { Selectable } from 'kysely';
import { AppError } from '../../lib/app-error.ts';

// Authentication of a request that leaves through a connection (docs/decisions/0120): basic, bearer, an API key in a
// header or the query, OAuth2 client credentials (the token cached until shortly before it expires), or an
// HMAC-SHA256 signature of `<timestamp>.<body>` in a header with the timestamp in X-Timestamp.

export type ConnectionRow = Selectable<ConnectionTable>;

export interface OutgoingRequest {
  method: string;
  url: URL;
  headers: Record<string, string>;
  body?: string;
}

/** Sends the token request: the same guarded, time-limited client as every other call (connector-client.ts). */
export type TokenFetch = (request: OutgoingRequest) => Promise<{ status: number; json: unknown }>;

interface CachedToken {
  token: string;
  expiresAt: number;
}

// Per process; the key holds everything the token depends on, so a changed secret or address asks for a new one.
const tokens = new Map<string, CachedToken>();
const TOKEN_MARGIN_MS = 30_000;

function tokenKey(engineCode: string, row: ConnectionRow, secret: string): string {
  const auth = row.auth;
  return `${engineCode}/${row.code}/${createHash('sha256').update([auth.tokenUrl, auth.clientId, auth.scope, secret].join('\n')).digest('hex')}`;
}

/** Forgets a connection's cached token (the outside system refused it). */
export function dropCachedToken(engineCode: string, row: ConnectionRow, secret: string): void {
  tokens.delete(tokenKey(engineCode, row, secret));
}

async function oauthToken(engineCode: string, row: ConnectionRow, secret: string, send: TokenFetch, now: number): Promise<string> {
  const key = tokenKey(engineCode, row, secret);
  const cached = tokens.get(key);
  if (cached && cached.expiresAt > now) return cached.token;
  const form = new URLSearchParams({ grant_type: 'client_credentials', ...(row.auth.scope ? { scope: row.auth.scope } : {}) });
  const basic = Buffer.from(`${encodeURIComponent(row.auth.clientId ?? '')}:${encodeURIComponent(secret)}`).toString('base64');
  const answer = await send({
    method: 'POST',
    url: new URL(row.auth.tokenUrl ?? ''),
    headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Basic ${basic}`, accept: 'application/json' },
    body: form.toString(),
  });
  const json = answer.json as { access_token?: unknown; expires_in?: unknown } | null;
  if (answer.status < 200 || answer.status > 299 || typeof json?.access_token !== 'string') {
    throw new AppError('OutsideTokenFailed', { detail: { message: `HTTP ${answer.status}` } });
  }
  const seconds = typeof json.expires_in === 'number' && json.expires_in > 0 ? json.expires_in : 3600;
  tokens.set(key, { token: json.access_token, expiresAt: now + seconds * 1000 - TOKEN_MARGIN_MS });
  return json.access_token;
}

/** Adds the connection's credentials to the request; answers whether an OAuth2 token came from the cache. */
export async function applyAuth(engineCode: string, row: ConnectionRow, secret: string, request: OutgoingRequest, send: TokenFetch, now = Date.now()): Promise<void> {
  const auth = row.auth;
  switch (row.auth_kind) {
    case 'none':
      return;
    case 'basic':
      request.headers.authorization = `Basic ${Buffer.from(`${auth.username ?? ''}:${secret}`).toString('base64')}`;
      return;
    case 'bearer':
      request.headers.authorization = `Bearer ${secret}`;
      return;
    case 'apiKey':
      if (auth.apiKeyIn === 'query') request.url.searchParams.set(auth.apiKeyName || 'api_key', secret);
      else request.headers[(auth.apiKeyName || 'X-API-Key').toLowerCase()] = secret;
      return;
    case 'oauth2':
      request.headers.authorization = `Bearer ${await oauthToken(engineCode, row, secret, send, now)}`;
      return;
    case 'hmac': {
      const timestamp = String(Math.floor(now / 1000));
      request.headers['x-timestamp'] = timestamp;
      request.headers[(auth.signatureHeader || 'X-Signature').toLowerCase()] = createHmac('sha256', secret).update(`${timestamp}.${request.body ?? ''}`).digest('hex');
      return;
    }
  }
}
