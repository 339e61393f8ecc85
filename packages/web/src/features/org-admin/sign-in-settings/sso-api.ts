import type { contracts } from '@tritium/shared';
import { apiClient } from '../../../lib/api-client.ts';

// The engine's single sign-on settings (issue 25): Administrators only; the client secret is write-only.

export type SsoSettingDto = contracts.SsoSettingDto;
export type SsoSettingSaveBody = contracts.SsoSettingSaveBody;
export type SsoMatchBy = contracts.SsoMatchBy;

export const SSO_MATCH_BY: SsoMatchBy[] = ['mobile', 'email', 'employeeNo'];

export const ssoKeys = { setting: ['sso-setting'] as const };

export const ssoApi = {
  load: () => apiClient.get<SsoSettingDto>('/v1/sysintergration/sso/setting/load'),
  save: (body: SsoSettingSaveBody) => apiClient.post<SsoSettingDto>('/v1/sysintergration/sso/setting', body),
};

// The chat platforms' app settings and directory sync (DingTalk now).
export type ChatSettingDto = contracts.ChatSettingDto;
export type ChatSettingSaveBody = contracts.ChatSettingSaveBody;
export type DirectorySyncSummary = contracts.DirectorySyncSummary;
export type DirectorySyncLog = contracts.DirectorySyncLog;

export const chatKeys = { setting: (provider: string) => ['chat-setting', provider] as const, log: (provider: string) => ['directory-sync-log', provider] as const };

export const chatApi = {
  load: (provider: 'dingtalk') => apiClient.get<ChatSettingDto>('/v1/sysintergration/chat/setting/load', { query: { provider } }),
  save: (body: ChatSettingSaveBody) => apiClient.post<ChatSettingDto>('/v1/sysintergration/chat/setting', body),
  preview: (provider: 'dingtalk') => apiClient.post<DirectorySyncSummary>('/v1/sysintergration/directory/preview', { provider }),
  sync: (provider: 'dingtalk') => apiClient.post<{ jobId: string }>('/v1/sysintergration/directory/sync', { provider }),
  log: (provider: 'dingtalk') => apiClient.get<DirectorySyncLog>('/v1/sysintergration/directory/log', { query: { provider } }),
};
