import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { apiClient } from '../../../lib/api-client.ts';

// The workflow calls the form uses when its record runs in a flow (docs/decisions/0014, 0022).

export type WorkflowInfo = z.infer<typeof contracts.WfInstanceInfoResult>;
export type WorkflowDetail = z.infer<typeof contracts.WfInstanceDetailResult>;
export type WorkflowChart = z.infer<typeof contracts.WfActivityListResult>;
export type MyWorkItem = WorkflowInfo['myItems'][number];
export type FieldPermission = MyWorkItem['fieldPermissions'][string];
export type Opinion = contracts.WorkflowOpinion;

export const workflowKeys = {
  all: (instanceId: string) => ['form-runtime', 'workflow', instanceId] as const,
  info: (instanceId: string) => ['form-runtime', 'workflow', instanceId, 'info'] as const,
  detail: (instanceId: string) => ['form-runtime', 'workflow', instanceId, 'detail'] as const,
  chart: (instanceId: string) => ['form-runtime', 'workflow', instanceId, 'chart'] as const,
  sendBack: (instanceId: string, workItemId: string) => ['form-runtime', 'workflow', instanceId, 'pre', workItemId] as const,
  handSign: (instanceId: string, workItemId: string) => ['form-runtime', 'workflow', instanceId, 'handsign', workItemId] as const,
};

/** A query that belongs to one work item (send-back targets, hand-sign setting): it ends when the item is handled. */
export const isItemQuery = (key: readonly unknown[], instanceId: string, workItemId: string | undefined): boolean =>
  !!workItemId && key.length === 5 && key[2] === instanceId && key[4] === workItemId;

/** The path of each button's call; item buttons send the work item, instance buttons the instance. */
export const ACTION_PATHS = {
  Submit: '/v1/workflow/instance/submit',
  Reject: '/v1/workflow/instance/reject',
  ForBack: '/v1/workflow/instance/forback',
  Forward: '/v1/workflow/instance/forward',
  TempAddition: '/v1/workflow/instance/addsign',
  ForComment: '/v1/workflow/instance/consult',
  Read: '/v1/workflow/instance/read',
  Circulate: '/v1/workflow/instance/circulate',
  RetrieveInstance: '/v1/workflow/instance/retrieve',
  CancelInstance: '/v1/workflow/instance/cancel',
  FinishInstance: '/v1/workflow/instance/finish',
  Urge: '/v1/workflow/instance/urge',
  Reactivate: '/v1/workflow/instance/reactivate',
  Revise: '/v1/workflow/instance/revise',
} as const;
export type WorkflowButton = keyof typeof ACTION_PATHS;
export const isWorkflowButton = (name: string): name is WorkflowButton => name in ACTION_PATHS;

export const workflowApi = {
  info: (instanceId: string) => apiClient.get<WorkflowInfo>('/v1/workflow/instance/info', { query: { instanceId } }),
  detail: (instanceId: string) => apiClient.get<WorkflowDetail>('/v1/workflow/instance/detail', { query: { instanceId } }),
  chart: (instanceId: string) => apiClient.get<WorkflowChart>('/v1/workflow/instance/activity/list', { query: { instanceId } }),
  /** Whether the item's node takes a hand signature (none, optional, required) and the caller's latest one. */
  handSignConfig: (workItemId: string) => apiClient.get<HandSignConfig>('/v1/workflow/handsign/config', { query: { workItemId } }),
  sendBackTargets: (workItemId: string) => apiClient.get<{ activities: { code: string; name: string }[] }>('/v1/workflow/instance/activity/pre', { query: { workItemId } }),
  // The form shows refused values next to their fields itself.
  act: (button: WorkflowButton, body: Record<string, unknown>) => apiClient.post<contracts.WfInstanceDto>(ACTION_PATHS[button], body, { disableBizError: true }),
};

export interface HandSignConfig {
  mode: 'none' | 'optional' | 'required';
  lastSignature: string | null;
}
