import type { contracts } from '@tritium/shared';
import type { OrgUnitType } from '@tritium/shared/constants/org';
import type { DepartmentRow, GroupRow, RoleRow, UserListRow } from './org-query.repo.ts';
import type { AssociationRow, ItemRow } from './org-items.repo.ts';
import type { UnitBaseRow } from './org.repo.ts';

type OrgUnitDto = contracts.OrgUnitDto;

// calls.md §3: the kind of each unit type, as pickers group them.
const NODE_TYPES: Record<OrgUnitType, contracts.OrgNodeType> = {
  Company: 'department',
  OrganizationUnit: 'department',
  User: 'user',
  Role: 'role',
  RoleGroup: 'role',
  Post: 'post',
};


function presentBase(row: UnitBaseRow, hasChild: boolean): OrgUnitDto {
  const unitType = row.unit_type as OrgUnitType;
  return {
    id: row.id,
    parentId: row.parent_id,
    name: row.name,
    hasChild,
    state: row.state,
    isExternal: row.is_external,
    entryId: row.entry_id,
    unitType,
    nodeType: NODE_TYPES[unitType],
  };
}

export function presentDepartment(row: DepartmentRow): contracts.DepartmentDto {
  return { ...presentBase(row, !!row.has_child), managerId: row.manager_id, managerName: row.manager_name, sortKey: row.sort_key };
}

export function presentUser(row: UserListRow): contracts.UserDto {
  return {
    ...presentBase({ ...row, parent_id: row.main_department_id, entry_id: null, unit_type: 'User' }, false),
    mobile: row.mobile,
    authType: row.auth_type,
    mainDepartmentId: row.main_department_id,
    mainDepartmentName: row.main_department_name,
    isJoined: row.account_id !== null,
  };
}

export function presentItem(row: ItemRow): contracts.OrgItemDto {
  return { ...presentBase(row, !!row.has_child), mobile: row.mobile, authType: row.auth_type, parentName: row.parent_name };
}

export function presentRole(row: RoleRow): contracts.RoleDto {
  return { ...presentBase(row, false), groupName: row.group_name, memberCount: Number(row.member_count) };
}

export function presentRoleGroup(row: GroupRow) {
  return { ...presentBase(row, Number(row.count) > 0), roleCount: Number(row.count) };
}

export function presentPost(row: GroupRow) {
  return { ...presentBase(row, false), memberCount: Number(row.count) };
}

export function presentAssociation(row: AssociationRow) {
  return {
    userId: row.user_id,
    unitId: row.unit_id,
    unitType: row.unit_type as OrgUnitType,
    name: row.name,
    isMain: !!row.is_main,
    isManager: !!row.is_manager,
  };
}

/** A list answer of api-conventions.md. */
export function presentList<R, D>(page: { rows: R[]; total: number; hasMore: boolean }, present: (row: R) => D) {
  return { list: page.rows.map(present), total: page.total, hasMore: page.hasMore };
}
