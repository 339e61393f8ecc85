import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { apiClient } from '../../../lib/api-client.ts';

// Associated organisations as the administrator of either side sees them (docs/decisions/0091).

export type AssociatedOrgDto = contracts.AssociatedOrgDto;
export type AssociatedMemberDto = contracts.AssociatedMemberDto;
type ListResult = z.infer<typeof contracts.AssociatedOrgListResult>;
type MembersResult = z.infer<typeof contracts.AssociatedMemberListResult>;
type Changed = z.infer<typeof contracts.AssociatedMembersChanged>;

export const associatedOrgKeys = {
  list: ['associated-org', 'list'] as const,
  members: (id: string) => ['associated-org', 'members', id] as const,
};

export const associatedOrgApi = {
  list: () => apiClient.get<ListResult>('/v1/org/associated/list'),
  createLink: (validDays: number) => apiClient.post<AssociatedOrgDto>('/v1/org/associated/code/create', { validDays }),
  end: (id: string) => apiClient.post<AssociatedOrgDto>('/v1/org/associated/end', { id }),
  members: (id: string) => apiClient.get<MembersResult>('/v1/org/associated/member/list', { query: { id } }),
  addMembers: (id: string, userIds: string[]) => apiClient.post<Changed>('/v1/org/associated/member/add', { id, userIds }),
  removeMembers: (id: string, userIds: string[]) => apiClient.post<Changed>('/v1/org/associated/member/remove', { id, userIds }),
};

/** The full address of a link, to send to the partner. */
export const fullLink = (path: string) => `${window.location.origin}${path}`;
