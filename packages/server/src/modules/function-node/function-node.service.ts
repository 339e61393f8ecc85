import { randomBytes } from 'node:crypto';
import type { contracts } from '@tritium/shared';
import { DEFAULT_APP_STATE, DEFAULT_NODE_SOURCE, FunctionNodeType } from '@tritium/shared/constants/function-node';
import { AppError } from '../../lib/app-error.ts';
import { newId } from '../../lib/ids.ts';
import { codeTaken, findNode, nextSortKey, renumber, siblingsOf, type EngineExecutor, type NodeRow } from './function-node.repo.ts';
import { assertCanAdministerApp, canCreateApp, canCreateIn, canSortApps, isAdministrator, parentAllowed, type NodeViewer } from './function-node.policy.ts';
import { getAppViewOrThrow, getNodeOrThrow, inNodeTransaction, type NodeContext } from './node-context.ts';
import type { AppView } from './app-view.ts';
import { dropFormsOf } from './forms-removal-port.ts';
import { recordOperation } from '../audit/oplog.ts';

// The writes of calls.md §7 "Apps and nodes". Every write: Administrator, or a SubAdministrator within their apps.

/** A code for a node created without one: a letter first, so never all digits. */
export function generateCode(prefix: string): string {
  return `${prefix}${randomBytes(6).toString('hex')}`;
}

async function assertCodeFree(edb: EngineExecutor, code: string): Promise<void> {
  if (await codeTaken(edb, code)) throw new AppError('FunctionNodeCodeTaken', { detail: { code } });
}

async function loadPresented(edb: EngineExecutor, viewer: NodeViewer, code: string): Promise<contracts.FunctionNodeDto> {
  const { view, node } = await getNodeOrThrow(edb, viewer, code);
  return view.present(node);
}

/**
 * Creates an app (domain.md §4: an AppPackage node, state Normal, source Own; Administrators and AppCreators) or a
 * node inside an app the caller administers, or holds 'create' on the parent (the app or one of its groups).
 */
export async function createNode(ctx: NodeContext, body: contracts.CreateNodeBody): Promise<contracts.FunctionNodeDto> {
  return inNodeTransaction(ctx, async ({ edb, viewer }) => {
    const isApp = body.nodeType === FunctionNodeType.AppPackage;
    const code = body.code ?? generateCode(isApp ? 'A' : 'D');
    let parentCode: string | null = null;
    let appCode = code;
    if (isApp) {
      if (!canCreateApp(viewer)) throw new AppError('Forbidden');
    } else {
      const app = await getAppViewOrThrow(edb, viewer, body.appCode!);
      const parent = app.node(body.parentCode ?? app.app.code);
      if (!parent) throw new AppError('FunctionNodeNotFound', { detail: { code: body.parentCode } });
      if (!canCreateIn(viewer, app.permissionOf(app.app.code), app.permissionOf(parent.code))) assertCanAdministerApp(viewer, app.permissionOf(app.app.code), app.app.code);
      if (!parentAllowed(body.nodeType, parent)) throw new AppError('FunctionNodeParentInvalid', { detail: { parentCode: parent.code, nodeType: body.nodeType } });
      parentCode = parent.code;
      appCode = app.app.code;
    }
    await assertCodeFree(edb, code);
    await edb
      .insertInto('function_nodes')
      .values({
        code,
        object_id: newId(),
        parent_code: parentCode,
        app_code: appCode,
        display_name: body.displayName,
        icon: body.icon ?? '',
        icon_color: body.iconColor ?? '',
        node_type: body.nodeType,
        summary: body.summary ?? '',
        app_state: DEFAULT_APP_STATE,
        source: DEFAULT_NODE_SOURCE,
        state: 'Normal',
        sort_key: await nextSortKey(edb, parentCode),
        url: body.nodeType === FunctionNodeType.CustomLinkModule ? body.url! : null,
      })
      .execute();
    // An AppCreator administers the apps they create.
    if (isApp && !isAdministrator(viewer)) await edb.insertInto('node_permissions').values({ node_code: code, unit_id: viewer.userId, permission: 'administrator' }).execute();
    return loadPresented(edb, viewer, code);
  });
}

async function getAdministeredNode(edb: EngineExecutor, viewer: NodeViewer, code: string): Promise<{ view: AppView; node: NodeRow }> {
  const found = await getNodeOrThrow(edb, viewer, code);
  assertCanAdministerApp(viewer, found.view.permissionOf(found.view.app.code), found.view.app.code);
  return found;
}

