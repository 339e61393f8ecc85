import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { apiClient } from '../../../lib/api-client.ts';
import { getEngineCode } from '../../../lib/session.ts';
import { loadFormSchema, type PublishedForm } from '../../form-schema/load-form-schema.ts';

// The form runtime's calls (docs/decisions/0007): the published form, a record, the data actions, the data log.

export type LoadDataResult = contracts.LoadDataResult;
export type ExecuteResult = contracts.ExecuteResultOutput;
export type BizQueryResult = contracts.BizQueryResult;
export type DataLogList = z.infer<typeof contracts.DataLogListResult>;
export type RuntimeAction = z.infer<typeof contracts.BizActionCode>;
export type { PublishedForm };


export const runtimeKeys = {
  form: (schemaCode: string) => ['form-runtime', 'form', schemaCode] as const,
  record: (schemaCode: string, objectId: string | undefined) => ['form-runtime', 'record', schemaCode, objectId ?? 'new'] as const,
  records: (schemaCode: string) => ['form-runtime', 'records', schemaCode] as const,
  dataLogs: (schemaCode: string) => ['form-runtime', 'data-log', schemaCode] as const,
  dataLog: (schemaCode: string, objectId: string) => ['form-runtime', 'data-log', schemaCode, objectId] as const,
};

export const runtimeApi = {
  loadForm: (schemaCode: string) => loadFormSchema(getEngineCode() ?? '', schemaCode),
  loadData: (schemaCode: string, objectId?: string) =>
    apiClient.post<LoadDataResult>('/v1/form/loaddata', { schemaCode, ...(objectId ? { objectId } : {}) }, { disableBizError: true }),
  // The form shows refused values next to their fields itself.
  execute: (body: z.input<typeof contracts.ExecuteBody>) => apiClient.post<ExecuteResult>('/v1/form/action/execute', body, { disableBizError: true }),
  query: (body: z.input<typeof contracts.BizQueryBody>) => apiClient.post<BizQueryResult>('/v1/bizdata/query', body),
  dataLog: (schemaCode: string, objectId: string) => apiClient.post<DataLogList>('/v1/form/datalog/list', { schemaCode, objectId }),
};
