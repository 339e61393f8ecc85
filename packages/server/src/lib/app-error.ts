import { ERRORS, type ErrorName } from '@tritium/shared';

/** The one error type services throw: a catalogue entry plus optional detail for the client. */
export class AppError extends Error {
  readonly errorName: ErrorName;
  readonly code: number;
  readonly status: number;
  readonly detail?: unknown;

  /** `status` overrides the catalogue's HTTP status where the same code means "access refused" (api-conventions.md). */
  constructor(name: ErrorName, options: { detail?: unknown; message?: string; status?: number } = {}) {
    super(options.message ?? ERRORS[name].zh);
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
