import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { apiClient } from '../../../lib/api-client.ts';
import { getErrorByCode } from '@tritium/shared/errors/catalogue';
import { isApiError } from '../../../lib/api-error.ts';

export type FormDesignLoadResult = contracts.FormDesignLoadResult;
export type FormDefinition = contracts.FormDefinition;
export type FormAttributes = contracts.FormAttributes;
export type FormDesignSaveBody = contracts.FormDesignSaveBody;
export type FormDesignSaveResult = z.infer<typeof contracts.FormDesignSaveResult>;
export type FormDesignPublishBody = contracts.FormDesignPublishBody;
export type FormDesignPublishResult = contracts.FormDesignPublishResult;
export type SchemaChange = contracts.SchemaChange;
export type CheckReferenceResult = z.infer<typeof contracts.CheckReferenceResult>;
export type ControlReference = CheckReferenceResult['references'][number];
export type CheckTreeStructureResult = contracts.CheckTreeStructureResult;

export const formDesignKeys = {
  load: (schemaCode: string) => ['form-design', 'load', schemaCode] as const,
};

const BASE = '/v1/formdesign';

export const formDesignApi = {
  // The page shows a missing or forbidden form itself (a result page rather than a toast).
  load: (schemaCode: string) => apiClient.post<FormDesignLoadResult>(`${BASE}/load`, { schemaCode }, { disableBizError: true }),
  // The designer explains a stale version and refused definitions itself.
  save: (body: FormDesignSaveBody) => apiClient.post<FormDesignSaveResult>(`${BASE}/save`, body, { disableBizError: true }),
  // A refusal that lists data-losing changes is a question for the person, not an error toast.
  publish: (body: FormDesignPublishBody) => apiClient.post<FormDesignPublishResult>(`${BASE}/publish`, body, { disableBizError: true }),
  checkReference: (schemaCode: string, controlCode: string) => apiClient.post<CheckReferenceResult>(`${BASE}/checkreference`, { schemaCode, controlCode }),
  /** Whether the published rows fit tree display with this parent control (docs/decisions/0023). */
  checkTreeStructure: (schemaCode: string, parentCode: string) => apiClient.post<CheckTreeStructureResult>(`${BASE}/checktreestructure`, { schemaCode, parentCode }),
};

/** The changes a publish refusal asks the person to confirm (detail.changes), or undefined for other errors. */
export function refusedChanges(error: unknown): SchemaChange[] | undefined {
  if (!isApiError(error)) return undefined;
  const changes = (error.detail as { changes?: unknown } | undefined)?.changes;
  return Array.isArray(changes) ? (changes as SchemaChange[]) : undefined;
}

/** The key publish's `confirm` takes for a change: the server's own, else "table.column" (the table for a whole table). */
export function confirmKey(change: SchemaChange): string {
  const key = (change as { key?: unknown }).key;
  if (typeof key === 'string' && key) return key;
  return change.column ? `${change.table}.${change.column}` : change.table;
}

/**
 * A save or publish refused because someone saved the draft after it was loaded (FormDraftConflict). The
 * refusal carries the version the server holds (detail.currentVersion).
 */
export function staleVersion(error: unknown): { currentVersion?: number } | undefined {
  if (!isApiError(error)) return undefined;
  const current = (error.detail as { currentVersion?: unknown } | undefined)?.currentVersion;
  const isConflict = typeof error.errorCode === 'number' && getErrorByCode(error.errorCode)?.name === 'FormDraftConflict';
  if (typeof current === 'number') return { currentVersion: current };
  return isConflict || error.status === 409 ? {} : undefined;
}
