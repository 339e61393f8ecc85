import type { contracts } from '@tritium/shared';
import { CONNECTED_ENGINES_PAGING } from '@tritium/shared/constants/engine';
import type { z } from 'zod';
import { apiClient } from '../../../lib/api-client.ts';

export type UserInfoResult = z.infer<typeof contracts.UserInfoResult>;
export type EngineDto = z.infer<typeof contracts.EngineDto>;
export type ConnectedEnginesResult = z.infer<typeof contracts.ConnectedEnginesResult>;
export type FeatureSwitchesResult = z.infer<typeof contracts.FeatureSwitchesResult>;
export type TokenRefreshResult = z.infer<typeof contracts.TokenRefreshResult>;
export type SwitchEngineBody = z.infer<typeof contracts.SwitchEngineBody>;

/** Query keys of the workbench context; switching engine resets all of them. */
export const workbenchKeys = {
  userInfo: ['user', 'info'] as const,
  connectedEngines: ['engine', 'connected'] as const,
  featureSwitches: ['switch', 'batch'] as const,
};

export const workbenchApi = {
  // A refusal (user or engine disabled) is explained on the page itself (UserInfoError), not in a toast as well.
  getUserInfo: () => apiClient.get<UserInfoResult>('/v1/user/info', { disableBizError: true }),
  getConnectedEngines: () => apiClient.get<ConnectedEnginesResult>('/v1/engine/connected', { query: { ...CONNECTED_ENGINES_PAGING } }),
  switchEngine: (body: SwitchEngineBody) => apiClient.put<Record<string, never>>('/v1/engine/current', body),
  getFeatureSwitches: (names: readonly string[]) =>
    apiClient.post<FeatureSwitchesResult>('/v1/switch/batch', { names }, { disableBizError: true }),
  // A refresh that fails is not the person's business: the current token still works until it expires.
  refreshToken: () => apiClient.get<TokenRefreshResult>('/v1/token/refresh', { disableBizError: true, disableSysError: true }),
};
