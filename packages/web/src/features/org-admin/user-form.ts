import { ERRORS } from '@tritium/shared/errors/catalogue';
import { UserAuthType } from '@tritium/shared/constants/org';

/**
 * Auth types an administrator may give (domain.md §6): external users are always External; Anonymous is for guest
 * sessions only. The server holds the same rule (220016).
 */
export function assignableAuthTypes(isExternal: boolean): number[] {
  if (isExternal) return [UserAuthType.External];
  return [UserAuthType.Personal, UserAuthType.SubAdministrator, UserAuthType.Administrator, UserAuthType.AppCreator];
}

/** The field a refusal belongs to, so the message shows beside what the person must change. */
export const FIELD_OF_ERROR: Record<number, 'mobile' | 'departmentIds' | 'mainDepartmentId' | 'authType'> = {
  [ERRORS.MobileAlreadyInEngine.code]: 'mobile',
  [ERRORS.UserMobileLocked.code]: 'mobile',
  [ERRORS.OrgScopeMismatch.code]: 'departmentIds',
  [ERRORS.UserNotInDepartment.code]: 'mainDepartmentId',
  [ERRORS.AuthTypeNotAllowed.code]: 'authType',
  [ERRORS.CannotRemoveLastAdministrator.code]: 'authType',
};
