import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import {
  countOtherActiveAdministrators,
  findUnits,
  findUser,
  findUserByMobile,
  findUsers,
  insertUsers,
  isDepartment,
  moveUserDepartments,
  setUserDepartments,
  setUserLinks,
  updateUser as updateUserRow,
  userDepartmentIds,
  usersNotInDepartment,
  type EngineExecutor,
  type UserRow,
} from './org.repo.ts';
import { assertAllFound, assertDepartment, assertSameScope, assertUser, isActiveAdministrator, resolveAuthType, resolveMainDepartment, unique } from './org.policy.ts';
import { inOrgTransaction, loadUserDetail, type OrgContext } from './org.service.ts';
import { joinOrInvite } from './invitation.service.ts';
import { recordOperation } from '../audit/oplog.ts';

type CreateInput = z.output<typeof contracts.CreateUserBody>;
type UpdateInput = z.output<typeof contracts.UpdateUserBody>;
type MoveInput = z.output<typeof contracts.MoveUsersBody>;

/** Loads departments by id; all must exist and lie on one side (internal or external). Answers that side. */
async function departmentsOnOneSide(edb: EngineExecutor, ids: string[]): Promise<boolean> {
  const units = (await findUnits(edb, ids)).filter(isDepartment);
  assertAllFound(ids, units, 'OrganizationUnit');
  const isExternal = units[0].is_external;
  assertSameScope(isExternal, units);
  return isExternal;
}

async function assertUnitsOfType(edb: EngineExecutor, ids: string[], unitType: 'Role' | 'Post'): Promise<void> {
  if (!ids.length) return;
  const units = (await findUnits(edb, ids)).filter((u) => u.unit_type === unitType);
  assertAllFound(ids, units, unitType);
}

async function assertMobileFree(edb: EngineExecutor, mobile: string): Promise<void> {
  if (await findUserByMobile(edb, mobile)) throw new AppError('MobileAlreadyInEngine', { detail: { mobile } });
}

/** Demoting or disabling the last active Administrator would leave nobody to run the organisation. */
async function assertKeepsAnAdministrator(edb: EngineExecutor, user: UserRow, next: Pick<UserRow, 'auth_type' | 'state'>): Promise<void> {
  if (!isActiveAdministrator(user) || isActiveAdministrator(next)) return;
  if ((await countOtherActiveAdministrators(edb, user.id)) === 0) throw new AppError('CannotRemoveLastAdministrator');
}

/**
 * Adds a user in one or more departments (one main) with roles and posts, and invites the mobile number: an
 * existing account joins at once, any other number when that person signs in or registers.
 */
export async function createUser(ctx: OrgContext, input: CreateInput): Promise<contracts.UserDetailDto> {
  return inOrgTransaction(ctx, async ({ trx, edb }) => {
    await assertMobileFree(edb, input.mobile);
    const departmentIds = unique(input.departmentIds);
    const mainId = resolveMainDepartment(departmentIds, input.mainDepartmentId);
    const isExternal = await departmentsOnOneSide(edb, departmentIds);
    const authType = resolveAuthType(isExternal, input.authType);
    const roleIds = unique(input.roleIds ?? []);
    const postIds = unique(input.postIds ?? []);
    await assertUnitsOfType(edb, roleIds, 'Role');
    await assertUnitsOfType(edb, postIds, 'Post');
    const id = newId();
    await insertUsers(edb, [{ id, account_id: null, name: input.name, mobile: input.mobile, auth_type: authType, is_external: isExternal, main_department_id: mainId }]);
    if (input.email) await updateUserRow(edb, { id, name: input.name, mobile: input.mobile }, { email: input.email });
    await setUserDepartments(edb, id, departmentIds, mainId);
    await setUserLinks(edb, 'role', id, roleIds);
    await setUserLinks(edb, 'post', id, postIds);
    await joinOrInvite(trx, edb, ctx.engineCode, { id, mobile: input.mobile, is_external: isExternal });
    const created = await loadUserDetail(edb, id);
    await recordOperation(edb, ctx, { kind: 'member', action: 'create', objectId: id, objectName: created.name, after: created });
    return created;
  });
}

/** The short form of createUser: one department (default: the company root), default auth type. */
export async function inviteUser(ctx: OrgContext, input: z.output<typeof contracts.InviteUserBody>): Promise<contracts.UserDetailDto> {
  return createUser(ctx, { name: input.name, mobile: input.mobile, departmentIds: [input.departmentId ?? ctx.companyId] });
}

