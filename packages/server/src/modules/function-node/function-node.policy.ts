import { UserAuthType, FUNCTION_NODE_AUTHORIZATIONS, type FunctionNodeAuthorization } from '@tritium/shared/constants/org';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import { AppError } from '../../lib/app-error.ts';
import type { ContextSnapshot } from '../request-context/context.ts';

// Who may see and change apps and function nodes (domain.md §6, docs/decisions/0004). Small named predicates; the
// services call them, routes only require a signed-in member of the engine.

export type Permission = FunctionNodeAuthorization;

/** The person asking, with the org units their grants may name (themself and their roles). */
export interface NodeViewer {
  userId: string;
  authType: number;
  /** The user id and the ids of the user's roles. */
  unitIds: string[];
  /** The request's context snapshot: node and form reads come from its caches (docs/decisions/0032). */
  context?: ContextSnapshot;
  /**
   * Node and form reads come from the context's caches even inside a transaction: set by readers acting for a form
   * (business rules, rollups, a flow's end) in transactions that change no node or form (a request that does calls
   * markChanging, and then every read goes to the tables again).
   */
  cachedInTransaction?: boolean;
}

const RANK: Record<Permission, number> = Object.fromEntries(FUNCTION_NODE_AUTHORIZATIONS.map((p, i) => [p, i])) as Record<Permission, number>;

export const rankOf = (p: Permission): number => RANK[p];
export const strongest = (a: Permission, b: Permission): Permission => (RANK[a] >= RANK[b] ? a : b);
export const atLeast = (p: Permission, wanted: Permission): boolean => RANK[p] >= RANK[wanted];

export const isAdministrator = (viewer: NodeViewer): boolean => viewer.authType === UserAuthType.Administrator;
export const isSubAdministrator = (viewer: NodeViewer): boolean => viewer.authType === UserAuthType.SubAdministrator;

/** A node is opened with at least access on it (or on an app/group above it). */
export const canOpen = (viewer: NodeViewer, effective: Permission): boolean => isAdministrator(viewer) || atLeast(effective, 'access');

export const isAppCreator = (viewer: NodeViewer): boolean => viewer.authType === UserAuthType.AppCreator;

/**
 * Administering an app: Administrators administer every app; a SubAdministrator or an AppCreator the apps on which
 * they (or one of their roles) hold 'administrator' (an AppCreator gets it on each app they create,
 * docs/decisions/0115). Others never do, whatever they were granted.
 */
export const canAdministerApp = (viewer: NodeViewer, appPermission: Permission): boolean =>
  isAdministrator(viewer) || ((isSubAdministrator(viewer) || isAppCreator(viewer)) && appPermission === 'administrator');

/** New apps: Administrators and AppCreators (docs/decisions/0115). The order of the app list: Administrators only. */
export const canCreateApp = (viewer: NodeViewer): boolean => isAdministrator(viewer) || isAppCreator(viewer);

/** A 'create' right on an app or group lets its holder add nodes inside it (docs/decisions/0115). */
export const canCreateIn = (viewer: NodeViewer, appPermission: Permission, parentPermission: Permission): boolean =>
  canAdministerApp(viewer, appPermission) || atLeast(parentPermission, 'create');
export const canSortApps = (viewer: NodeViewer): boolean => isAdministrator(viewer);

export function assertCanAdministerApp(viewer: NodeViewer, appPermission: Permission, appCode: string): void {
  if (!canAdministerApp(viewer, appPermission)) throw new AppError('FunctionNodeForbidden', { detail: { appCode } });
}

/** Node types that hold other nodes: the app package and groups. */
export const isContainer = (nodeType: number): boolean => nodeType === FunctionNodeType.AppPackage || nodeType === FunctionNodeType.GroupModule;

/**
 * Where a node may live (docs/decisions/0004): modules under their app or one of its groups; groups directly
 * under their app (one level of groups, so no cycle can form); apps at the top.
 */
export function parentAllowed(nodeType: number, parent: { node_type: number } | undefined): boolean {
  if (nodeType === FunctionNodeType.AppPackage) return parent === undefined;
  if (!parent) return false;
  if (nodeType === FunctionNodeType.GroupModule) return parent.node_type === FunctionNodeType.AppPackage;
  return isContainer(parent.node_type);
}
