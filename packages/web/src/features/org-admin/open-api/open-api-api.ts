import type { contracts } from '@tritium/shared';
import { apiClient } from '../../../lib/api-client.ts';

// The engine secrets of the open API (docs/decisions/0021): Administrators only.

export type EngineSecretDto = contracts.EngineSecretDto;
export type EngineSecretListResult = contracts.EngineSecretListResult;
export type EngineSecretCreateResult = contracts.EngineSecretCreateResult;

export const openApiKeys = { secrets: ['open-api', 'secrets'] as const };

export const openApiApi = {
  listSecrets: () => apiClient.get<EngineSecretListResult>('/v1/engine/secret/list'),
  createSecret: (name: string) => apiClient.post<EngineSecretCreateResult>('/v1/engine/secret/create', { name }),
  revokeSecret: (id: string) => apiClient.post<EngineSecretDto>('/v1/engine/secret/revoke', { id }),
};

/** The address third-party systems post to, on this server. */
export const invokeUrl = () => `${window.location.origin}/OpenApi/Invoke`;
