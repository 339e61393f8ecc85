import type { contracts } from '@tritium/shared';
import type { OrgScope } from '@tritium/shared/constants/org';
import type { z } from 'zod';
import { apiClient, type RequestOptions } from '../../../lib/api-client.ts';

export type DepartmentDto = z.infer<typeof contracts.DepartmentDto>;
export type UserDto = z.infer<typeof contracts.UserDto>;
export type UserDetailDto = z.infer<typeof contracts.UserDetailDto>;
export type RoleDto = z.infer<typeof contracts.RoleDto>;
export type RoleGroupDto = z.infer<typeof contracts.RoleGroupDto>;
export type PostDto = z.infer<typeof contracts.PostDto>;
export type AssociationDto = z.infer<typeof contracts.AssociationDto>;

export type DepartmentListBody = z.input<typeof contracts.OrgDepartmentListBody>;
export type DepartmentListResult = z.infer<typeof contracts.OrgDepartmentListResult>;
export type UserListBody = z.input<typeof contracts.OrgUserListBody>;
export type UserListResult = z.infer<typeof contracts.OrgUserListResult>;
export type AssociationListResult = z.infer<typeof contracts.OrgAssociationListResult>;
export type RoleListResult = z.infer<typeof contracts.OrgRoleListResult>;
export type RoleGroupListResult = z.infer<typeof contracts.OrgRoleGroupListResult>;
export type PostListResult = z.infer<typeof contracts.OrgPostListResult>;

export type CreateDepartmentBody = z.input<typeof contracts.CreateDepartmentBody>;
export type UpdateDepartmentBody = z.input<typeof contracts.UpdateDepartmentBody>;
export type MoveDepartmentBody = z.input<typeof contracts.MoveDepartmentBody>;
export type CreateUserBody = z.input<typeof contracts.CreateUserBody>;
export type InviteUserBody = z.input<typeof contracts.InviteUserBody>;
export type UpdateUserBody = z.input<typeof contracts.UpdateUserBody>;
export type MoveUsersBody = z.input<typeof contracts.MoveUsersBody>;
export type ChangedResult = z.infer<typeof contracts.ChangedResult>;

/** Which organisation the console shows: the company's own, or 外部组织. */
export type OrgSide = Exclude<OrgScope, 'all'>;

/**
 * Query keys of the console. All start with 'org' (as the pickers' do): after any write the console
 * invalidates ['org'] and every list, tree and open picker reloads what changed.
 */
export const orgKeys = {
  all: ['org'] as const,
  departments: ['org', 'departments'] as const,
  departmentChildren: (side: OrgSide, parentId: string | null) => ['org', 'departments', side, parentId ?? 'roots'] as const,
  users: (body: UserListBody) => ['org', 'users', body] as const,
  associations: (userIds: string[]) => ['org', 'associations', userIds] as const,
  user: (id: string) => ['org', 'user', id] as const,
  roleGroups: ['org', 'role-groups'] as const,
  roles: ['org', 'roles'] as const,
  posts: ['org', 'posts'] as const,
};

const ALL_ROWS = { pageIndex: 0, pageSize: -1 } as const;
// A refusal the console explains itself (in a dialog or beside a field) is not shown twice.
const quiet: RequestOptions = { disableBizError: true };
type Empty = Record<string, never>;

export const orgAdminApi = {
  // ---- reads ----
  listDepartments: (body: DepartmentListBody, signal?: AbortSignal) => apiClient.post<DepartmentListResult>('/v1/org/department/list', body, { signal }),
  listUsers: (body: UserListBody, signal?: AbortSignal) => apiClient.post<UserListResult>('/v1/org/user/list', body, { signal }),
  listDepartmentLinks: (userIds: string[], signal?: AbortSignal) =>
    apiClient.post<AssociationListResult>('/v1/org/association/list', { userIds, unitTypes: ['OrganizationUnit'], ...ALL_ROWS }, { signal }),
  getUser: (id: string) => apiClient.get<UserDetailDto>('/v1/org/user', { query: { id } }),
  listRoleGroups: () => apiClient.get<RoleGroupListResult>('/v1/org/rolegroup/list', { query: ALL_ROWS }),
  listRoles: () => apiClient.get<RoleListResult>('/v1/org/role/list', { query: ALL_ROWS }),
  listPosts: () => apiClient.get<PostListResult>('/v1/org/post/list', { query: ALL_ROWS }),

  // ---- departments ----
  createDepartment: (body: CreateDepartmentBody) => apiClient.post<DepartmentDto>('/v1/org/department/create', body, quiet),
  updateDepartment: (body: UpdateDepartmentBody, options?: RequestOptions) =>
    apiClient.post<DepartmentDto>('/v1/org/department/update', body, { ...quiet, ...options }),
  /** The caller shows the server's refusal (cycle, root, other side) and puts the node back. */
  moveDepartment: (body: MoveDepartmentBody) => apiClient.post<DepartmentDto>('/v1/org/department/move', body),
  removeDepartment: (id: string) => apiClient.post<Empty>('/v1/org/department/remove', { id }, quiet),

  // ---- users ----
  createUser: (body: CreateUserBody) => apiClient.post<UserDetailDto>('/v1/org/user/create', body, quiet),
  inviteUser: (body: InviteUserBody) => apiClient.post<UserDetailDto>('/v1/org/user/invite', body, quiet),
  updateUser: (body: UpdateUserBody) => apiClient.post<UserDetailDto>('/v1/org/user/update', body, quiet),
  disableUser: (id: string) => apiClient.post<Empty>('/v1/org/user/disable', { id }),
  enableUser: (id: string) => apiClient.post<Empty>('/v1/org/user/enable', { id }),
  moveUsers: (body: MoveUsersBody) => apiClient.post<ChangedResult>('/v1/org/user/move', body),

  // ---- role groups, roles, posts ----
  createRoleGroup: (name: string) => apiClient.post<RoleGroupDto>('/v1/org/rolegroup/create', { name }, quiet),
  renameRoleGroup: (id: string, name: string) => apiClient.post<RoleGroupDto>('/v1/org/rolegroup/update', { id, name }, quiet),
  removeRoleGroup: (id: string) => apiClient.post<Empty>('/v1/org/rolegroup/remove', { id }),
  createRole: (groupId: string, name: string) => apiClient.post<RoleDto>('/v1/org/role/create', { groupId, name }, quiet),
  renameRole: (id: string, name: string) => apiClient.post<RoleDto>('/v1/org/role/update', { id, name }, quiet),
  removeRole: (id: string) => apiClient.post<Empty>('/v1/org/role/remove', { id }),
  addRoleMembers: (roleId: string, userIds: string[]) => apiClient.post<ChangedResult>('/v1/org/role/member/add', { roleId, userIds }),
  removeRoleMembers: (roleId: string, userIds: string[]) => apiClient.post<ChangedResult>('/v1/org/role/member/remove', { roleId, userIds }),
  createPost: (name: string) => apiClient.post<PostDto>('/v1/org/post/create', { name }, quiet),
  renamePost: (id: string, name: string) => apiClient.post<PostDto>('/v1/org/post/update', { id, name }, quiet),
  removePost: (id: string) => apiClient.post<Empty>('/v1/org/post/remove', { id }),
  addPostMembers: (postId: string, userIds: string[]) => apiClient.post<ChangedResult>('/v1/org/post/member/add', { postId, userIds }),
  removePostMembers: (postId: string, userIds: string[]) => apiClient.post<ChangedResult>('/v1/org/post/member/remove', { postId, userIds }),
};
