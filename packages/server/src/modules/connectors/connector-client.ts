import { contracts } from '@tritium/shared';
import { sql } from 'kysely';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { AppError } from '../../lib/app-error.ts';
import { OutboundRefused, readBoundedBody } from '../../lib/outbound-http.ts';
import { openSecrets } from '../notification/channels/secret-box.ts';
import { applyAuth, dropCachedToken, type ConnectionRow, type OutgoingRequest } from './connection-auth.ts';

// The one client of calls that leave the platform through a connection (architecture.md §10, docs/decisions/0120).
// Every connector call, health check and OAuth2 token request goes through `sendOutside`: the connection's auth, the
// outbound guard (the fetch handed in is lib/outbound-http.ts's: no loopback or private address unless the platform
// allows it), a time-out, a bound on the answer's size, a row in the delivery log, and the connection's status kept
// from the outcome (failures in a row → exception, a success → normal; a disabled connection stays disabled).

export interface OutsideDeps {
  /** The guarded fetch (app.ts's `outbound`). */
  http: typeof fetch;
  timeoutMs?: number;
  maxBytes?: number;
}

export const DEFAULT_TIMEOUT_MS = 10_000;
export const DEFAULT_MAX_BYTES = 1024 * 1024;

export interface OutsideCall {
  source: contracts.ConnectorCallDto['source'];
  connectorCode?: string | null;
  method: string;
  /** Relative to the connection's base URL. */
  path: string;
  query?: Record<string, string>;
  headers?: Record<string, string>;
  body?: unknown;
}

export interface OutsideAnswer {
  httpStatus: number;
  /** The parsed JSON answer, or its text when it is not JSON. */
  json: unknown;
  durationMs: number;
}

/** A call's failure counts against the connection (exception after 3 in a row), unless it is the caller's own mistake. */
const countsAgainstConnection = (status: number | null) => status === null || status >= 500 || status === 401 || status === 403 || status === 429;

export function urlOf(row: Pick<ConnectionRow, 'base_url'>, path: string): URL {
  const base = row.base_url.replace(/\/+$/, '');
  return new URL(path ? `${base}/${path.replace(/^\/+/, '')}` : base);
}

function secretOf(row: ConnectionRow): string {
  if (!row.secrets) return '';
  const opened = openSecrets(row.secrets);
  if (!opened) throw new AppError('ConnectionSecretUnreadable', { detail: { name: row.name } });
  return opened.secret ?? '';
}


function parsed(text: string): unknown {
  try {
    return text ? JSON.parse(text) : null;
  } catch {
    return text;
  }
}

/** What went wrong, as the catalogue says it; AppErrors (token, size) pass as they are. */
/** The network's error codes an administrator meets most, in words (the log and the test's message show them). */
const NETWORK_ERRORS: Record<string, string> = {
  ECONNREFUSED: '连接被拒绝，对方服务可能未启动',
  ECONNRESET: '连接被对方断开',
  ENOTFOUND: '找不到该域名',
  EAI_AGAIN: '域名解析失败',
  EHOSTUNREACH: '主机不可达',
  ENETUNREACH: '网络不可达',
  ETIMEDOUT: '建立连接超时',
  CERT_HAS_EXPIRED: '对方的 HTTPS 证书已过期',
  DEPTH_ZERO_SELF_SIGNED_CERT: '对方使用自签名的 HTTPS 证书',
  UNABLE_TO_VERIFY_LEAF_SIGNATURE: '无法验证对方的 HTTPS 证书',
  ERR_TLS_CERT_ALTNAME_INVALID: '对方的 HTTPS 证书与域名不符',
};

function failureOf(error: unknown, url: URL, timeoutMs: number): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof OutboundRefused) return new AppError('OutsideAddressRefused', { detail: { host: url.host } });
  const name = (error as { name?: string }).name;
  if (name === 'TimeoutError' || name === 'AbortError') return new AppError('OutsideCallTimeout', { detail: { seconds: Math.round(timeoutMs / 100) / 10 } });
  const cause = (error as { cause?: { code?: string; message?: string } }).cause;
  const known = cause?.code ? NETWORK_ERRORS[cause.code] : undefined;
  return new AppError('OutsideUnreachable', { detail: { message: known ?? cause?.code ?? cause?.message ?? (error as Error).message ?? String(error) } });
}

