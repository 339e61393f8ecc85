import type { z } from 'zod';
import type { contracts } from '@tritium/shared';
import { useQuery } from '@tanstack/react-query';
import { apiClient } from '../../lib/api-client.ts';

// The e-sign control's calls (docs/decisions/0123, e-signature): the record control's latest flow, start, revoke.

export type ESignFlowDto = contracts.ESignFlowDto;
export type ESignFlowResult = contracts.ESignFlowResult;
export type ESignTarget = z.input<typeof contracts.ESignFlowQuery>;
export type ESignStartBody = z.input<typeof contracts.ESignStartBody>;

export const eSignKeys = {
  flow: (target: ESignTarget) => ['eSign', 'flow', target.schemaCode, target.objectId, target.controlCode] as const,
};

export const eSignApi = {
  flow: (target: ESignTarget) => apiClient.get<ESignFlowResult>('/v1/esign/flow', { query: { ...target } }),
  start: (body: ESignStartBody) => apiClient.post<ESignFlowDto>('/v1/esign/flow/start', body),
  revoke: (flowId: string) => apiClient.post<ESignFlowDto>('/v1/esign/flow/revoke', { flowId }),
};

/** Signed links of the flow's documents (signed for 10 minutes by the files module; asked again after 8). */
export function useSignedFileUrls(fileIds: readonly string[]): Record<string, string> {
  const query = useQuery({
    queryKey: ['eSign', 'fileUrls', [...fileIds].sort().join(',')],
    queryFn: () => apiClient.post<contracts.FileUrlsResult>('/v1/file/urls/byfileids', { fileIds: [...fileIds] }, { disableBizError: true }),
    enabled: fileIds.length > 0,
    staleTime: 8 * 60 * 1000,
  });
  return Object.fromEntries((query.data?.list ?? []).map((item) => [item.fileId, item.url]));
}
