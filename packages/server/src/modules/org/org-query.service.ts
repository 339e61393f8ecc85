import type { z } from 'zod';
import type { contracts } from '@tritium/shared';
import { EXTERNAL_ROOT_NODE_ID, type OrgScope } from '@tritium/shared/constants/org';
import { AppError } from '../../lib/app-error.ts';
import { findUnit, findUser, isDepartment, type EngineExecutor } from './org.repo.ts';
import * as q from './org-query.repo.ts';
import * as items from './org-items.repo.ts';
import { presentAssociation, presentDepartment, presentItem, presentList, presentPost, presentRole, presentRoleGroup, presentUser } from './org.presenter.ts';
import { assertDepartment, assertUnitType } from './org.policy.ts';
import { engineOf, loadDepartment, loadDepartmentDetail, loadUserDetail } from './org.service.ts';
import type { OrgReadContext } from './org-context.ts';
import { assertInternalViewer, isVisibleUnit, type Viewer } from './org-viewer.ts';

// The read calls of calls.md §7 "Organisation". Any engine member but a guest may read; what an external user
// sees is limited to their own external organisation (docs/decisions/0010): every query below takes ctx.viewer.

type Input<T extends z.ZodType> = z.output<T>;

/**
 * A named department decides the side (internal or external) by itself; the scope filters the rest. An external
 * viewer sees only their own (external) organisation, so the scope parameter does not narrow it further.
 */
const scopeUnless = (viewer: Viewer, departmentId: string | undefined, scope: OrgScope): OrgScope => (viewer.kind === 'external' || departmentId ? 'all' : scope);

/** A named department must exist and be one the viewer may see; otherwise "not found". */
async function assertDepartmentId(edb: EngineExecutor, viewer: Viewer, id: string | undefined): Promise<void> {
  if (id === undefined) return;
  const unit = await findUnit(edb, id);
  assertDepartment(unit && (await isVisibleUnit(edb, viewer, id)) ? unit : undefined, id);
}

/** Roles, role groups and posts: an external viewer sees none, so a named one is "not found" to them. */
async function assertOfType(edb: EngineExecutor, viewer: Viewer, id: string | undefined, unitType: 'Role' | 'Post' | 'RoleGroup'): Promise<void> {
  if (id !== undefined) assertUnitType(viewer.kind === 'internal' ? await findUnit(edb, id) : undefined, id, unitType);
}

export async function listUsers(ctx: OrgReadContext, input: Input<typeof contracts.OrgUserListBody>) {
  const edb = engineOf(ctx);
  await assertDepartmentId(edb, ctx.viewer, input.departmentId);
  await assertOfType(edb, ctx.viewer, input.roleId, 'Role');
  await assertOfType(edb, ctx.viewer, input.postId, 'Post');
  return presentList(await q.listUsers(edb, { ...input, scope: scopeUnless(ctx.viewer, input.departmentId, input.scope) }, input, ctx.viewer), presentUser);
}

export async function listDepartments(ctx: OrgReadContext, input: Input<typeof contracts.OrgDepartmentListBody>) {
  const edb = engineOf(ctx);
  await assertDepartmentId(edb, ctx.viewer, input.parentId);
  return presentList(await q.listDepartments(edb, { ...input, scope: scopeUnless(ctx.viewer, input.parentId, input.scope) }, input, ctx.viewer), presentDepartment);
}

export async function listExternalDepartments(ctx: OrgReadContext, input: Input<typeof contracts.OrgExternalDepartmentListQuery>) {
  const edb = engineOf(ctx);
  const parentId = input.parentId ?? EXTERNAL_ROOT_NODE_ID;
  const parent = await findUnit(edb, parentId);
  // 外部组织 itself is every external viewer's starting point; below it they see their own organisation only.
  const visible = parentId === EXTERNAL_ROOT_NODE_ID || (await isVisibleUnit(edb, ctx.viewer, parentId));
  if (!parent || !isDepartment(parent) || !parent.is_external || !visible) throw new AppError('UnitNotFound', { detail: { id: parentId, expected: 'OrganizationUnit', isExternal: true } });
  return presentList(await q.listDepartments(edb, { parentId, recursive: input.recursive === 'true', scope: 'external' }, input, ctx.viewer), presentDepartment);
}

export async function listAssociations(ctx: OrgReadContext, input: Input<typeof contracts.OrgAssociationListBody>) {
  const kinds = input.unitTypes ?? ['OrganizationUnit', 'Role', 'Post'];
  return presentList(await items.listAssociations(engineOf(ctx), input.userIds, kinds, input, ctx.viewer), presentAssociation);
}

export async function search(ctx: OrgReadContext, input: Input<typeof contracts.OrgSearchBody>) {
  const edb = engineOf(ctx);
  await assertDepartmentId(edb, ctx.viewer, input.departmentId);
  return presentList(await items.searchUnits(edb, input.unitTypes, { ...input, scope: scopeUnless(ctx.viewer, input.departmentId, input.scope) }, input, ctx.viewer), presentItem);
}

