import type { contracts } from '@tritium/shared';
import type { z } from 'zod';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { deleteUnit, departmentContents, findUnit, findUser, insertUnits, isRootUnit, isWithin, nextSortKey, siblingNameTaken, updateUnit, type EngineExecutor, type UnitRow } from './org.repo.ts';
import { assertDepartment, assertUser } from './org.policy.ts';
import { inOrgTransaction, loadDepartment, type OrgContext } from './org.service.ts';
import { recordOperation } from '../audit/oplog.ts';

type CreateInput = z.output<typeof contracts.CreateDepartmentBody>;
type UpdateInput = z.output<typeof contracts.UpdateDepartmentBody>;
type MoveInput = z.output<typeof contracts.MoveDepartmentBody>;

async function assertManager(edb: EngineExecutor, managerId: string | null | undefined): Promise<void> {
  if (managerId) assertUser(await findUser(edb, managerId), managerId);
}

async function assertNameFree(edb: EngineExecutor, parentId: string, name: string, exceptId?: string): Promise<void> {
  if (await siblingNameTaken(edb, parentId, 'OrganizationUnit', name, exceptId)) throw new AppError('DepartmentNameTaken', { detail: { parentId, name } });
}

/** A department under a department or a root; under the external root (or an external department) it is external. */
export async function createDepartment(ctx: OrgContext, input: CreateInput): Promise<contracts.DepartmentDto> {
  return inOrgTransaction(ctx, async ({ edb }) => {
    const parent = await findUnit(edb, input.parentId);
    assertDepartment(parent, input.parentId);
    await assertNameFree(edb, parent.id, input.name);
    await assertManager(edb, input.managerId);
    const id = newId();
    await insertUnits(edb, [
      {
        id,
        parent_id: parent.id,
        unit_type: 'OrganizationUnit',
        name: input.name,
        is_external: parent.is_external,
        manager_id: input.managerId ?? null,
        sort_key: input.sortKey ?? (await nextSortKey(edb, parent.id, 'OrganizationUnit')),
      },
    ]);
    const created = await loadDepartment(edb, id);
    await recordOperation(edb, ctx, { kind: 'department', action: 'create', objectId: id, objectName: created.name, after: created });
    return created;
  });
}

async function getDepartmentOrThrow(edb: EngineExecutor, id: string): Promise<UnitRow> {
  const unit = await findUnit(edb, id);
  assertDepartment(unit, id);
  return unit;
}

/** Renames, re-orders or sets the manager. The roots keep their names (the external root's is fixed, calls.md §3). */
export async function updateDepartment(ctx: OrgContext, input: UpdateInput): Promise<contracts.DepartmentDto> {
  return inOrgTransaction(ctx, async ({ edb }) => {
    const unit = await getDepartmentOrThrow(edb, input.id);
    if (isRootUnit(unit) && ((input.name !== undefined && input.name !== unit.name) || input.sortKey !== undefined)) throw new AppError('RootUnitLocked');
    if (input.name !== undefined && input.name !== unit.name) await assertNameFree(edb, unit.parent_id!, input.name, unit.id);
    await assertManager(edb, input.managerId);
    const before = await loadDepartment(edb, unit.id);
    await updateUnit(edb, unit.id, { name: input.name, manager_id: input.managerId, sort_key: input.sortKey });
    const after = await loadDepartment(edb, unit.id);
    await recordOperation(edb, ctx, { kind: 'department', action: 'update', objectId: unit.id, objectName: after.name, before, after });
    return after;
  });
}

/**
 * Moves a department under another parent; its whole subtree and its members go with it (they hang by parent_id).
 * Refused: moving a root, moving under itself or below itself (a cycle), crossing between the internal and the
 * external organisation, and a name already used under the new parent.
 */
export async function moveDepartment(ctx: OrgContext, input: MoveInput): Promise<contracts.DepartmentDto> {
  return inOrgTransaction(ctx, async ({ edb }) => {
    const unit = await getDepartmentOrThrow(edb, input.id);
    if (isRootUnit(unit)) throw new AppError('RootUnitLocked');
    const parent = await getDepartmentOrThrow(edb, input.parentId);
    if (await isWithin(edb, parent.id, unit.id)) throw new AppError('DepartmentCycle', { detail: { id: unit.id, parentId: parent.id } });
    if (parent.is_external !== unit.is_external) throw new AppError('OrgScopeMismatch');
    if (parent.id !== unit.parent_id) await assertNameFree(edb, parent.id, unit.name, unit.id);
    const sortKey = input.sortKey ?? (parent.id === unit.parent_id ? unit.sort_key : await nextSortKey(edb, parent.id, 'OrganizationUnit'));
    await updateUnit(edb, unit.id, { parent_id: parent.id, sort_key: sortKey });
    await recordOperation(edb, ctx, { kind: 'department', action: 'move', objectId: unit.id, objectName: unit.name, before: { parentId: unit.parent_id }, after: { parentId: parent.id, parentName: parent.name } });
    return loadDepartment(edb, unit.id);
  });
}

/** Removes an empty department; one with sub-departments or members is refused with their counts. */
export async function removeDepartment(ctx: OrgContext, id: string): Promise<void> {
  await inOrgTransaction(ctx, async ({ edb }) => {
    const unit = await getDepartmentOrThrow(edb, id);
    if (isRootUnit(unit)) throw new AppError('RootUnitLocked');
    const contents = await departmentContents(edb, id);
    if (contents.childCount || contents.userCount) throw new AppError('DepartmentNotEmpty', { detail: contents });
    await deleteUnit(edb, id);
    await recordOperation(edb, ctx, { kind: 'department', action: 'remove', objectId: id, objectName: unit.name, before: { name: unit.name, parentId: unit.parent_id, managerId: unit.manager_id } });
  });
}
