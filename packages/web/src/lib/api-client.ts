import { ApiError, isAbortError, type ApiErrorType } from './api-error.ts';
import { addBreadcrumb } from './breadcrumbs.ts';
import { reportError } from './error-log.ts';
import { currentLocale, localizeServerMessage, t } from './i18n.ts';
import { getNotifier } from './notifier.ts';
import { clearToken, getEngineCode, getToken } from './session.ts';
import type { zhCN } from '../locales/zh-CN.ts';

// calls.md §9
export const REQUEST_TIMEOUT_MS = 120_000;

type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  query?: Record<string, QueryValue>;
  body?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  timeoutMs?: number;
  /** The caller shows business errors itself (calls.md §7). */
  disableBizError?: boolean;
  /** The caller shows system errors itself. */
  disableSysError?: boolean;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

interface ClientHooks {
  /** Where a 401 sends the browser; the app passes the router's navigate so no full reload happens. */
  navigate: (to: string) => void;
}

const hooks: ClientHooks = { navigate: (to) => window.location.assign(to) };

export function configureApiClient(next: Partial<ClientHooks>): void {
  Object.assign(hooks, next);
}

const ENTRY_PATH = /^\/(entry|mobile)(\/|$)/i;

function buildUrl(url: string, query: RequestOptions['query']): string {
  if (!query) return url;
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    if (value !== undefined && value !== null) params.append(key, String(value));
  }
  const search = params.toString();
  return search ? `${url}${url.includes('?') ? '&' : '?'}${search}` : url;
}

interface Envelope {
  successful: boolean;
  data?: unknown;
  errorCode?: number | string;
  errorMessage?: string;
  errorType?: ApiErrorType;
  errorTitle?: string;
  detail?: unknown;
  requestId?: string;
}

function isEnvelope(value: unknown): value is Envelope {
  return !!value && typeof value === 'object' && typeof (value as Envelope).successful === 'boolean';
}

// calls.md §8: the statuses with their own message; others in a band share the band's text.
type StatusWithMessage = keyof typeof zhCN.errors.http extends infer K ? (K extends `status${infer N extends number}` ? N : never) : never;
const ACCESS_DENIED_STATUSES: readonly StatusWithMessage[] = [400, 401, 403, 404, 405, 406, 410, 422];
const SERVER_ERROR_STATUSES: readonly StatusWithMessage[] = [500, 502, 503, 504];
const hasOwnMessage = (list: readonly StatusWithMessage[], status: number): status is StatusWithMessage =>
  (list as readonly number[]).includes(status);

function statusTitleAndMessage(status: number): { title: string; message: string } {
  if (status >= 400 && status <= 422) {
    const message = hasOwnMessage(ACCESS_DENIED_STATUSES, status) ? t(`errors.http.status${status}`) : t('errors.http.accessDeniedMessage');
    return { title: t('errors.http.accessDenied'), message };
  }
  if (status >= 500 && status <= 504) {
    const message = hasOwnMessage(SERVER_ERROR_STATUSES, status) ? t(`errors.http.status${status}`) : t('errors.http.serverErrorMessage');
    return { title: t('errors.http.serverError'), message };
  }
  return { title: t('errors.http.other'), message: t('errors.http.contactAdmin') };
}

function httpError(status: number, body: unknown, requestUrl: string): ApiError {
  const { title, message } = statusTitleAndMessage(status);
  const envelope = isEnvelope(body) && !body.successful ? body : undefined;
  return new ApiError({
    errorCode: envelope?.errorCode ?? status,
    errorMessage: localizeServerMessage(envelope?.errorCode, envelope?.errorMessage) ?? message,
    errorType: envelope?.errorType ?? 'SYS',
    errorTitle: title,
    detail: envelope?.detail,
    status,
    requestId: envelope?.requestId,
    requestUrl,
  });
}

type ClientErrorKey = 'errors.network.timeout' | 'errors.network.message' | 'errors.returnNull' | 'errors.returnType';

function clientError(code: string, messageKey: ClientErrorKey, requestUrl: string, title = t('errors.http.other')): ApiError {
  return new ApiError({ errorCode: code, errorMessage: t(messageKey), errorType: 'SYS', errorTitle: title, status: 0, requestUrl });
}

function envelopeError(envelope: Envelope, requestUrl: string): ApiError {
  const errorType: ApiErrorType = envelope.errorType === 'SYS' ? 'SYS' : 'BIZ';
  const fallbackTitle = errorType === 'SYS' ? t('errors.http.serverError') : t('errors.bizTitle');
  return new ApiError({
    errorCode: envelope.errorCode ?? 'unknown.error',
    errorMessage: localizeServerMessage(envelope.errorCode, envelope.errorMessage) ?? t('errors.unknown'),
    errorType,
    errorTitle: currentLocale() === 'zh-CN' && envelope.errorTitle ? envelope.errorTitle : fallbackTitle,
    detail: envelope.detail,
    status: 200,
    requestId: envelope.requestId,
    requestUrl,
  });
}

