import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { apiClient } from '../../lib/api-client.ts';

// Automations and smart actions (issue 21, docs/decisions/0041): the calls of packages/shared/src/contracts/automation.

export type AutomationDto = contracts.AutomationDto;
export type AutomationRunDto = contracts.AutomationRunDto;
export type AutomationStepLog = contracts.AutomationStepLog;
export type AutomationLogsBody = contracts.AutomationLogsBody;
export type AutomationLogsResult = contracts.AutomationLogsResult;
export type AutomationTestRunBody = contracts.AutomationTestRunBody;
export type AutomationTestRunResult = contracts.AutomationTestRunResult;
export type AutomationSaveBody = contracts.AutomationSaveBody;
export type SmartActionDto = contracts.SmartActionDto;
export type SmartLocation = SmartActionDto['locations'][number];
type SaveResult = z.infer<typeof contracts.AutomationSaveResult>;
type RunResult = z.infer<typeof contracts.RunAutomationResult>;

export const automationKeys = {
  all: ['automation'] as const,
  list: (schemaCode: string) => ['automation', 'list', schemaCode] as const,
  logs: (schemaCode: string) => ['automation', 'logs', schemaCode] as const,
  smartActions: (schemaCode: string, location: SmartLocation) => ['automation', 'smart-actions', schemaCode, location] as const,
};

const BASE = '/v1/automatic';

export const automationApi = {
  list: (schemaCode: string) => apiClient.post<contracts.AutomationListResult>(`${BASE}/list`, { schemaCode }),
  // The designer shows refusals (777 details) next to what they name.
  save: (body: AutomationSaveBody) => apiClient.post<SaveResult>(`${BASE}/save`, body, { disableBizError: true }),
  enable: (id: string) => apiClient.post<unknown>(`${BASE}/enable`, { id }),
  disable: (id: string) => apiClient.post<unknown>(`${BASE}/disable`, { id }),
  remove: (id: string) => apiClient.post<unknown>(`${BASE}/delete`, { id }),
  resetSecret: (id: string) => apiClient.post<unknown>(`${BASE}/resetsecret`, { id }),
  logs: (body: AutomationLogsBody) => apiClient.post<AutomationLogsResult>(`${BASE}/logs`, body),
  retry: (runId: string) => apiClient.post<unknown>(`${BASE}/retry`, { runId }),
  // The panel shows why a test run could not start.
  testRun: (body: AutomationTestRunBody) => apiClient.post<AutomationTestRunResult>(`${BASE}/testrun`, body, { disableBizError: true }),
  /** Runs a button or custom automation for records (queued). */
  run: (body: contracts.RunAutomationBody) => apiClient.post<RunResult>('/v1/bizdata/action/automation', body),
};

export const smartActionApi = {
  // No buttons when the list cannot be read: the form and the list work on without them.
  list: (schemaCode: string, location: SmartLocation) =>
    apiClient.post<contracts.SmartActionListResult>('/v1/smartaction/list', { schemaCode, location }, { disableBizError: true, disableSysError: true }),
  run: (schemaCode: string, actionCode: string, objectIds: string[]) => apiClient.post<RunResult>('/v1/smartaction/run', { schemaCode, actionCode, objectIds }),
};
