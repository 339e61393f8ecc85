import type { z } from 'zod';
import type { contracts } from '@tritium/shared';
import { EXTERNAL_ROOT_NODE_ID, type OrgScope } from '@tritium/shared/constants/org';
import { AppError } from '../../lib/app-error.ts';
import { findUnit, findUser, isDepartment, type EngineExecutor } from './org.repo.ts';
import * as q from './org-query.repo.ts';
import * as items from './org-items.repo.ts';
import { presentAssociation, presentDepartment, presentItem, presentList, presentPost, presentRole, presentRoleGroup, presentUser } from './org.presenter.ts';
import { assertDepartment, assertUnitType } from './org.policy.ts';
import { engineOf, loadDepartment, loadDepartmentDetail, loadUserDetail, type OrgContext } from './org.service.ts';

// The read calls of calls.md §7 "Organisation". Any engine member but a guest may read.

type Input<T extends z.ZodType> = z.output<T>;

/** A named department decides the side (internal or external) by itself; the scope filters the rest. */
const scopeUnless = (departmentId: string | undefined, scope: OrgScope): OrgScope => (departmentId ? 'all' : scope);

async function assertDepartmentId(edb: EngineExecutor, id: string | undefined): Promise<void> {
  if (id !== undefined) assertDepartment(await findUnit(edb, id), id);
}

async function assertOfType(edb: EngineExecutor, id: string | undefined, unitType: 'Role' | 'Post' | 'RoleGroup'): Promise<void> {
  if (id !== undefined) assertUnitType(await findUnit(edb, id), id, unitType);
}

export async function listUsers(ctx: OrgContext, input: Input<typeof contracts.OrgUserListBody>) {
  const edb = engineOf(ctx);
  await assertDepartmentId(edb, input.departmentId);
  await assertOfType(edb, input.roleId, 'Role');
  await assertOfType(edb, input.postId, 'Post');
  return presentList(await q.listUsers(edb, { ...input, scope: scopeUnless(input.departmentId, input.scope) }, input), presentUser);
}

export async function listDepartments(ctx: OrgContext, input: Input<typeof contracts.OrgDepartmentListBody>) {
  const edb = engineOf(ctx);
  await assertDepartmentId(edb, input.parentId);
  return presentList(await q.listDepartments(edb, { ...input, scope: scopeUnless(input.parentId, input.scope) }, input), presentDepartment);
}

export async function listExternalDepartments(ctx: OrgContext, input: Input<typeof contracts.OrgExternalDepartmentListQuery>) {
  const edb = engineOf(ctx);
  const parentId = input.parentId ?? EXTERNAL_ROOT_NODE_ID;
  const parent = await findUnit(edb, parentId);
  if (!parent || !isDepartment(parent) || !parent.is_external) throw new AppError('UnitNotFound', { detail: { id: parentId, expected: 'OrganizationUnit', isExternal: true } });
  return presentList(await q.listDepartments(edb, { parentId, recursive: input.recursive === 'true', scope: 'external' }, input), presentDepartment);
}

export async function listAssociations(ctx: OrgContext, input: Input<typeof contracts.OrgAssociationListBody>) {
  const kinds = input.unitTypes ?? ['OrganizationUnit', 'Role', 'Post'];
  return presentList(await items.listAssociations(engineOf(ctx), input.userIds, kinds, input), presentAssociation);
}

export async function search(ctx: OrgContext, input: Input<typeof contracts.OrgSearchBody>) {
  const edb = engineOf(ctx);
  await assertDepartmentId(edb, input.departmentId);
  return presentList(await items.searchUnits(edb, input.unitTypes, { ...input, scope: scopeUnless(input.departmentId, input.scope) }, input), presentItem);
}

export async function searchByName(ctx: OrgContext, input: Input<typeof contracts.OrgSearchByNameBody>) {
  return presentList(await items.unitsByName(engineOf(ctx), input.unitTypes, input, input), presentItem);
}

export async function listChildren(ctx: OrgContext, input: Input<typeof contracts.OrgListBody>) {
  const edb = engineOf(ctx);
  await assertDepartmentId(edb, input.parentId);
  return presentList(await items.childrenOf(edb, input.parentId, input.unitTypes, { ...input, scope: scopeUnless(input.parentId, input.scope) }, input), presentItem);
}

/** A department (default: the caller's main department, else the company) and every department below it. */
export async function currentAndChild(ctx: OrgContext, input: Input<typeof contracts.OrgCurrentAndChildBody>) {
  const edb = engineOf(ctx);
  let departmentId = input.departmentId;
  if (!departmentId) departmentId = (await findUser(edb, ctx.userId))?.main_department_id ?? ctx.companyId;
  const current = await loadDepartment(edb, departmentId);
  const below = await q.listDepartments(edb, { parentId: departmentId, recursive: true, scope: 'all' }, input);
  return { current, ...presentList(below, presentDepartment) };
}

export async function checkRange(ctx: OrgContext, input: Input<typeof contracts.OrgCheckRangeBody>) {
  const inside = await items.unitsInRange(engineOf(ctx), input.unitIds, input.rangeIds);
  const list = input.unitIds.map((unitId) => ({ unitId, inRange: inside.has(unitId) }));
  return { list, allInRange: list.every((r) => r.inRange) };
}

export async function unitBatch(ctx: OrgContext, input: Input<typeof contracts.OrgUnitBatchBody>) {
  return presentList(await items.unitsByIds(engineOf(ctx), input.ids, { pageIndex: 0, pageSize: -1 }), presentItem);
}

/** "Get org info by ids": the users, departments and roles among the ids (others are left out). */
export async function infoByIds(ctx: OrgContext, input: Input<typeof contracts.OrgInfoByIdsBody>) {
  const edb = engineOf(ctx);
  const users = await q.usersByIds(edb, input.ids);
  const departments = await q.departmentsByIds(edb, input.ids);
  const roles = await q.listRoles(edb, { ids: input.ids }, { pageIndex: 0, pageSize: -1 });
  return { users: users.map(presentUser), departments: departments.map(presentDepartment), roles: roles.rows.map(presentRole) };
}

export async function listRoles(ctx: OrgContext, input: Input<typeof contracts.OrgRoleListQuery>) {
  const edb = engineOf(ctx);
  await assertOfType(edb, input.groupId, 'RoleGroup');
  return presentList(await q.listRoles(edb, input, input), presentRole);
}

export async function listRoleGroups(ctx: OrgContext, input: Input<typeof contracts.OrgRoleGroupListQuery>) {
  return presentList(await q.listGroupsOrPosts(engineOf(ctx), 'RoleGroup', {}, input), presentRoleGroup);
}

export async function listPosts(ctx: OrgContext, input: Input<typeof contracts.OrgPostListQuery>) {
  return presentList(await q.listGroupsOrPosts(engineOf(ctx), 'Post', input, input), presentPost);
}

export async function getUser(ctx: OrgContext, id: string | undefined) {
  return loadUserDetail(engineOf(ctx), id ?? ctx.userId);
}

export async function getDepartment(ctx: OrgContext, id: string | undefined) {
  return loadDepartmentDetail(engineOf(ctx), id ?? ctx.companyId);
}

export async function getUnitInfo(ctx: OrgContext, id: string) {
  const page = await items.unitsByIds(engineOf(ctx), [id], { pageIndex: 0, pageSize: 1 });
  if (!page.rows.length) throw new AppError('UnitNotFound', { detail: { id } });
  return presentItem(page.rows[0]);
}
