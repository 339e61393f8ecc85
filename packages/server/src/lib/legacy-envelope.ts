import { ERRORS } from '@tritium/shared';
import type { ZodError } from 'zod';
import { AppError } from './app-error.ts';

// The legacy `…/OnAction` calls (h3yun-facts §1.3): a form body `PostData=<json>` with an ActionName, answered in the
// envelope `{Successful, ErrorMessage, ErrorCode, Logined, ReturnData, DataType}` — a failure is Successful:false, not
// an HTTP error. Shared by the adapters (home, automations).

export interface LegacyEnvelope {
  Successful: boolean;
  ErrorMessage: string | null;
  ErrorCode: number | null;
  Logined: boolean;
  ReturnData: Record<string, unknown> | null;
  DataType: 0;
}

export const legacySuccess = (data: Record<string, unknown>): LegacyEnvelope => ({ Successful: true, ErrorMessage: null, ErrorCode: null, Logined: true, ReturnData: data, DataType: 0 });

export const legacyFailure = (code: number, message: string, detail?: unknown): LegacyEnvelope => ({
  Successful: false,
  ErrorMessage: message,
  ErrorCode: code,
  Logined: true,
  ReturnData: detail === undefined ? null : { Detail: detail },
  DataType: 0,
});

/** Reads `PostData` (a JSON text, or already an object) out of the request body. */
export function postDataOf(body: unknown): unknown {
  const raw = body && typeof body === 'object' && 'PostData' in body ? (body as { PostData: unknown }).PostData : body;
  if (typeof raw !== 'string') return raw;
  try {
    return JSON.parse(raw);
  } catch {
    return undefined;
  }
}

/** An ActionName the adapter does not know, or the PostData's shape problems, as the legacy failure. */
export function legacyParseFailure(body: unknown, known: readonly string[], error: ZodError): LegacyEnvelope {
  const name = (postDataOf(body) as { ActionName?: unknown } | undefined)?.ActionName;
  if (typeof name === 'string' && !known.includes(name)) return legacyFailure(ERRORS.LegacyActionUnknown.code, ERRORS.LegacyActionUnknown.zh, { ActionName: name });
  const issues = error.issues.map((i) => ({ path: i.path.join('.') || 'PostData', message: i.message }));
  return legacyFailure(ERRORS.ParameterVerificationFailed.code, ERRORS.ParameterVerificationFailed.zh, { issues });
}

/** Runs an action; a catalogue error becomes the legacy failure. */
export async function legacyAnswer(run: () => Promise<LegacyEnvelope>): Promise<LegacyEnvelope> {
  try {
    return await run();
  } catch (e) {
    if (e instanceof AppError) return legacyFailure(e.code, e.message, e.detail);
    throw e;
  }
}
