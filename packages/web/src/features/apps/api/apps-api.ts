import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { apiClient } from '../../../lib/api-client.ts';

export type FunctionNodeDto = contracts.FunctionNodeDto;
export type AppDto = z.infer<typeof contracts.AppDto>;
export type AppListResult = z.infer<typeof contracts.AppListResult>;
export type AdminAppCodesResult = z.infer<typeof contracts.AdminAppCodesResult>;
export type FeatureListResult = z.infer<typeof contracts.FeatureListResult>;
export type CreateNodeBody = z.input<typeof contracts.CreateNodeBody>;
export type UpdateNodeBody = z.input<typeof contracts.UpdateNodeBody>;
export type SortNodeBody = z.input<typeof contracts.SortNodeBody>;
export type MoveNodeBody = z.input<typeof contracts.MoveNodeBody>;
export type CheckResult = z.infer<typeof contracts.CheckResult>;
export type CopyProgressResult = z.infer<typeof contracts.CopyProgressResult>;
export type NodeListResult = z.infer<typeof contracts.NodeListResult>;
export type RemovedResult = z.infer<typeof contracts.RemovedResult>;
export type NodePermissionListResult = contracts.NodePermissionListResult;
export type WorkbenchConfig = z.infer<typeof contracts.WorkbenchConfig>;
export type WorkbenchComponent = WorkbenchConfig['components'][number];
export type WorkbenchConfigResult = z.infer<typeof contracts.WorkbenchConfigResult>;
export type RecentActivityResult = z.infer<typeof contracts.RecentActivityResult>;

/**
 * Query keys of apps and the workbench. All start with 'apps': after any write to the tree the workbench
 * invalidates ['apps'] and the app list, the open app's tree and the recent activity reload.
 */
export const appKeys = {
  all: ['apps'] as const,
  list: ['apps', 'list'] as const,
  adminCodes: ['apps', 'admin-codes'] as const,
  features: (appCode: string) => ['apps', 'features', appCode] as const,
  hidden: (device: 'pc' | 'mobile') => ['apps', 'hidden', device] as const,
  search: (keyword: string, nodeTypes?: number[]) => ['apps', 'search', keyword, nodeTypes ?? 'all'] as const,
  recent: ['apps', 'recent'] as const,
  copy: (actionId: string) => ['apps', 'copy', actionId] as const,
  config: ['workbench', 'config'] as const,
};

const NODE = '/v1/functionnode';

export const appsApi = {
  // The list without trees: one row per app; an app's tree loads when it opens (feature/list).
  listApps: () => apiClient.get<AppListResult>(`${NODE}/app/list`, { query: { withChildren: 'false' } }),
  adminAppCodes: () => apiClient.get<AdminAppCodesResult>(`${NODE}/app/hascode/list`),
  features: (appCode: string) => apiClient.get<FeatureListResult>('/v1/functionNode/app/feature/list', { query: { appCode } }),
  /** The forms switched off on a device (pcVisible / mobileVisible false; docs/decisions/0115). */
  hiddenForms: (device: 'pc' | 'mobile') => apiClient.get<{ codes: string[] }>('/v1/form/hidden', { query: { device }, disableBizError: true, disableSysError: true }),
  create: (body: CreateNodeBody) => apiClient.post<FunctionNodeDto>(NODE, body, { disableBizError: true }),
  update: (body: UpdateNodeBody) => apiClient.post<FunctionNodeDto>(`${NODE}/update`, body, { disableBizError: true }),
  remove: (code: string) => apiClient.post<RemovedResult>(`${NODE}/remove`, { code }),
  sort: (body: SortNodeBody) => apiClient.put<Record<string, never>>(`${NODE}/sort`, body),
  checkMove: (body: MoveNodeBody) => apiClient.post<CheckResult>('/v1/functionNode/checkmove', body),
  move: (body: MoveNodeBody) => apiClient.post<FunctionNodeDto>(`${NODE}/move`, body),
  checkCopy: (code: string) => apiClient.post<CheckResult>('/v1/functionNode/checkcopy', { code }),
  copy: (code: string) => apiClient.post<{ actionId: string }>(`${NODE}/copy`, { code }),
  // The dialog shows what went wrong with a copy itself.
  copyProgress: (actionId: string) => apiClient.get<CopyProgressResult>(`${NODE}/copy/progress`, { query: { actionId }, disableBizError: true }),
  retryCopy: (actionId: string) => apiClient.post<Record<string, never>>(`${NODE}/copy/retry`, { actionId }),
  /** Who may open a node, and how (Administrators; docs/decisions/0004). */
  nodePermissions: (code: string) => apiClient.post<NodePermissionListResult>(`${NODE}/auth/list`, { code }),
  setNodePermission: (body: { code: string; unitId: string; permission: 'none' | 'access' | 'create' | 'administrator' }) =>
    apiClient.post<Record<string, never>>(`${NODE}/auth/set`, body),
  nodesByCodes: (codes: string[]) => apiClient.post<NodeListResult>(`${NODE}/list/bycodes`, { codes }),
  searchNodes: (keyword: string, nodeTypes?: number[]) => apiClient.post<NodeListResult>(`${NODE}/list/bykeyword`, { keyword, ...(nodeTypes ? { nodeTypes } : {}) }),
  recentActivity: (limit = 10) => apiClient.get<RecentActivityResult>('/v1/workbench/recentactivity', { query: { limit } }),
  // Recording a visit is bookkeeping: a failure is not the person's business.
  visit: (code: string) => apiClient.post<Record<string, never>>('/v1/workbench/visit', { code }, { disableBizError: true, disableSysError: true }),
  config: () => apiClient.get<WorkbenchConfigResult>('/v1/workbench/config'),
  defaultConfig: () => apiClient.get<WorkbenchConfigResult>('/v1/workbench/config/default'),
  saveConfig: (config: WorkbenchConfig) => apiClient.post<WorkbenchConfigResult>('/v1/workbench/saveconfig', config),
};
