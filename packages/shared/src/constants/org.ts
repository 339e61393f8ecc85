/** Organisation units, roles and access scopes (domain.md §3, §6; calls.md §3). */

// domain.md §3
export const ORG_UNIT_TYPES = ['Company', 'OrganizationUnit', 'User', 'Role', 'Post', 'RoleGroup'] as const;
export type OrgUnitType = (typeof ORG_UNIT_TYPES)[number];

// calls.md §3: the kinds of unit a picker returns.
export const ORG_UNIT_KINDS = ['user', 'department', 'role'] as const;
export type OrgUnitKind = (typeof ORG_UNIT_KINDS)[number];

// domain.md §6
export const UserAuthType = {
  Administrator: 1,
  SubAdministrator: 2,
  Personal: 3,
  Anonymous: 4,
  External: 5,
  AppCreator: 6,
} as const;
export type UserAuthType = (typeof UserAuthType)[keyof typeof UserAuthType];

// domain.md §6: what a user may do with a function node, weakest first.
export const FUNCTION_NODE_AUTHORIZATIONS = ['none', 'access', 'create', 'administrator'] as const;
export type FunctionNodeAuthorization = (typeof FUNCTION_NODE_AUTHORIZATIONS)[number];

// domain.md §6: which rows a permission covers.
export const DATA_SCOPES = ['own', 'ownDept', 'relevant', 'ownAndRelevant', 'all', 'ownAndOwnDept'] as const;
export type DataScope = (typeof DATA_SCOPES)[number];

// domain.md §6, calls.md §6 and §9: queries cover all rows unless a scope is given.
export const DEFAULT_DATA_SCOPE: DataScope = 'all';

// domain.md §6: which part of the organisation a picker or query covers.
export const ORG_SCOPES = ['inner', 'external', 'all'] as const;
export type OrgScope = (typeof ORG_SCOPES)[number];

// domain.md §6: how an open-query page is protected; identity means the visitor's phone number.
export const OPEN_QUERY_ACCESS_LEVELS = ['public', 'password', 'identity'] as const;
export type OpenQueryAccessLevel = (typeof OPEN_QUERY_ACCESS_LEVELS)[number];

// domain.md §3, calls.md §3: the spec fixes the external root node's id without giving it. This UUID was
// generated once for this project; it must stay the same because stored units point at it.
export const EXTERNAL_ROOT_NODE_ID = '9ce2cd02-e1dc-4332-a80c-b84b4979d128';

// calls.md §3
export const EXTERNAL_ROOT_NODE_NAME = '外部组织';
