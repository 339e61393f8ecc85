import type { contracts } from '@tritium/shared';
import { apiClient } from '../../lib/api-client.ts';

// Record shares (issue 19, ExternalShare): the member's calls, then the visitor's.

export const recordShareKeys = { shares: (schemaCode: string, objectId: string) => ['record-share', schemaCode, objectId] as const };

export const recordShareApi = {
  /** Record shares (ExternalShare): the member's calls, then the visitor's. */
  shares: (schemaCode: string, objectId: string) => apiClient.post<contracts.RecordShareListResult>('/v1/form/externalshare/list', { schemaCode, objectId }),
  share: (body: contracts.RecordShareCreateBody) => apiClient.post<{ share: contracts.RecordShareDto }>('/v1/form/externalshare/create', body),
  revokeShare: (id: string) => apiClient.post<{ revoked: boolean }>('/v1/form/externalshare/revoke', { id }),
  shortLink: (path: string) => apiClient.post<{ url: string; target: string }>('/v1/bizdata/shortlink', { path }),
  sharedRecord: (engineCode: string, token: string, password?: string) =>
    apiClient.get<contracts.SharedRecordResult>('/v1/external/share', { query: { engineCode, token }, headers: password ? { 'x-link-password': password } : {}, disableBizError: true }),
};
