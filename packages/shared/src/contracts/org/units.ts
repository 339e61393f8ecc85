import { z } from 'zod';
import { ORG_NODE_TYPES, UnitType } from './fields.ts';

/**
 * An org unit as calls.md §3 lists it. `state` is 'normal' for departments, roles, role groups and posts and
 * 'active' or 'disabled' for users. `hasChild` says whether expanding the unit in the answering call's own
 * view shows anything: sub-departments in department trees; sub-departments or members in /v1/org/list;
 * roles for a role group.
 */
export const OrgUnitDto = z.object({
  id: z.string(),
  parentId: z.string().nullable(),
  name: z.string(),
  hasChild: z.boolean(),
  state: z.string(),
  isExternal: z.boolean(),
  /** The unit's id in an outside directory it was imported from; null when created here. */
  entryId: z.string().nullable(),
  unitType: UnitType,
  nodeType: z.enum(ORG_NODE_TYPES),
});
export type OrgUnitDto = z.infer<typeof OrgUnitDto>;

/** A department (or the company root, or the external root). */
export const DepartmentDto = OrgUnitDto.extend({
  managerId: z.string().nullable(),
  managerName: z.string().nullable(),
  sortKey: z.number().int(),
});
export type DepartmentDto = z.infer<typeof DepartmentDto>;

/** A user; parentId is the main department. */
export const UserDto = OrgUnitDto.extend({
  mobile: z.string(),
  /** domain.md §6: Administrator 1, SubAdministrator 2, Personal 3, Anonymous 4, External 5, AppCreator 6. */
  authType: z.number().int(),
  mainDepartmentId: z.string().nullable(),
  mainDepartmentName: z.string().nullable(),
  /** False until the person behind the mobile number has signed in or registered (an open invitation). */
  isJoined: z.boolean(),
});
export type UserDto = z.infer<typeof UserDto>;

/** A role; parentId is its role group. */
export const RoleDto = OrgUnitDto.extend({ groupName: z.string().nullable(), memberCount: z.number().int() });
export type RoleDto = z.infer<typeof RoleDto>;

export const RoleGroupDto = OrgUnitDto.extend({ roleCount: z.number().int() });
export const PostDto = OrgUnitDto.extend({ memberCount: z.number().int() });

/** One row of a mixed answer (search, org list, units by id): users carry mobile and auth type. */
export const OrgItemDto = OrgUnitDto.extend({
  mobile: z.string().nullable(),
  authType: z.number().int().nullable(),
  /** Users: the main department's name; other units: the parent's name. Tells apart people of the same name. */
  parentName: z.string().nullable(),
});
export type OrgItemDto = z.infer<typeof OrgItemDto>;

export const UserDetailDto = UserDto.extend({
  /** Where notification mail reaches the user (issue 20); null when none is set. */
  email: z.string().nullable(),
  departments: z.array(z.object({ id: z.string(), name: z.string(), isMain: z.boolean(), isManager: z.boolean(), isExternal: z.boolean() })),
  roles: z.array(z.object({ id: z.string(), name: z.string(), groupId: z.string().nullable() })),
  posts: z.array(z.object({ id: z.string(), name: z.string() })),
});
export type UserDetailDto = z.infer<typeof UserDetailDto>;

export const DepartmentDetailDto = DepartmentDto.extend({
  /** Ancestors from the root down to the parent. */
  path: z.array(z.object({ id: z.string(), name: z.string() })),
  childCount: z.number().int(),
  /** Users whose departments include this one (disabled users too). */
  userCount: z.number().int(),
});
export type DepartmentDetailDto = z.infer<typeof DepartmentDetailDto>;

/** A user's link to a department, role or post (/v1/org/association/list). */
export const AssociationDto = z.object({
  userId: z.string(),
  unitId: z.string(),
  unitType: UnitType,
  name: z.string(),
  isMain: z.boolean(),
  isManager: z.boolean(),
});
