import type { contracts } from '@tritium/shared';
import { apiClient } from '../../lib/api-client.ts';

// Public fill-in links (issue 19, ExternalForm): the designer's calls and the visitor's.

export const externalFormKeys = {
  link: (schemaCode: string) => ['external-form', 'link', schemaCode] as const,
  shares: (schemaCode: string, objectId: string) => ['external-form', 'shares', schemaCode, objectId] as const,
};

export const externalFormApi = {
  get: (schemaCode: string) => apiClient.post<contracts.PublicLinkResult>('/v1/form/externalform/get', { schemaCode }),
  save: (body: contracts.PublicLinkSaveBody) => apiClient.post<contracts.PublicLinkResult>('/v1/form/externalform/save', body),
  reset: (schemaCode: string) => apiClient.post<contracts.PublicLinkResult>('/v1/form/externalform/reset', { schemaCode }),
  /** The visitor's: refusals (a closed or unknown link, a wrong password) are shown by the page itself. */
  form: (engineCode: string, token: string, password?: string) =>
    apiClient.get<contracts.PublicFormResult>('/v1/external/form', { query: { engineCode, token }, headers: password ? { 'x-link-password': password } : {}, disableBizError: true }),
  /** Record shares (ExternalShare): the member's calls, then the visitor's. */
  shares: (schemaCode: string, objectId: string) => apiClient.post<contracts.RecordShareListResult>('/v1/form/externalshare/list', { schemaCode, objectId }),
  share: (body: contracts.RecordShareCreateBody) => apiClient.post<{ share: contracts.RecordShareDto }>('/v1/form/externalshare/create', body),
  revokeShare: (id: string) => apiClient.post<{ revoked: boolean }>('/v1/form/externalshare/revoke', { id }),
  shortLink: (path: string) => apiClient.post<{ url: string; target: string }>('/v1/bizdata/shortlink', { path }),
  sharedRecord: (engineCode: string, token: string, password?: string) =>
    apiClient.get<contracts.SharedRecordResult>('/v1/external/share', { query: { engineCode, token }, headers: password ? { 'x-link-password': password } : {}, disableBizError: true }),
  submit: (body: contracts.PublicSubmitBody) => apiClient.post<{ submitted: boolean; seqNo: string | null }>('/v1/external/form/submit', body, { disableBizError: true }),
};
