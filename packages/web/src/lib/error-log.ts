import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { isApiError } from './api-error.ts';
import { getBreadcrumbs } from './breadcrumbs.ts';
import { getEngineCode, getToken } from './session.ts';

export type ErrorLogBody = z.infer<typeof contracts.ErrorLogBody>;

export const ERROR_LOG_URL = '/v1/log';

const truncate = (value: string, max: number) => (value.length > max ? value.slice(0, max) : value);

function currentRoute(): string {
  return typeof location === 'undefined' ? '' : `${location.pathname}${location.search}${location.hash}`;
}

/** Turns any error into the error-log payload of calls.md §3 (limits from the shared contract). */
export function buildErrorLog(error: unknown, nowMs = Date.now()): ErrorLogBody {
  const base = {
    LogTime: new Date(nowMs).toISOString(),
    Route: truncate(currentRoute(), 2000),
    UserAgent: truncate(typeof navigator === 'undefined' ? '' : navigator.userAgent, 1000),
    BreadCrumb: getBreadcrumbs().slice(-10),
  };
  if (isApiError(error)) {
    return {
      ...base,
      // A business error is the server refusing something on purpose; only faults are Level Error.
      Level: error.errorType === 'SYS' ? 'Error' : 'Warn',
      Content: truncate(error.errorMessage || String(error.errorCode), 4000),
      ExceptionType: 'ApiError',
      ExceptionContent: truncate(
        JSON.stringify({ status: error.status, title: error.errorTitle, detail: error.detail, requestId: error.requestId }),
        20000,
      ),
      ErrorCode: error.errorCode,
      ...(error.requestUrl ? { RequestUrl: truncate(error.requestUrl, 2000) } : {}),
    };
  }
  const asError = error instanceof Error ? error : new Error(String(error));
  return {
    ...base,
    Level: 'Error',
    Content: truncate(asError.message || asError.name, 4000),
    ExceptionType: truncate(asError.name, 200),
    ExceptionContent: truncate(asError.stack ?? asError.message, 20000),
  };
}

/**
 * Posts an error log. Uses fetch directly, not the API client, so a failing log call can never produce
 * another log call; its own failures are dropped on purpose.
 */
export async function postErrorLog(body: ErrorLogBody): Promise<void> {
  const headers: Record<string, string> = { 'Content-Type': 'application/json', Accept: 'application/json' };
  const token = getToken();
  const engineCode = getEngineCode();
  if (token) headers.Authorization = `Bearer ${token}`;
  if (engineCode) headers.EngineCode = engineCode;
  try {
    await fetch(ERROR_LOG_URL, { method: 'POST', credentials: 'include', headers, body: JSON.stringify(body) });
  } catch {
    // Nothing else to do: reporting must never break the page or loop.
  }
}

const reported = new WeakSet<object>();

/** The global handler of calls.md §8: every error is logged once. */
export function reportError(error: unknown): void {
  if (error && typeof error === 'object') {
    if (reported.has(error)) return;
    reported.add(error);
  }
  if (isApiError(error) && error.requestUrl && new URL(error.requestUrl, 'http://x').pathname.toLowerCase() === ERROR_LOG_URL) return;
  void postErrorLog(buildErrorLog(error));
}

let installed = false;

/** Sends uncaught errors and unhandled rejections to the same handler. */
export function installGlobalErrorHandlers(): void {
  if (installed || typeof window === 'undefined') return;
  installed = true;
  window.addEventListener('error', (event) => reportError(event.error ?? event.message));
  window.addEventListener('unhandledrejection', (event) => reportError(event.reason));
}
