import { UserAuthType } from '@tritium/shared/constants/org';
import { AppError, parameterError } from '../../lib/app-error.ts';
import { isDepartment, type UnitRow, type UserRow } from './org.repo.ts';

// The organisation's rules that do not need the database. Who may call what is declared on the routes
// (reads: access 'engine'; writes: access 'admin', i.e. Administrators only).

/** A unit that must be a department (or a root): otherwise it is "not found" as a department. */
export function assertDepartment(unit: UnitRow | undefined, id: string): asserts unit is UnitRow {
  if (!unit || !isDepartment(unit)) throw new AppError('UnitNotFound', { detail: { id, expected: 'OrganizationUnit' } });
}

export function assertUnitType(unit: UnitRow | undefined, id: string, expected: 'Role' | 'RoleGroup' | 'Post'): asserts unit is UnitRow {
  if (!unit || unit.unit_type !== expected) throw new AppError('UnitNotFound', { detail: { id, expected } });
}

export function assertUser(user: UserRow | undefined, id: string): asserts user is UserRow {
  if (!user) throw new AppError('UnitNotFound', { detail: { id, expected: 'User' } });
}

/** Every id was found; otherwise UnitNotFound naming the missing ones. */
export function assertAllFound(ids: string[], found: { id: string }[], expected: string): void {
  const have = new Set(found.map((f) => f.id));
  const missing = ids.filter((id) => !have.has(id));
  if (missing.length) throw new AppError('UnitNotFound', { detail: { ids: missing, expected } });
}

/** Internal and external organisations do not mix: a user's departments and a move stay on one side. */
export function assertSameScope(isExternal: boolean, units: { is_external: boolean }[]): void {
  if (units.some((u) => u.is_external !== isExternal)) throw new AppError('OrgScopeMismatch');
}

/**
 * domain.md §6 auth types: external users are External 5; internal users may be anything an administrator
 * assigns except External (and Anonymous, which the contract already refuses). Answers the type to store.
 */
export function resolveAuthType(isExternal: boolean, requested: number | undefined): number {
  if (isExternal) {
    if (requested !== undefined && requested !== UserAuthType.External) throw new AppError('AuthTypeNotAllowed');
    return UserAuthType.External;
  }
  if (requested === UserAuthType.External || requested === UserAuthType.Anonymous) throw new AppError('AuthTypeNotAllowed');
  return requested ?? UserAuthType.Personal;
}

/** The main department must be one of the user's departments. */
export function resolveMainDepartment(departmentIds: string[], mainId: string | undefined, fallback?: string | null): string {
  if (mainId !== undefined) {
    if (!departmentIds.includes(mainId)) throw parameterError([{ path: 'mainDepartmentId', message: '主部门须是所选部门之一' }]);
    return mainId;
  }
  return fallback && departmentIds.includes(fallback) ? fallback : departmentIds[0];
}

export function isActiveAdministrator(user: Pick<UserRow, 'auth_type' | 'state'>): boolean {
  return user.auth_type === UserAuthType.Administrator && user.state === 'active';
}

export const unique = <T>(items: T[]): T[] => [...new Set(items)];
