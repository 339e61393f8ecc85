import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { apiClient } from '../../lib/api-client.ts';

// Smart actions (issue 21, /v1/smartaction/*): the button automations a person may press on a form or a list. Kept
// apart from the automation page so the form runtime and the list view load only this.

export type SmartActionDto = contracts.SmartActionDto;
export type SmartLocation = SmartActionDto['locations'][number];
type RunResult = z.infer<typeof contracts.RunAutomationResult>;

export const smartActionKeys = {
  list: (schemaCode: string, location: SmartLocation) => ['smart-actions', schemaCode, location] as const,
};

export const smartActionApi = {
  // No buttons when the list cannot be read: the form and the list work on without them.
  list: (schemaCode: string, location: SmartLocation) =>
    apiClient.post<contracts.SmartActionListResult>('/v1/smartaction/list', { schemaCode, location }, { disableBizError: true, disableSysError: true }),
  run: (schemaCode: string, actionCode: string, objectIds: string[]) => apiClient.post<RunResult>('/v1/smartaction/run', { schemaCode, actionCode, objectIds }),
};
