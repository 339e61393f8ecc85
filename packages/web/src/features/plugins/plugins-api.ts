import type { contracts } from '@tritium/shared';
import { apiClient } from '../../lib/api-client.ts';

// Plugins (issue 44, docs/decisions/0123): the admin console installs templates and authors the engine's own plugins;
// forms list the instances (plugin control, designer) and call them through POST /v2/plugin/invoke.

export type PluginCatalogueItem = contracts.PluginCatalogueItem;
export type CustomPluginDto = contracts.CustomPluginDto;
export type PluginInstanceDto = contracts.PluginInstanceDto;

export const pluginKeys = {
  all: ['plugins'] as const,
  catalogue: ['plugins', 'catalogue'] as const,
  custom: ['plugins', 'custom'] as const,
  instances: ['plugins', 'instances'] as const,
  connectorChoices: ['plugins', 'connectorChoices'] as const,
};

const base = '/v1/plugin';

export const pluginsApi = {
  catalogue: () => apiClient.get<contracts.PluginCatalogueResult>(`${base}/catalogue`),
  install: (body: { code: string; settings?: Record<string, unknown>; secrets?: Record<string, string> }) => apiClient.post<contracts.PluginChangeResult>(`${base}/install`, body),
  saveSettings: (body: { code: string; settings?: Record<string, unknown>; secrets?: Record<string, string> }) => apiClient.post<contracts.PluginChangeResult>(`${base}/settings`, body),
  uninstall: (code: string) => apiClient.post<contracts.PluginChangeResult>(`${base}/uninstall`, { code }),
  customList: () => apiClient.get<contracts.CustomPluginListResult>(`${base}/custom/list`),
  saveCustom: (body: contracts.CustomPluginSaveBody) => apiClient.post<CustomPluginDto>(`${base}/custom/save`, body),
  submitCustom: (code: string) => apiClient.post<CustomPluginDto>(`${base}/custom/submit`, { code }),
  reviewCustom: (body: { code: string; approve: boolean; reason?: string }) => apiClient.post<CustomPluginDto>(`${base}/custom/review`, body),
  removeCustom: (code: string) => apiClient.post<{ code: string }>(`${base}/custom/remove`, { code }),
  instances: () => apiClient.get<contracts.PluginInstanceListResult>(`${base}/instances`),
  /** The connectors a custom plugin may call; quiet, since without the connector plugin the answer is 430001. */
  connectorChoices: () => apiClient.get<contracts.ConnectorChoicesResult>('/v1/connectors/choices', { disableBizError: true }),
  invoke: (body: { pluginCode: string; method: string; params?: Record<string, unknown> }) => apiClient.post<contracts.PluginInvokeResult>('/v2/plugin/invoke', body),
};
