import type { contracts } from '@tritium/shared';
import { apiClient } from '../../lib/api-client.ts';

// Connection configs and connectors (issue 44, docs/decisions/0120): the console manages them (Administrators), the
// form designer offers connectors to the advanced button, and the button runs its connector in a form.

export type ConnectionDto = contracts.ConnectionDto;
export type ConnectionSaveBody = contracts.ConnectionSaveBody;
export type ConnectionTestResult = contracts.ConnectionTestResult;
export type ConnectorDto = contracts.ConnectorDto;
export type ConnectorSaveBody = contracts.ConnectorSaveBody;
export type ConnectorCallDto = contracts.ConnectorCallDto;

export const connectorKeys = {
  connections: ['connectors', 'connections'] as const,
  connectors: (connectionCode: string) => ['connectors', 'connectors', connectionCode] as const,
  log: (page: number) => ['connectors', 'log', page] as const,
  choices: ['connectors', 'choices'] as const,
};

const base = '/v1/connectors';

export const connectorsApi = {
  connections: () => apiClient.get<contracts.ConnectionListResult>(`${base}/connection/list`),
  saveConnection: (body: ConnectionSaveBody) => apiClient.post<ConnectionDto>(`${base}/connection/save`, body),
  removeConnection: (code: string) => apiClient.post<{ code: string }>(`${base}/connection/remove`, { code }),
  enable: (code: string, enabled: boolean) => apiClient.post<ConnectionDto>(`${base}/connection/enable`, { code, enabled }),
  test: (code: string) => apiClient.post<ConnectionTestResult>(`${base}/connection/test`, { code }),
  connectors: (connectionCode: string) => apiClient.get<contracts.ConnectorListResult>(`${base}/connector/list`, { query: { connectionCode } }),
  saveConnector: (body: ConnectorSaveBody) => apiClient.post<ConnectorDto>(`${base}/connector/save`, body),
  removeConnector: (code: string) => apiClient.post<{ code: string }>(`${base}/connector/remove`, { code }),
  log: (pageIndex: number, pageSize = 20) => apiClient.get<contracts.ConnectorLogResult>(`${base}/log`, { query: { pageIndex: String(pageIndex), pageSize: String(pageSize) } }),
  choices: () => apiClient.get<contracts.ConnectorChoicesResult>(`${base}/choices`),
  pressButton: (body: contracts.ButtonCallBody) => apiClient.post<contracts.ButtonCallResult>(`${base}/button`, body),
};
