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