export async function updateNode(ctx: NodeContext, body: contracts.UpdateNodeBody): Promise<contracts.FunctionNodeDto> {
  return inNodeTransaction(ctx, async ({ edb, viewer }) => {
    const { node } = await getAdministeredNode(edb, viewer, body.code);
    if (body.url !== undefined && node.node_type !== FunctionNodeType.CustomLinkModule) {
      throw new AppError('ParameterVerificationFailed', { detail: { issues: [{ path: 'url', message: '只有自定义链接有链接地址' }] } });
    }
    await edb
      .updateTable('function_nodes')
      .set({
        ...(body.displayName !== undefined && { display_name: body.displayName }),
        ...(body.icon !== undefined && { icon: body.icon }),
        ...(body.iconColor !== undefined && { icon_color: body.iconColor }),
        ...(body.summary !== undefined && { summary: body.summary }),
        ...(body.state !== undefined && { state: body.state }),
        ...(body.url !== undefined && { url: body.url }),
        modified_time: new Date(),
      })
      .where('code', '=', node.code)
      .execute();
    return loadPresented(edb, viewer, node.code);
  });
}

/** Removes a node and everything below it; an app goes with all it contains (calls.md §4). */
export async function removeNode(ctx: NodeContext, code: string): Promise<number> {
  return inNodeTransaction(ctx, async ({ trx, edb, viewer }) => {
    const { node } = await getAdministeredNode(edb, viewer, code);
    let removed = edb.selectFrom('function_nodes').select('code');
    // Rows a running copy is still writing belong to the copy, not to this app.
    if (node.node_type === FunctionNodeType.AppPackage) removed = removed.where('app_code', '=', node.code).where('copy_job_id', 'is', null);
    else removed = removed.where((eb) => eb.or([eb('code', '=', node.code), eb('parent_code', '=', node.code)]));
    const codes = (await removed.execute()).map((r) => r.code);
    // The forms among them lose their tables too (under the form lock, so no publish runs meanwhile).
    await dropFormsOf(trx, edb, ctx.engineCode, codes);
    const r = await edb.deleteFrom('function_nodes').where('code', 'in', codes).executeTakeFirst();
    return Number(r.numDeletedRows);
  });
}

/** The new order of siblings: `code` right after `preCode`, or first when preCode is empty. */
function placeAfter(siblings: string[], code: string, preCode: string | null | undefined): string[] {
  const rest = siblings.filter((c) => c !== code);
  if (!preCode) return [code, ...rest];
  const at = rest.indexOf(preCode);
  if (at < 0) throw new AppError('FunctionNodeSortInvalid', { detail: { code, preCode } });
  return [...rest.slice(0, at + 1), code, ...rest.slice(at + 1)];
}

/** PUT /sort (calls.md §4): after a given sibling or to the front. Apps: Administrators; nodes: their app's administrators. */
export async function sortNode(ctx: NodeContext, body: contracts.SortNodeBody): Promise<contracts.FunctionNodeDto> {
  return inNodeTransaction(ctx, async ({ edb, viewer }) => {
    const { view, node } = await getNodeOrThrow(edb, viewer, body.code);
    if (node.node_type === FunctionNodeType.AppPackage) {
      if (!canSortApps(viewer)) throw new AppError('FunctionNodeForbidden', { detail: { appCode: node.code } });
    } else {
      assertCanAdministerApp(viewer, view.permissionOf(view.app.code), view.app.code);
    }
    const siblings = (await siblingsOf(edb, node.parent_code)).map((n) => n.code);
    await renumber(edb, placeAfter(siblings, node.code, body.preCode));
    return loadPresented(edb, viewer, node.code);
  });
}

/**
 * The move rules (docs/decisions/0004): apps never move; a group goes only directly under an app (one level of
 * groups, hence no cycles); a module goes under an app or a group; the caller administers both the app the node
 * leaves and the app it joins. Answers the target parent.
 */
async function checkMoveRules(edb: EngineExecutor, viewer: NodeViewer, body: contracts.MoveNodeBody): Promise<{ node: NodeRow; parent: NodeRow }> {
  const { view, node } = await getNodeOrThrow(edb, viewer, body.code);
  const target = await getNodeOrThrow(edb, viewer, body.parentCode);
  if (node.node_type === FunctionNodeType.AppPackage) throw new AppError('FunctionNodeMoveNotAllowed', { detail: { reason: 'appCannotMove' } });
  if (target.node.code === node.code) throw new AppError('FunctionNodeMoveNotAllowed', { detail: { reason: 'intoItself' } });
  if (!parentAllowed(node.node_type, target.node)) {
    const reason = node.node_type === FunctionNodeType.GroupModule ? 'groupsOneLevel' : 'parentNotContainer';
    throw new AppError('FunctionNodeMoveNotAllowed', { detail: { reason } });
  }
  assertCanAdministerApp(viewer, view.permissionOf(view.app.code), view.app.code);
  assertCanAdministerApp(viewer, target.view.permissionOf(target.view.app.code), target.view.app.code);
  return { node, parent: target.node };
}

