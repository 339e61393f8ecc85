import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { apiClient } from '../../lib/api-client.ts';

// Form permissions (docs/decisions/0037): the permission groups of a form and what a person may do with it.

export type PermissionGroup = contracts.PermissionGroup;
export type FormRights = contracts.FormRightsResult;
export type FormPreview = contracts.FormPreviewResult;

export const permissionKeys = {
  groups: (schemaCode: string) => ['form-permission', 'groups', schemaCode] as const,
  rights: (schemaCode: string, userId?: string) => ['form-permission', 'rights', schemaCode, userId ?? 'me'] as const,
  preview: (schemaCode: string, userId: string, objectId?: string) => ['form-permission', 'preview', schemaCode, userId, objectId ?? 'first'] as const,
};

export const permissionApi = {
  groups: (schemaCode: string) => apiClient.post<contracts.PermissionGroupListResult>('/v1/form/permission/group/list', { schemaCode }),
  save: (body: contracts.PermissionGroupSaveBody) => apiClient.post<PermissionGroup>('/v1/form/permission/group/save', body),
  remove: (schemaCode: string, id: string) => apiClient.post<{ removed: boolean }>('/v1/form/permission/group/remove', { schemaCode, id }),
  /** The caller's rights on the form, or (for its app administrators) another member's. */
  rights: (schemaCode: string, userId?: string) =>
    apiClient.post<FormRights>('/v1/form/permission/mine', { schemaCode, ...(userId ? { userId } : {}) }, { disableBizError: !userId }),
  /** "Preview as" (administrators of the form's app): the list's first page and one record as the member reads them. */
  preview: (schemaCode: string, userId: string, objectId?: string) =>
    apiClient.post<FormPreview>('/v1/form/permission/preview', { schemaCode, userId, ...(objectId ? { objectId } : {}) }),
};
