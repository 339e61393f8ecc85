import { contracts } from '@tritium/shared';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import { AppError, parameterError } from '../../lib/app-error.ts';
import { canAdministerApp, isAdministrator, isAppCreator, isSubAdministrator, type NodeViewer } from '../function-node/function-node.policy.ts';
import { loadAppViews, viewerOf, type NodeContext } from '../function-node/node-context.ts';
import { nodeReads } from '../function-node/node-reads.ts';
import type { EngineExecutor, NodeRow } from '../function-node/function-node.repo.ts';
import { FORM_NODE_TYPES } from '../form-design/form-access.ts';

// Who may read and write code (docs/decisions/0118): the app's administrators and the engine's Administrators; the
// code runs with the rights its author gives it, so no one else may see or change it. Codes that name nothing, or a
// form of another app, or a part the owner cannot have, are bad input (777) and change nothing.

/** An owner of code the caller administers: the app, and the form when one is named. */
export interface AdministeredOwner {
  viewer: NodeViewer;
  app: NodeRow;
  form: NodeRow | null;
}

/** The app (and form) named, checked to exist and to be administered by the caller. */
export async function administeredOwnerOrThrow(edb: EngineExecutor, ctx: NodeContext, body: { appCode?: string; schemaCode?: string }): Promise<AdministeredOwner> {
  const viewer = await viewerOf(edb, ctx);
  const reads = nodeReads(edb, viewer);
  let form: NodeRow | null = null;
  if (body.schemaCode !== undefined) {
    const node = await reads.findNode(body.schemaCode);
    if (!node || (body.appCode !== undefined && node.app_code !== body.appCode) || !FORM_NODE_TYPES.includes(node.node_type)) {
      throw parameterError([{ path: 'schemaCode', message: body.appCode === undefined ? `表单“${body.schemaCode}”不存在` : `应用“${body.appCode}”中没有表单“${body.schemaCode}”` }]);
    }
    form = node;
  }
  const appCode = body.appCode ?? form?.app_code ?? '';
  const app = await reads.findNode(appCode);
  if (!app || app.node_type !== FunctionNodeType.AppPackage) throw parameterError([{ path: 'appCode', message: `应用“${appCode}”不存在` }]);
  await assertAdministers(edb, viewer, app.code);
  return { viewer, app, form };
}

async function assertAdministers(edb: EngineExecutor, viewer: NodeViewer, appCode: string): Promise<void> {
  if (isAdministrator(viewer)) return;
  const [view] = await loadAppViews(edb, viewer, [appCode]);
  if (!view || !canAdministerApp(viewer, view.permissionOf(appCode))) throw new AppError('FunctionNodeForbidden', { detail: { appCode } });
}

/** A form has its server and browser scripts; an app (no form named) its custom APIs only. */
export function assertPartOf(owner: { form: NodeRow | null }, part: contracts.CustomCodePart): void {
  const allowed = owner.form ? contracts.FORM_CODE_PARTS.includes(part) : part === 'app-api';
  if (!allowed) throw parameterError([{ path: 'part', message: owner.form ? '表单的代码只有后端代码（form-server）和前端代码（form-browser）' : '应用的代码只有自定义接口（app-api）' }]);
}

/**
 * A check without an app or form named: callers who may administer some app (Administrators, SubAdministrators and
 * AppCreators); with an app named, its administrators.
 */
export async function assertMayCheck(edb: EngineExecutor, ctx: NodeContext, body: { appCode?: string; schemaCode?: string }): Promise<void> {
  if (body.appCode !== undefined || body.schemaCode !== undefined) {
    await administeredOwnerOrThrow(edb, ctx, body);
    return;
  }
  const viewer = await viewerOf(edb, ctx);
  if (!isAdministrator(viewer) && !isSubAdministrator(viewer) && !isAppCreator(viewer)) throw new AppError('FunctionNodeForbidden', { detail: {} });
}
