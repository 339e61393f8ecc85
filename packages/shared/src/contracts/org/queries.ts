import { z } from 'zod';
import { listOf } from '../common.ts';
import { Keyword, OrgScope, orgPage, orgPageQuery, UnitId, unitIdList, UserStateFilter } from './fields.ts';
import { AssociationDto, DepartmentDetailDto, DepartmentDto, OrgItemDto, PostDto, RoleDto, RoleGroupDto, UserDetailDto, UserDto } from './units.ts';

// The read calls of calls.md §7 "Organisation". Every list answers { list, total, hasMore }.

/** POST /v1/org/user/list: users, optionally of one department (or its whole subtree), role or post. */
export const OrgUserListBody = z.strictObject({
  departmentId: UnitId.optional(),
  /** With departmentId: include the users of every sub-department. */
  recursive: z.boolean().default(false),
  roleId: UnitId.optional(),
  postId: UnitId.optional(),
  keyword: Keyword.optional(),
  state: UserStateFilter,
  authTypes: z.array(z.number().int().min(1).max(6)).min(1).max(6).optional(),
  scope: OrgScope,
  ...orgPage,
});
export const OrgUserListResult = listOf(UserDto);

/**
 * POST /v1/org/department/list: the child departments of parentId; without parentId the roots of the scope
 * (the company, the external root). recursive: every department below instead, parents before children.
 */
export const OrgDepartmentListBody = z.strictObject({
  parentId: UnitId.optional(),
  recursive: z.boolean().default(false),
  keyword: Keyword.optional(),
  scope: OrgScope,
  ...orgPage,
});
export const OrgDepartmentListResult = listOf(DepartmentDto);

/** POST /v1/org/association/list: the departments, roles and posts the given users belong to. */
export const OrgAssociationListBody = z.strictObject({
  userIds: unitIdList(200),
  unitTypes: z.array(z.enum(['OrganizationUnit', 'Role', 'Post'])).min(1).max(3).optional(),
  ...orgPage,
});
export const OrgAssociationListResult = listOf(AssociationDto);

/** POST /v1/org/search: by 汉字 name fragment, full pinyin, pinyin initials or mobile fragment. */
export const OrgSearchBody = z.strictObject({
  keyword: Keyword,
  unitTypes: z.array(z.enum(['User', 'OrganizationUnit', 'Role'])).min(1).max(3).default(['User', 'OrganizationUnit']),
  /** Only within this department's subtree. */
  departmentId: UnitId.optional(),
  state: UserStateFilter,
  scope: OrgScope,
  ...orgPage,
});
export const OrgSearchResult = listOf(OrgItemDto);

/** POST /v1/org/list: what a picker shows under parentId: sub-departments first, then its users. */
export const OrgListBody = z.strictObject({
  parentId: UnitId.optional(),
  unitTypes: z.array(z.enum(['User', 'OrganizationUnit'])).min(1).max(2).default(['OrganizationUnit', 'User']),
  state: UserStateFilter,
  scope: OrgScope,
  ...orgPage,
});
export const OrgListResult = listOf(OrgItemDto);

/** POST /v1/org/currentandchild: a department (default: the caller's main department) and every department below it. */
export const OrgCurrentAndChildBody = z.strictObject({ departmentId: UnitId.optional(), ...orgPage });
export const OrgCurrentAndChildResult = z.object({
  current: DepartmentDto,
  list: z.array(DepartmentDto),
  total: z.number().int(),
  hasMore: z.boolean(),
});

/**
 * POST /v1/org/unit/checkRange: whether each unit lies within a range of units. A department covers its
 * subtree and their users; a role its members; a post its holders; a user themself.
 */
export const OrgCheckRangeBody = z.strictObject({ unitIds: unitIdList(500), rangeIds: unitIdList(500) });
export const OrgCheckRangeResult = z.object({
  list: z.array(z.object({ unitId: z.string(), inRange: z.boolean() })),
  allInRange: z.boolean(),
});

/** POST /v1/org/unit/batch: units of any type by id; ids of other engines or unknown ids are left out. */
export const OrgUnitBatchBody = z.strictObject({ ids: unitIdList(500) });
export const OrgUnitBatchResult = listOf(OrgItemDto);

/** POST /v1/org/info/byids ("get org info by ids"): the users, departments and roles among the ids. */
export const OrgInfoByIdsBody = OrgUnitBatchBody;
export const OrgInfoByIdsResult = z.object({ users: z.array(UserDto), departments: z.array(DepartmentDto), roles: z.array(RoleDto) });

/** POST /v1/org/search/byname: units whose name is exactly one of the names (import matching). */
export const OrgSearchByNameBody = z.strictObject({
  names: z.array(z.string().trim().min(1).max(50)).min(1).max(500),
  unitTypes: z.array(z.enum(['User', 'OrganizationUnit', 'Role'])).min(1).max(3).default(['User']),
  state: UserStateFilter,
  scope: OrgScope,
  ...orgPage,
});
export const OrgSearchByNameResult = listOf(OrgItemDto);

/** GET /v1/org/role/list */
export const OrgRoleListQuery = z.strictObject({ groupId: UnitId.optional(), keyword: Keyword.optional(), ...orgPageQuery });
export const OrgRoleListResult = listOf(RoleDto);

/** GET /v1/org/rolegroup/list */
export const OrgRoleGroupListQuery = z.strictObject({ ...orgPageQuery });
export const OrgRoleGroupListResult = listOf(RoleGroupDto);

/** GET /v1/org/post/list */
export const OrgPostListQuery = z.strictObject({ keyword: Keyword.optional(), ...orgPageQuery });
export const OrgPostListResult = listOf(PostDto);

/** GET /v1/org/user: one user with departments, roles and posts; without id the caller. */
export const OrgUserQuery = z.strictObject({ id: UnitId.optional() });
export const OrgUserResult = UserDetailDto;

/** GET /v1/org/department: one department with its path and counts; without id the company root. */
export const OrgDepartmentQuery = z.strictObject({ id: UnitId.optional() });
export const OrgDepartmentResult = DepartmentDetailDto;

/** GET /v1/org/unit/info: one unit of any type. */
export const OrgUnitInfoQuery = z.strictObject({ id: UnitId });
export const OrgUnitInfoResult = OrgItemDto;

/** GET /v1/org/external/department/list: the departments under parentId (default: the external root). */
export const OrgExternalDepartmentListQuery = z.strictObject({
  parentId: UnitId.optional(),
  recursive: z.enum(['true', 'false']).default('false'),
  ...orgPageQuery,
});
export const OrgExternalDepartmentListResult = listOf(DepartmentDto);
