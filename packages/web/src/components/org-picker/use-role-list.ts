import { useQuery } from '@tanstack/react-query';
import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { apiClient } from '../../lib/api-client.ts';

export type RoleListResult = z.infer<typeof contracts.OrgRoleListResult>;

/** Every role of the engine (GET /v1/org/role/list, all rows): the role choices of grants, groups and participants. */
export const roleListApi = () => apiClient.get<RoleListResult>('/v1/org/role/list', { query: { pageIndex: 0, pageSize: -1 } });

/** The engine's roles, read when `enabled`; under 'org' so a change in the admin console refreshes it. */
export function useRoleList(enabled = true) {
  return useQuery({ queryKey: ['org', 'roles', 'all'], queryFn: roleListApi, enabled, staleTime: 60_000 });
}
