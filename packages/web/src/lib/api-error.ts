import type { FieldIssue } from '@tritium/shared';

export type ApiErrorType = 'BIZ' | 'SYS';

export interface ApiErrorInit {
  errorCode: number | string;
  errorMessage: string;
  errorType: ApiErrorType;
  errorTitle: string;
  detail?: unknown;
  /** HTTP status; 0 when no answer arrived. */
  status: number;
  requestId?: string;
  requestUrl?: string;
}

/** The one error every API call throws (calls.md §3 "Error object"). */
export class ApiError extends Error implements ApiErrorInit {
  readonly errorCode: number | string;
  readonly errorMessage: string;
  readonly errorType: ApiErrorType;
  readonly errorTitle: string;
  readonly detail: unknown;
  readonly status: number;
  readonly requestId?: string;
  readonly requestUrl?: string;

  constructor(init: ApiErrorInit) {
    super(init.errorMessage);
    this.name = 'ApiError';
    this.errorCode = init.errorCode;
    this.errorMessage = init.errorMessage;
    this.errorType = init.errorType;
    this.errorTitle = init.errorTitle;
    this.detail = init.detail;
    this.status = init.status;
    this.requestId = init.requestId;
    this.requestUrl = init.requestUrl;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The field problems of a 777 answer (api-conventions.md), or an empty list. */
export function getFieldIssues(error: unknown): FieldIssue[] {
  if (!isApiError(error) || error.errorCode !== 777) return [];
  const issues = (error.detail as { issues?: unknown } | undefined)?.issues;
  if (!Array.isArray(issues)) return [];
  return issues.filter(
    (issue): issue is FieldIssue => !!issue && typeof issue.path === 'string' && typeof issue.message === 'string',
  );
}

/** True when an error (thrown by fetch or by us) comes from an abort the caller asked for. */
export function isAbortError(error: unknown): boolean {
  return error instanceof DOMException ? error.name === 'AbortError' : (error as { name?: string })?.name === 'AbortError';
}
