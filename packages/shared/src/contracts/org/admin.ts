import { z } from 'zod';
import { Mobile, PersonName } from '../auth/fields.ts';
import { AssignableAuthType, DepartmentName, RoleName, UnitId, unitIdList } from './fields.ts';
import { DepartmentDto, PostDto, RoleDto, RoleGroupDto, UserDetailDto } from './units.ts';

// Administration of the organisation (access: Administrator). The spec names no paths for these.

const SortKey = z.number().int().min(0).max(1_000_000_000);
const atLeastOneChange = (keys: string[]) => (value: Record<string, unknown>) => keys.some((k) => value[k] !== undefined);
const NOTHING_TO_CHANGE = { error: '没有要修改的内容' };
/** A user's e-mail address for notification mail; null (or empty) clears it. */
const UserEmail = z.union([z.email().max(255), z.literal('').transform(() => null), z.null()]);

export const IdBody = z.strictObject({ id: UnitId });
export const ChangedResult = z.object({ changed: z.number().int() });

/** POST /v1/org/department/create: under a department, the company root or the external root (then external). */
export const CreateDepartmentBody = z.strictObject({
  parentId: UnitId,
  name: DepartmentName,
  managerId: UnitId.nullable().optional(),
  /** Position among siblings; default: last. */
  sortKey: SortKey.optional(),
});
export const DepartmentResult = DepartmentDto;

/** POST /v1/org/department/update */
export const UpdateDepartmentBody = z
  .strictObject({ id: UnitId, name: DepartmentName.optional(), managerId: UnitId.nullable().optional(), sortKey: SortKey.optional() })
  .refine(atLeastOneChange(['name', 'managerId', 'sortKey']), NOTHING_TO_CHANGE);

/** POST /v1/org/department/move: the department and its whole subtree move under parentId. */
export const MoveDepartmentBody = z.strictObject({ id: UnitId, parentId: UnitId, sortKey: SortKey.optional() });

/** POST /v1/org/department/remove: only an empty department (no sub-departments, no members). */
export const RemoveDepartmentBody = IdBody;

/**
 * POST /v1/org/user/create: adds a user and invites the mobile number. A number that already has an account
 * joins at once; any other joins when that person registers or signs in.
 */
export const CreateUserBody = z.strictObject({
  name: PersonName,
  mobile: Mobile,
  email: UserEmail.optional(),
  departmentIds: unitIdList(20),
  /** One of departmentIds; default: the first. */
  mainDepartmentId: UnitId.optional(),
  /** Default Personal 3 (External 5 for external departments). */
  authType: AssignableAuthType.optional(),
  roleIds: z.array(UnitId).max(100).optional(),
  postIds: z.array(UnitId).max(100).optional(),
});
export const UserDetailResult = UserDetailDto;

/** POST /v1/org/user/invite: the short form of create: a number, a name and one department (default: the company). */
export const InviteUserBody = z.strictObject({ mobile: Mobile, name: PersonName, departmentId: UnitId.optional() });

/** POST /v1/org/user/update: lists given replace the user's departments, roles or posts. */
export const UpdateUserBody = z
  .strictObject({
    id: UnitId,
    name: PersonName.optional(),
    /** Only before the user has joined: afterwards the number is the person's account. */
    mobile: Mobile.optional(),
    email: UserEmail.optional(),
    authType: AssignableAuthType.optional(),
    departmentIds: unitIdList(20).optional(),
    mainDepartmentId: UnitId.optional(),
    roleIds: z.array(UnitId).max(100).optional(),
    postIds: z.array(UnitId).max(100).optional(),
  })
  .refine(atLeastOneChange(['name', 'mobile', 'email', 'authType', 'departmentIds', 'mainDepartmentId', 'roleIds', 'postIds']), NOTHING_TO_CHANGE);

/** POST /v1/org/user/disable and /enable. Disabling ends the user's sessions in this engine at once. */
export const UserStateBody = IdBody;

/**
 * POST /v1/org/user/move: with fromDepartmentId the users leave that department for toDepartmentId (which becomes
 * main where the old one was); without it toDepartmentId becomes their only department.
 */
export const MoveUsersBody = z.strictObject({ userIds: unitIdList(500), toDepartmentId: UnitId, fromDepartmentId: UnitId.optional() });

/** POST /v1/org/rolegroup/create, /update, /remove (only an empty group). */
export const CreateRoleGroupBody = z.strictObject({ name: RoleName });
export const UpdateRoleGroupBody = z.strictObject({ id: UnitId, name: RoleName });
export const RoleGroupResult = RoleGroupDto;

/** POST /v1/org/role/create, /update, /remove (its memberships go with it). */
export const CreateRoleBody = z.strictObject({ groupId: UnitId, name: RoleName });
export const UpdateRoleBody = z
  .strictObject({ id: UnitId, name: RoleName.optional(), groupId: UnitId.optional() })
  .refine(atLeastOneChange(['name', 'groupId']), NOTHING_TO_CHANGE);
export const RoleResult = RoleDto;

/** POST /v1/org/role/member/add and /remove */
export const RoleMembersBody = z.strictObject({ roleId: UnitId, userIds: unitIdList(500) });

/** POST /v1/org/post/create, /update, /remove (its holders go with it). */
export const CreatePostBody = z.strictObject({ name: RoleName });
export const UpdatePostBody = z.strictObject({ id: UnitId, name: RoleName });
export const PostResult = PostDto;

/** POST /v1/org/post/member/add and /remove */
export const PostMembersBody = z.strictObject({ postId: UnitId, userIds: unitIdList(500) });