async function send<T>(method: Method, url: string, options: RequestOptions): Promise<T> {
  // The server writes validation and catalogue messages in this language (docs/decisions/0028).
  const headers: Record<string, string> = { Accept: 'application/json', 'Accept-Language': currentLocale(), ...options.headers };
  const token = getToken();
  const engineCode = getEngineCode();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (engineCode) headers.EngineCode = engineCode;
  const hasBody = options.body !== undefined && method !== 'GET';
  if (hasBody) headers['Content-Type'] = 'application/json';

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? REQUEST_TIMEOUT_MS);
  const onCallerAbort = () => controller.abort(options.signal?.reason);
  options.signal?.addEventListener('abort', onCallerAbort, { once: true });
  if (options.signal?.aborted) controller.abort(options.signal.reason);

  let response: Response;
  let text: string;
  try {
    response = await fetch(url, {
      method,
      headers,
      credentials: 'include',
      body: hasBody ? JSON.stringify(options.body) : undefined,
      signal: controller.signal,
    });
    text = await response.text();
  } catch (error) {
    if (options.signal?.aborted) throw error;
    if (timedOut) throw clientError('network.error', 'errors.network.timeout', url, t('errors.network.title'));
    if (isAbortError(error)) throw error;
    throw clientError('network.error', 'errors.network.message', url, t('errors.network.title'));
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onCallerAbort);
  }

  let body: unknown;
  let isJson = true;
  if (text) {
    try {
      body = JSON.parse(text);
    } catch {
      isJson = false;
    }
  }
  if (!response.ok) throw httpError(response.status, body, url);
  if (!text || body === null) throw clientError('returnNull.error', 'errors.returnNull', url);
  if (!isJson || !isEnvelope(body)) throw clientError('returnType.error', 'errors.returnType', url);
  if (body.successful) return body.data as T;
  throw envelopeError(body, url);
}

let expiredRedirectPending = false;

/** 401: the token is gone or expired; forget it and explain on the expiry page (unless already at the entry). */
function handleUnauthorized(): boolean {
  clearToken();
  if (ENTRY_PATH.test(location.pathname)) return false;
  if (!expiredRedirectPending) {
    // Several calls fail at once when a token expires; one redirect is enough.
    expiredRedirectPending = true;
    setTimeout(() => (expiredRedirectPending = false), 1000);
    const back = `${location.pathname}${location.search}${location.hash}`;
    hooks.navigate(`/entry/expire?redirectUrl=${encodeURIComponent(back)}`);
  }
  return true;
}

function handleFailure(error: ApiError, options: RequestOptions): void {
  reportError(error);
  if (error.status === 401 && handleUnauthorized()) return;
  const notifier = getNotifier();
  if (error.errorType === 'BIZ' && !options.disableBizError) notifier.bizError(error);
  if (error.errorType === 'SYS' && !options.disableSysError) notifier.sysError(error);
}

/** Sends one API call and returns the envelope's data; throws ApiError for every failure except an abort. */
export async function apiRequest<T>(method: Method, url: string, options: RequestOptions = {}): Promise<T> {
  // Writes are the user's actions worth remembering; reads would flood the trail.
  if (method !== 'GET') addBreadcrumb(`${method} ${url}`);
  const fullUrl = buildUrl(url, options.query);
  try {
    return await send<T>(method, fullUrl, options);
  } catch (error) {
    if (error instanceof ApiError) handleFailure(error, options);
    throw error;
  }
}

/** The error of an answer that is not a success (its status, 0 when none came, and its text), shown as any call's is. */
export function failedAnswer(status: number, text: string, url: string): ApiError {
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  const failure =
    status === 0
      ? clientError('network.error', 'errors.network.message', url, t('errors.network.title'))
      : status >= 400
        ? httpError(status, parsed, url)
        : isEnvelope(parsed)
          ? envelopeError(parsed, url)
          : clientError('returnType.error', 'errors.returnType', url);
  handleFailure(failure, {});
  return failure;
}

export const apiClient = {
  get: <T>(url: string, options?: RequestOptions) => apiRequest<T>('GET', url, options),
  post: <T>(url: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('POST', url, { ...options, body }),
  put: <T>(url: string, body?: unknown, options?: RequestOptions) => apiRequest<T>('PUT', url, { ...options, body }),
  delete: <T>(url: string, options?: RequestOptions) => apiRequest<T>('DELETE', url, options),
};
