import { ERRORS, errorText, type ErrorName } from '@tritium/shared';

/** The one error type services throw: a catalogue entry plus optional detail for the client. */
export class AppError extends Error {
  readonly errorName: ErrorName;
  readonly code: number;
  readonly status: number;
  readonly detail?: unknown;

  /** `status` overrides the catalogue's HTTP status where the same code means "access refused" (api-conventions.md). */
  constructor(name: ErrorName, options: { detail?: unknown; message?: string; status?: number } = {}) {
    // The catalogue's zh-CN text, its places ({displayName}…) filled from the detail (the error handler does the same
    // for en-US).
    const detail = options.detail !== null && typeof options.detail === 'object' ? (options.detail as Record<string, unknown>) : undefined;
    super(options.message ?? errorText(name, 'zh-CN', detail));
    this.errorName = name;
    this.code = ERRORS[name].code;
    this.status = options.status ?? ERRORS[name].status;
    this.detail = options.detail;
  }
}

/** A 777 answer naming the fields at fault. */
export function parameterError(issues: { path: string; message: string }[]): AppError {
  return new AppError('ParameterVerificationFailed', { detail: { issues } });
}
