import type { contracts } from '@tritium/shared';
import { apiClient } from '../../../lib/api-client.ts';

// The engine's single sign-on settings (issue 25; OpenID Connect or SAML 2.0): Administrators only; the client
// secret is write-only.

export type SsoSettingDto = contracts.SsoSettingDto;
export type SsoSettingSaveBody = contracts.SsoSettingSaveBody;
export type SsoMatchBy = contracts.SsoMatchBy;

export const SSO_MATCH_BY: SsoMatchBy[] = ['mobile', 'email', 'employeeNo'];
export const SSO_PROTOCOLS: contracts.SsoProtocol[] = ['oidc', 'saml'];

export const ssoKeys = { setting: ['sso-setting'] as const };

export const ssoApi = {
  load: () => apiClient.get<SsoSettingDto>('/v1/sysintergration/sso/setting/load'),
  save: (body: SsoSettingSaveBody) => apiClient.post<SsoSettingDto>('/v1/sysintergration/sso/setting', body),
};

// The chat platforms' app settings and directory sync (DingTalk, WeCom, Feishu), and DingTalk's shortcuts.
type Provider = contracts.ChatProviderName;
export type ChatSettingDto = contracts.ChatSettingDto;
export type ChatSettingSaveBody = contracts.ChatSettingSaveBody;
export type DirectorySyncSummary = contracts.DirectorySyncSummary;
export type DirectorySyncLog = contracts.DirectorySyncLog;

export type DingtalkShortcut = contracts.DingtalkShortcut;

export const shortcutKeys = { list: ['dingtalk-shortcuts'] as const };

export const shortcutApi = {
  list: () => apiClient.get<{ list: DingtalkShortcut[] }>('/v1/shortcut/dingtalk'),
  create: (body: { name: string; nodeCode: string }) => apiClient.post<{ id: string }>('/v1/shortcut/dingtalk', body),
  update: (body: { id: string; name: string; nodeCode: string }) => apiClient.put<Record<string, never>>('/v1/shortcut/dingtalk', body),
  remove: (id: string) => apiClient.post<Record<string, never>>('/v1/shortcut/dingtalk/remove', { id }),
};

export const chatKeys = { setting: (provider: string) => ['chat-setting', provider] as const, log: (provider: string) => ['directory-sync-log', provider] as const };

export const chatApi = {
  load: (provider: Provider) => apiClient.get<ChatSettingDto>('/v1/sysintergration/chat/setting/load', { query: { provider } }),
  save: (body: ChatSettingSaveBody) => apiClient.post<ChatSettingDto>('/v1/sysintergration/chat/setting', body),
  preview: (provider: Provider) => apiClient.post<DirectorySyncSummary>('/v1/sysintergration/directory/preview', { provider }),
  sync: (provider: Provider, mode: contracts.DirectorySyncMode = 'full') => apiClient.post<{ jobId: string }>('/v1/sysintergration/directory/sync', { provider, mode }),
  log: (provider: Provider) => apiClient.get<DirectorySyncLog>('/v1/sysintergration/directory/log', { query: { provider } }),
};
