import type { z } from 'zod';
import type { contracts } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { addLinks, deleteUnit, findUnit, findUsers, insertUnits, nextSortKey, removeLinks, siblingNameTaken, updateUnit, type EngineExecutor, type UnitRow } from './org.repo.ts';
import { listGroupsOrPosts, listRoles } from './org-query.repo.ts';
import { presentPost, presentRole, presentRoleGroup } from './org.presenter.ts';
import { assertAllFound, assertUnitType, unique } from './org.policy.ts';
import { inOrgTransaction, type OrgContext } from './org.service.ts';
import { recordOperation } from '../audit/oplog.ts';

// Roles live in role groups; role groups and posts hang under the company root (calls.md §3 unit types).

const NAME_TAKEN = { Role: 'RoleNameTaken', RoleGroup: 'RoleGroupNameTaken', Post: 'PostNameTaken' } as const;

async function getUnitOrThrow(edb: EngineExecutor, id: string, unitType: 'Role' | 'RoleGroup' | 'Post'): Promise<UnitRow> {
  const unit = await findUnit(edb, id);
  assertUnitType(unit, id, unitType);
  return unit;
}

async function assertNameFree(edb: EngineExecutor, parentId: string, unitType: 'Role' | 'RoleGroup' | 'Post', name: string, exceptId?: string) {
  if (await siblingNameTaken(edb, parentId, unitType, name, exceptId)) throw new AppError(NAME_TAKEN[unitType], { detail: { name } });
}

const onePage = { pageIndex: 0, pageSize: 1 };

async function loadRole(edb: EngineExecutor, id: string): Promise<contracts.RoleDto> {
  return presentRole((await listRoles(edb, { ids: [id] }, onePage)).rows[0]);
}

async function loadGroupOrPost(edb: EngineExecutor, unitType: 'RoleGroup' | 'Post', id: string) {
  return (await listGroupsOrPosts(edb, unitType, { ids: [id] }, onePage)).rows[0];
}

/** Creates a role group or a post (both under the company root). */
async function createCompanyUnit(ctx: OrgContext, unitType: 'RoleGroup' | 'Post', name: string) {
  return inOrgTransaction(ctx, async ({ edb }) => {
    await assertNameFree(edb, ctx.companyId, unitType, name);
    const id = newId();
    await insertUnits(edb, [{ id, parent_id: ctx.companyId, unit_type: unitType, name, sort_key: await nextSortKey(edb, ctx.companyId, unitType) }]);
    return loadGroupOrPost(edb, unitType, id);
  });
}

async function renameCompanyUnit(ctx: OrgContext, unitType: 'RoleGroup' | 'Post', id: string, name: string) {
  return inOrgTransaction(ctx, async ({ edb }) => {
    const unit = await getUnitOrThrow(edb, id, unitType);
    if (name !== unit.name) await assertNameFree(edb, unit.parent_id!, unitType, name, unit.id);
    await updateUnit(edb, unit.id, { name });
    return loadGroupOrPost(edb, unitType, id);
  });
}

export async function createRoleGroup(ctx: OrgContext, name: string) {
  return presentRoleGroup(await createCompanyUnit(ctx, 'RoleGroup', name));
}

export async function renameRoleGroup(ctx: OrgContext, id: string, name: string) {
  return presentRoleGroup(await renameCompanyUnit(ctx, 'RoleGroup', id, name));
}

/** Only an empty role group goes. */
export async function removeRoleGroup(ctx: OrgContext, id: string): Promise<void> {
  await inOrgTransaction(ctx, async ({ edb }) => {
    await getUnitOrThrow(edb, id, 'RoleGroup');
    const group = await loadGroupOrPost(edb, 'RoleGroup', id);
    if (Number(group.count) > 0) throw new AppError('RoleGroupNotEmpty', { detail: { roleCount: Number(group.count) } });
    await deleteUnit(edb, id);
  });
}

export async function createPost(ctx: OrgContext, name: string) {
  return presentPost(await createCompanyUnit(ctx, 'Post', name));
}

export async function renamePost(ctx: OrgContext, id: string, name: string) {
  return presentPost(await renameCompanyUnit(ctx, 'Post', id, name));
}

/** Removes a role or a post; its memberships go with it. */
export async function removeRoleOrPost(ctx: OrgContext, unitType: 'Role' | 'Post', id: string): Promise<void> {
  await inOrgTransaction(ctx, async ({ edb }) => {
    const unit = await getUnitOrThrow(edb, id, unitType);
    await deleteUnit(edb, id);
    if (unitType === 'Role') await recordOperation(edb, ctx, { kind: 'role', action: 'remove', objectId: id, objectName: unit.name, before: { name: unit.name, groupId: unit.parent_id } });
  });
}

export async function createRole(ctx: OrgContext, input: z.output<typeof contracts.CreateRoleBody>): Promise<contracts.RoleDto> {
  return inOrgTransaction(ctx, async ({ edb }) => {
    await getUnitOrThrow(edb, input.groupId, 'RoleGroup');
    await assertNameFree(edb, input.groupId, 'Role', input.name);
    const id = newId();
    await insertUnits(edb, [{ id, parent_id: input.groupId, unit_type: 'Role', name: input.name, sort_key: await nextSortKey(edb, input.groupId, 'Role') }]);
    await recordOperation(edb, ctx, { kind: 'role', action: 'create', objectId: id, objectName: input.name, after: { name: input.name, groupId: input.groupId } });
    return loadRole(edb, id);
  });
}

/** Renames a role or moves it to another group. */
export async function updateRole(ctx: OrgContext, input: z.output<typeof contracts.UpdateRoleBody>): Promise<contracts.RoleDto> {
  return inOrgTransaction(ctx, async ({ edb }) => {
    const role = await getUnitOrThrow(edb, input.id, 'Role');
    const groupId = input.groupId ?? role.parent_id!;
    if (groupId !== role.parent_id) await getUnitOrThrow(edb, groupId, 'RoleGroup');
    const name = input.name ?? role.name;
    if (groupId !== role.parent_id || name !== role.name) await assertNameFree(edb, groupId, 'Role', name, role.id);
    await updateUnit(edb, role.id, {
      name,
      parent_id: groupId,
      ...(groupId === role.parent_id ? {} : { sort_key: await nextSortKey(edb, groupId, 'Role') }),
    });
    await recordOperation(edb, ctx, { kind: 'role', action: 'update', objectId: role.id, objectName: name, before: { name: role.name, groupId: role.parent_id }, after: { name, groupId } });
    return loadRole(edb, role.id);
  });
}

/** Adds users to, or removes them from, a role or a post. Answers how many memberships changed. */
export async function changeMembers(ctx: OrgContext, unitType: 'Role' | 'Post', unitId: string, userIdsIn: string[], change: 'add' | 'remove'): Promise<{ changed: number }> {
  return inOrgTransaction(ctx, async ({ edb }) => {
    const unit = await getUnitOrThrow(edb, unitId, unitType);
    const userIds = unique(userIdsIn);
    const users = await findUsers(edb, userIds);
    assertAllFound(userIds, users, 'User');
    const kind = unitType === 'Role' ? 'role' : 'post';
    const changed = change === 'add' ? await addLinks(edb, kind, unitId, userIds) : await removeLinks(edb, kind, unitId, userIds);
    if (unitType === 'Role' && changed) {
      const members = { userIds, userNames: users.map((u) => u.name) };
      await recordOperation(edb, ctx, { kind: 'role', action: 'update', objectId: unitId, objectName: unit.name, ...(change === 'add' ? { after: { membersAdded: members } } : { before: { membersRemoved: members } }) });
    }
    return { changed };
  });
}
