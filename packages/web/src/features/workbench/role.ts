import { UserAuthType } from '@tritium/shared/constants/org';
import type { zhCN } from '../../locales/zh-CN.ts';

type RoleKey = keyof typeof zhCN.workbench.roles;

const ROLE_BY_AUTH_TYPE: Record<number, RoleKey> = {
  [UserAuthType.Administrator]: 'administrator',
  [UserAuthType.SubAdministrator]: 'subAdministrator',
  [UserAuthType.Personal]: 'personal',
  [UserAuthType.Anonymous]: 'anonymous',
  [UserAuthType.External]: 'external',
  [UserAuthType.AppCreator]: 'appCreator',
};

/** Catalogue key of the role a user auth type (domain.md §6) is shown as. */
export function roleKeyOf(authType: number): `workbench.roles.${RoleKey}` {
  return `workbench.roles.${ROLE_BY_AUTH_TYPE[authType] ?? 'unknown'}`;
}
