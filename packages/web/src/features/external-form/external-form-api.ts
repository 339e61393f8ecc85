import type { contracts } from '@tritium/shared';
import { apiClient } from '../../lib/api-client.ts';

// Public fill-in links (issue 19, ExternalForm): the designer's calls and the visitor's.

export const externalFormKeys = {
  link: (schemaCode: string) => ['external-form', 'link', schemaCode] as const,
  query: (schemaCode: string) => ['external-form', 'query', schemaCode] as const,
};

export const externalFormApi = {
  get: (schemaCode: string) => apiClient.post<contracts.PublicLinkResult>('/v1/form/externalform/get', { schemaCode }),
  save: (body: contracts.PublicLinkSaveBody) => apiClient.post<contracts.PublicLinkResult>('/v1/form/externalform/save', body),
  reset: (schemaCode: string) => apiClient.post<contracts.PublicLinkResult>('/v1/form/externalform/reset', { schemaCode }),
  /** The visitor's: refusals (a closed or unknown link, a wrong password) are shown by the page itself. */
  form: (engineCode: string, token: string, password?: string) =>
    apiClient.get<contracts.PublicFormResult>('/v1/external/form', { query: { engineCode, token }, headers: password ? { 'x-link-password': password } : {}, disableBizError: true }),
  /** Open-query pages (OpenQuery): the administrator's calls, then the visitor's. */
  openQuery: (schemaCode: string) => apiClient.post<contracts.OpenQueryResult>('/v1/form/openquery/get', { schemaCode }),
  saveOpenQuery: (body: contracts.OpenQuerySaveBody) => apiClient.post<contracts.OpenQueryResult>('/v1/form/openquery/save', body),
  resetOpenQuery: (schemaCode: string) => apiClient.post<contracts.OpenQueryResult>('/v1/form/openquery/reset', { schemaCode }),
  queryPage: (engineCode: string, token: string, password?: string) =>
    apiClient.get<contracts.OpenQueryPage>('/v1/external/query', { query: { engineCode, token }, headers: password ? { 'x-link-password': password } : {}, disableBizError: true }),
  queryCode: (body: { engineCode: string; token: string; mobile: string }) => apiClient.post<{ expiresIn: number; resendAfter: number }>('/v1/external/query/code', body, { disableBizError: true }),
  search: (body: contracts.OpenQuerySearchBody) => apiClient.post<contracts.OpenQuerySearchResult>('/v1/external/query', body, { disableBizError: true }),
  submit: (body: contracts.PublicSubmitBody) => apiClient.post<{ submitted: boolean; seqNo: string | null }>('/v1/external/form/submit', body, { disableBizError: true }),
};
