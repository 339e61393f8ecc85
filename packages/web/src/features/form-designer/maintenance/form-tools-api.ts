import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { apiClient } from '../../../lib/api-client.ts';

// The calls behind the designer's data maintenance (calls.md §7: /v1/formconfig/customindex/*, seqno reset and info,
// /v1/form/rollup/*). Reads show a refusal in place (e.g. a form not yet published); writes use the error toast.

export type CustomIndexList = z.infer<typeof contracts.CustomIndexListResult>;
export type CustomIndex = contracts.CustomIndexDto;
export type SeqNoInfo = z.infer<typeof contracts.SeqNoInfoResult>;
export type RollupProgress = contracts.RollupProgressResult;

export const formToolKeys = {
  indexes: (schemaCode: string) => ['form-tools', 'indexes', schemaCode] as const,
  seqNo: (schemaCode: string) => ['form-tools', 'seq-no', schemaCode] as const,
  rollup: (actionId: string) => ['form-tools', 'rollup', actionId] as const,
};

export const formToolsApi = {
  indexes: (schemaCode: string) => apiClient.post<CustomIndexList>('/v1/formconfig/customindex/list', { schemaCode }, { disableBizError: true }),
  addIndex: (schemaCode: string, fields: string[]) => apiClient.post<CustomIndex>('/v1/formconfig/customindex/save', { schemaCode, fields }),
  removeIndex: (schemaCode: string, indexName: string) => apiClient.post<{ removed: boolean }>('/v1/formconfig/customindex/remove', { schemaCode, indexName }),
  seqNo: (schemaCode: string) => apiClient.post<SeqNoInfo>('/v1/formdesign/seqno/info', { schemaCode }, { disableBizError: true }),
  resetSeqNo: (schemaCode: string, controlCode: string) => apiClient.post<{ removed: number }>('/v1/formdesign/seqno/reset', { schemaCode, controlCode }),
  recompute: (schemaCode: string) => apiClient.post<{ actionId: string }>('/v1/form/rollup/recompute', { schemaCode }),
  progress: (actionId: string) => apiClient.get<RollupProgress>('/v1/form/rollup/progress', { query: { actionId }, disableBizError: true }),
};