export async function searchByName(ctx: OrgReadContext, input: Input<typeof contracts.OrgSearchByNameBody>) {
  return presentList(await items.unitsByName(engineOf(ctx), input.unitTypes, { ...input, scope: scopeUnless(ctx.viewer, undefined, input.scope) }, input, ctx.viewer), presentItem);
}

export async function listChildren(ctx: OrgReadContext, input: Input<typeof contracts.OrgListBody>) {
  const edb = engineOf(ctx);
  await assertDepartmentId(edb, ctx.viewer, input.parentId);
  return presentList(await items.childrenOf(edb, input.parentId, input.unitTypes, { ...input, scope: scopeUnless(ctx.viewer, input.parentId, input.scope) }, input, ctx.viewer), presentItem);
}

/**
 * A department (default: the caller's main department, else the company; for an external caller, their
 * main department) and every department below it.
 */
export async function currentAndChild(ctx: OrgReadContext, input: Input<typeof contracts.OrgCurrentAndChildBody>) {
  const edb = engineOf(ctx);
  let departmentId = input.departmentId;
  if (!departmentId) departmentId = (await findUser(edb, ctx.userId))?.main_department_id ?? (ctx.viewer.kind === 'internal' ? ctx.companyId : EXTERNAL_ROOT_NODE_ID);
  const current = await loadDepartment(edb, departmentId, ctx.viewer);
  const below = await q.listDepartments(edb, { parentId: departmentId, recursive: true, scope: 'all' }, input, ctx.viewer);
  return { current, ...presentList(below, presentDepartment) };
}

export async function checkRange(ctx: OrgReadContext, input: Input<typeof contracts.OrgCheckRangeBody>) {
  const inside = await items.unitsInRange(engineOf(ctx), input.unitIds, input.rangeIds, ctx.viewer);
  const list = input.unitIds.map((unitId) => ({ unitId, inRange: inside.has(unitId) }));
  return { list, allInRange: list.every((r) => r.inRange) };
}

export async function unitBatch(ctx: OrgReadContext, input: Input<typeof contracts.OrgUnitBatchBody>) {
  return presentList(await items.unitsByIds(engineOf(ctx), input.ids, { pageIndex: 0, pageSize: -1 }, ctx.viewer), presentItem);
}

/** "Get org info by ids": the users, departments and roles among the ids (others, and those the viewer may not see, are left out). */
export async function infoByIds(ctx: OrgReadContext, input: Input<typeof contracts.OrgInfoByIdsBody>) {
  const edb = engineOf(ctx);
  const users = await q.usersByIds(edb, input.ids, ctx.viewer);
  const departments = await q.departmentsByIds(edb, input.ids, ctx.viewer);
  // Roles are the internal organisation's: an external viewer sees none.
  const roles = ctx.viewer.kind === 'internal' ? (await q.listRoles(edb, { ids: input.ids }, { pageIndex: 0, pageSize: -1 })).rows : [];
  return { users: users.map(presentUser), departments: departments.map(presentDepartment), roles: roles.map(presentRole) };
}

export async function listRoles(ctx: OrgReadContext, input: Input<typeof contracts.OrgRoleListQuery>) {
  assertInternalViewer(ctx.viewer);
  const edb = engineOf(ctx);
  await assertOfType(edb, ctx.viewer, input.groupId, 'RoleGroup');
  return presentList(await q.listRoles(edb, input, input), presentRole);
}

export async function listRoleGroups(ctx: OrgReadContext, input: Input<typeof contracts.OrgRoleGroupListQuery>) {
  assertInternalViewer(ctx.viewer);
  return presentList(await q.listGroupsOrPosts(engineOf(ctx), 'RoleGroup', {}, input), presentRoleGroup);
}

export async function listPosts(ctx: OrgReadContext, input: Input<typeof contracts.OrgPostListQuery>) {
  assertInternalViewer(ctx.viewer);
  return presentList(await q.listGroupsOrPosts(engineOf(ctx), 'Post', input, input), presentPost);
}

export async function getUser(ctx: OrgReadContext, id: string | undefined) {
  return loadUserDetail(engineOf(ctx), id ?? ctx.userId, ctx.viewer);
}

/** Without id: the company, or for an external caller the top of their own organisation. */
export async function getDepartment(ctx: OrgReadContext, id: string | undefined) {
  const fallback = ctx.viewer.kind === 'internal' ? ctx.companyId : (ctx.viewer.orgIds[0] ?? EXTERNAL_ROOT_NODE_ID);
  return loadDepartmentDetail(engineOf(ctx), id ?? fallback, ctx.viewer);
}

export async function getUnitInfo(ctx: OrgReadContext, id: string) {
  const page = await items.unitsByIds(engineOf(ctx), [id], { pageIndex: 0, pageSize: 1 }, ctx.viewer);
  if (!page.rows.length) throw new AppError('UnitNotFound', { detail: { id } });
  return presentItem(page.rows[0]);
}