/** One HTTP exchange under the time-out and the size bound. */
async function exchange(request: OutgoingRequest, deps: OutsideDeps): Promise<{ status: number; json: unknown }> {
  const timeoutMs = deps.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const signal = AbortSignal.timeout(timeoutMs);
  const response = await deps.http(request.url, { method: request.method, headers: request.headers, body: request.body, signal, redirect: 'follow' });
  const text = (await readBoundedBody(response, deps.maxBytes ?? DEFAULT_MAX_BYTES)).toString('utf8');
  return { status: response.status, json: parsed(text) };
}

/** Sends one call through the connection; throws the catalogue's error when it fails (after logging it). */
export async function sendOutside(edb: EngineExecutor, engineCode: string, row: ConnectionRow, call: OutsideCall, deps: OutsideDeps): Promise<OutsideAnswer> {
  if (row.status === 'disabled' && call.source !== 'health') throw new AppError('ConnectionDisabled', { detail: { name: row.name } });
  const started = Date.now();
  const url = urlOf(row, call.path);
  for (const [name, value] of Object.entries(call.query ?? {})) url.searchParams.set(name, value);
  const body = call.body === undefined ? undefined : JSON.stringify(call.body);
  const logged = { method: call.method, url: `${url.origin}${url.pathname}` };
  let httpStatus: number | null = null;
  try {
    const secret = secretOf(row);
    const send = async (fromCache: boolean): Promise<{ status: number; json: unknown }> => {
      const request: OutgoingRequest = { method: call.method, url: new URL(url), headers: { accept: 'application/json', ...(body !== undefined ? { 'content-type': 'application/json' } : {}), ...call.headers }, body };
      await applyAuth(engineCode, row, secret, request, (token) => exchange(token, deps));
      const answer = await exchange(request, deps);
      // A cached OAuth2 token the system no longer accepts: one more try with a fresh one.
      if (answer.status === 401 && row.auth_kind === 'oauth2' && fromCache) {
        dropCachedToken(engineCode, row, secret);
        return send(false);
      }
      return answer;
    };
    const answer = await send(true);
    httpStatus = answer.status;
    if (answer.status < 200 || answer.status > 299) throw new AppError('OutsideCallFailed', { detail: { status: answer.status } });
    const durationMs = Date.now() - started;
    await settle(edb, row, call, logged, { httpStatus, ok: true, durationMs, error: null });
    return { httpStatus: answer.status, json: answer.json, durationMs };
  } catch (error) {
    const failure = failureOf(error, url, deps.timeoutMs ?? DEFAULT_TIMEOUT_MS);
    await settle(edb, row, call, logged, { httpStatus, ok: false, durationMs: Date.now() - started, error: failure.message });
    throw failure;
  }
}

interface Outcome {
  httpStatus: number | null;
  ok: boolean;
  durationMs: number;
  error: string | null;
}

/** The delivery-log row and the connection's status after a call. */
async function settle(edb: EngineExecutor, row: ConnectionRow, call: OutsideCall, logged: { method: string; url: string }, outcome: Outcome): Promise<void> {
  await edb
    .insertInto('connector_calls')
    .values({ connection_code: row.code, connector_code: call.connectorCode ?? null, source: call.source, method: logged.method, url: logged.url, http_status: outcome.httpStatus, ok: outcome.ok, duration_ms: outcome.durationMs, error: outcome.error })
    .execute();
  const checked = call.source === 'health' ? { last_checked_time: new Date() } : {};
  if (outcome.ok) {
    await edb
      .updateTable('connections')
      .set({ failure_count: 0, last_error: null, status: sql<'normal'>`case when status = 'disabled' then 'disabled' else 'normal' end`, ...checked })
      .where('code', '=', row.code)
      .execute();
    return;
  }
  if (call.source !== 'health' && !countsAgainstConnection(outcome.httpStatus)) return;
  // A failed health check says at once that the system is down; calls do after several failures in a row.
  const threshold = call.source === 'health' ? 1 : contracts.CONNECTION_FAILURES_TO_EXCEPTION;
  await edb
    .updateTable('connections')
    .set({
      failure_count: sql<number>`failure_count + 1`,
      last_error: outcome.error,
      status: sql<'exception'>`case when status = 'disabled' then 'disabled' when failure_count + 1 >= ${threshold} then 'exception' else status end`,
      ...checked,
    })
    .where('code', '=', row.code)
    .execute();
}
