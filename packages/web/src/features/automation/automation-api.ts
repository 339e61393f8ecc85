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
type SaveResult = z.infer<typeof contracts.AutomationSaveResult>;
type RunResult = z.infer<typeof contracts.RunAutomationResult>;

export type ViewField = contracts.ViewField;

export const automationKeys = {
  all: ['automation'] as const,
  form: (schemaCode: string) => ['automation', 'form', schemaCode] as const,
  fields: (schemaCode: string) => ['automation', 'fields', schemaCode] as const,
  records: (schemaCode: string) => ['automation', 'records', schemaCode] as const,
  list: (schemaCode: string) => ['automation', 'list', schemaCode] as const,
  logs: (schemaCode: string) => ['automation', 'logs', schemaCode] as const,
};

const BASE = '/v1/automatic';

/** What the page reads of its form: the definition (draft and published), its published fields, its latest records. */
export const automationFormApi = {
  // The page shows a missing or forbidden form itself.
  design: (schemaCode: string) => apiClient.post<contracts.FormDesignLoadResult>('/v1/formdesign/load', { schemaCode }, { disableBizError: true }),
  /** The published fields with their operators: the conditions' and the triggers' fields. */
  fields: (schemaCode: string) => apiClient.get<z.infer<typeof contracts.DesignerLoadResult>>('/v1/view/designer/load', { query: { schemaCode } }),
  /** The latest records a test run may use. */
  recentRecords: (schemaCode: string) => apiClient.post<contracts.ViewQueryResult>('/v1/bizdata/view/query', { schemaCode, pageIndex: 0, pageSize: 20 }),
};

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
