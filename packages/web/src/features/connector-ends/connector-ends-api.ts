import type { contracts } from '@tritium/shared';
import { apiClient } from '../../lib/api-client.ts';

// The data-source node (290) and the inbound connector trigger's secret (issue 44; docs/decisions/0123).

export type DataSourceDto = contracts.DataSourceDto;
export type DataSourceDefinition = contracts.DataSourceDefinition;
export type DataSourceQueryResult = contracts.DataSourceQueryResult;
export type DataSourceConnector = contracts.DataSourceConnectorsResult['items'][number];
export type InboundSecretResult = contracts.InboundSecretResult;

export const dataSourceKeys = {
  node: (code: string) => ['dataSource', 'node', code] as const,
  rows: (code: string, page: number, size: number, filters: Record<string, string>) => ['dataSource', 'rows', code, page, size, filters] as const,
  connectors: ['dataSource', 'connectors'] as const,
  inbound: (id: string) => ['dataSource', 'inbound', id] as const,
};

const base = '/v1/connectors';

export const dataSourceApi = {
  get: (nodeCode: string) => apiClient.get<DataSourceDto>(`${base}/datasource/get`, { query: { nodeCode } }),
  save: (nodeCode: string, definition: contracts.DataSourceDefinitionInput) => apiClient.post<DataSourceDto>(`${base}/datasource/save`, { nodeCode, definition }),
  query: (body: contracts.DataSourceQueryBody) => apiClient.post<DataSourceQueryResult>(`${base}/datasource/query`, body),
  connectors: () => apiClient.get<contracts.DataSourceConnectorsResult>(`${base}/datasource/connectors`),
  inboundSecret: (id: string) => apiClient.post<InboundSecretResult>(`${base}/inbound/secret`, { id }),
  resetInboundSecret: (id: string) => apiClient.post<InboundSecretResult>(`${base}/inbound/resetsecret`, { id }),
};