export async function moveNode(ctx: NodeContext, body: contracts.MoveNodeBody): Promise<contracts.FunctionNodeDto> {
  return inNodeTransaction(ctx, async ({ edb, viewer }) => {
    const { node, parent } = await checkMoveRules(edb, viewer, body);
    await edb.updateTable('function_nodes').set({ parent_code: parent.code, app_code: parent.app_code, modified_time: new Date() }).where('code', '=', node.code).execute();
    // A group takes its modules along into the other app.
    if (node.node_type === FunctionNodeType.GroupModule) await edb.updateTable('function_nodes').set({ app_code: parent.app_code }).where('parent_code', '=', node.code).execute();
    const siblings = (await siblingsOf(edb, parent.code)).map((n) => n.code);
    await renumber(edb, body.preCode === undefined ? [...siblings.filter((c) => c !== node.code), node.code] : placeAfter(siblings, node.code, body.preCode));
    return loadPresented(edb, viewer, node.code);
  });
}

/** A rule failure as an answer rather than an error; "not found" stays an error (nothing to tell about it). */
async function asCheck(work: () => Promise<unknown>): Promise<contracts.CheckResult> {
  try {
    await work();
    return { allowed: true };
  } catch (error) {
    if (error instanceof AppError && error.errorName !== 'FunctionNodeNotFound' && error.errorName !== 'ParameterVerificationFailed') {
      return { allowed: false, errorCode: error.code, errorMessage: error.message };
    }
    throw error;
  }
}

export async function checkMove(ctx: NodeContext, body: contracts.MoveNodeBody): Promise<contracts.CheckResult> {
  return inNodeTransaction(ctx, ({ edb, viewer }) => asCheck(() => checkMoveRules(edb, viewer, body)));
}

/** Copy rules: only an app, and only one the caller administers. */
export async function checkCopyRules(edb: EngineExecutor, viewer: NodeViewer, code: string): Promise<AppView> {
  const { view, node } = await getNodeOrThrow(edb, viewer, code);
  if (node.node_type !== FunctionNodeType.AppPackage) throw new AppError('AppCopyNotAllowed', { detail: { reason: 'notAnApp' } });
  if (!view.isAdmin) throw new AppError('AppCopyNotAllowed', { detail: { reason: 'notAdministrator' } });
  return view;
}

export async function checkCopy(ctx: NodeContext, code: string): Promise<contracts.CheckResult> {
  return inNodeTransaction(ctx, ({ edb, viewer }) => asCheck(() => checkCopyRules(edb, viewer, code)));
}

/** Administrators: a user's or role's permission on a node (none removes the grant). */
export async function setPermission(ctx: NodeContext, body: { code: string; unitId: string; permission: string }): Promise<void> {
  await inNodeTransaction(ctx, async ({ edb }) => {
    const node = await findNode(edb, body.code);
    if (!node) throw new AppError('FunctionNodeNotFound', { detail: { code: body.code } });
    const unit =
      (await edb.selectFrom('org_users').select(['id', 'name']).where('id', '=', body.unitId).executeTakeFirst()) ??
      (await edb.selectFrom('org_units').select(['id', 'name']).where('id', '=', body.unitId).where('unit_type', 'in', ['Role', 'OrganizationUnit', 'Company']).executeTakeFirst());
    if (!unit) throw new AppError('UnitNotFound', { detail: { id: body.unitId, expected: 'User, Role or Department' } });
    const previous = await edb.deleteFrom('node_permissions').where('node_code', '=', body.code).where('unit_id', '=', body.unitId).returning('permission').executeTakeFirst();
    if (body.permission !== 'none') await edb.insertInto('node_permissions').values({ node_code: body.code, unit_id: body.unitId, permission: body.permission }).execute();
    const grantOf = (permission: string) => ({ unitId: unit.id, unitName: unit.name, permission });
    await recordOperation(edb, ctx, { kind: 'appAdmin', action: 'grant', objectId: node.code, objectName: node.display_name, before: grantOf(previous?.permission ?? 'none'), after: grantOf(body.permission) });
  });
}

export async function listPermissions(ctx: NodeContext, code: string): Promise<contracts.NodePermissionListResult['list']> {
  return inNodeTransaction(ctx, async ({ edb }) => {
    if (!(await findNode(edb, code))) throw new AppError('FunctionNodeNotFound', { detail: { code } });
    const users = await edb
      .selectFrom('node_permissions as p')
      .innerJoin('org_users as u', 'u.id', 'p.unit_id')
      .select(['p.unit_id', 'u.name', 'p.permission'])
      .where('p.node_code', '=', code)
      .execute();
    const roles = await edb
      .selectFrom('node_permissions as p')
      .innerJoin('org_units as r', 'r.id', 'p.unit_id')
      .select(['p.unit_id', 'r.name', 'r.unit_type', 'p.permission'])
      .where('p.node_code', '=', code)
      .execute();
    return [
      ...users.map((u) => ({ unitId: u.unit_id, unitType: 'User', name: u.name, permission: u.permission as 'access' })),
      // A grant to a department (or the company) covers everyone in it and in the departments below.
      ...roles.map((r) => ({ unitId: r.unit_id, unitType: r.unit_type === 'Role' ? 'Role' : 'Department', name: r.name, permission: r.permission as 'access' })),
    ];
  });
}