/** Edits a user; departments, roles and posts given replace the current ones. */
export async function updateUser(ctx: OrgContext, input: UpdateInput): Promise<contracts.UserDetailDto> {
  return inOrgTransaction(ctx, async ({ trx, edb }) => {
    const user = await findUser(edb, input.id);
    assertUser(user, input.id);
    const mobileChanges = input.mobile !== undefined && input.mobile !== user.mobile;
    if (mobileChanges) {
      // After joining, the number is the person's account: changing it would hand the user to someone else.
      if (user.account_id) throw new AppError('UserMobileLocked');
      await assertMobileFree(edb, input.mobile!);
    }
    const authType = input.authType === undefined ? user.auth_type : resolveAuthType(user.is_external, input.authType);
    await assertKeepsAnAdministrator(edb, user, { auth_type: authType, state: user.state });
    const before = await loadUserDetail(edb, user.id);

    if (input.departmentIds || input.mainDepartmentId) {
      const departmentIds = input.departmentIds ? unique(input.departmentIds) : await userDepartmentIds(edb, user.id);
      if (!input.departmentIds && !departmentIds.includes(input.mainDepartmentId!)) {
        throw new AppError('UserNotInDepartment', { detail: { userId: user.id, departmentId: input.mainDepartmentId } });
      }
      const mainId = resolveMainDepartment(departmentIds, input.mainDepartmentId, user.main_department_id);
      if ((await departmentsOnOneSide(edb, departmentIds)) !== user.is_external) throw new AppError('OrgScopeMismatch');
      await setUserDepartments(edb, user.id, departmentIds, mainId);
    }
    if (input.roleIds) {
      const roleIds = unique(input.roleIds);
      await assertUnitsOfType(edb, roleIds, 'Role');
      await setUserLinks(edb, 'role', user.id, roleIds);
    }
    if (input.postIds) {
      const postIds = unique(input.postIds);
      await assertUnitsOfType(edb, postIds, 'Post');
      await setUserLinks(edb, 'post', user.id, postIds);
    }
    await updateUserRow(edb, user, { name: input.name, mobile: input.mobile, email: input.email, auth_type: authType });
    if (mobileChanges) await joinOrInvite(trx, edb, ctx.engineCode, { ...user, mobile: input.mobile! });
    const after = await loadUserDetail(edb, user.id);
    await recordOperation(edb, ctx, { kind: 'member', action: 'update', objectId: user.id, objectName: after.name, before, after });
    return after;
  });
}

/**
 * Disables or re-enables a user. A disabled user's tokens are refused at once: every request re-reads the user's
 * state (plugins/auth.ts). Nobody disables themself, and the last active Administrator stays.
 */
export async function setUserState(ctx: OrgContext, id: string, state: 'active' | 'disabled'): Promise<void> {
  await inOrgTransaction(ctx, async ({ edb }) => {
    const user = await findUser(edb, id);
    assertUser(user, id);
    if (state === 'disabled' && user.id === ctx.userId) throw new AppError('CannotDisableSelf');
    await assertKeepsAnAdministrator(edb, user, { auth_type: user.auth_type, state });
    if (user.state === state) return;
    await updateUserRow(edb, user, { state });
    await recordOperation(edb, ctx, { kind: 'member', action: state === 'active' ? 'enable' : 'disable', objectId: user.id, objectName: user.name, before: { state: user.state }, after: { state } });
  });
}

/** Moves users into a department: out of fromDepartmentId, or out of all their departments. */
export async function moveUsers(ctx: OrgContext, input: MoveInput): Promise<{ changed: number }> {
  return inOrgTransaction(ctx, async ({ edb }) => {
    const userIds = unique(input.userIds);
    const users = await findUsers(edb, userIds);
    assertAllFound(userIds, users, 'User');
    const target = (await findUnits(edb, [input.toDepartmentId]))[0];
    assertDepartment(target, input.toDepartmentId);
    for (const user of users) assertSameScope(user.is_external, [target]);
    if (input.fromDepartmentId) {
      const outside = await usersNotInDepartment(edb, userIds, input.fromDepartmentId);
      if (outside.length) throw new AppError('UserNotInDepartment', { detail: { userIds: outside, departmentId: input.fromDepartmentId } });
    }
    await moveUserDepartments(edb, userIds, target.id, input.fromDepartmentId ?? null);
    for (const user of users) {
      await recordOperation(edb, ctx, { kind: 'member', action: 'move', objectId: user.id, objectName: user.name, before: { fromDepartmentId: input.fromDepartmentId ?? null }, after: { departmentId: target.id, departmentName: target.name } });
    }
    return { changed: userIds.length };
  });
}

