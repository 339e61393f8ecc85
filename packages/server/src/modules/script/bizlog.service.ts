import type { contracts } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import { engineOf, getAppViewOrThrow, getNodeOrThrow, loadAppViews, viewerOf, type NodeContext } from '../function-node/node-context.ts';
import { assertCanAdministerApp, canAdministerApp, isAdministrator } from '../function-node/function-node.policy.ts';
import { listBizLogs } from './bizlog.repo.ts';

// Reading the business log (docs/decisions/0118): an app's administrators read its lines; the engine's
// Administrators read every app's. Without an app or a form named, a reader sees the apps they administer.

export async function listBizLog(ctx: NodeContext, query: contracts.BizLogListQuery): Promise<contracts.BizLogListResult> {
  const edb = engineOf(ctx);
  const viewer = await viewerOf(edb, ctx);
  let appCodes: string[] | undefined;
  const named = query.appCode ?? (query.schemaCode ? (await getNodeOrThrow(edb, viewer, query.schemaCode)).node.app_code : undefined);
  if (named) {
    const view = await getAppViewOrThrow(edb, viewer, named);
    assertCanAdministerApp(viewer, view.permissionOf(view.app.code), view.app.code);
    appCodes = [view.app.code];
  } else if (!isAdministrator(viewer)) {
    appCodes = (await loadAppViews(edb, viewer)).filter((v) => canAdministerApp(viewer, v.permissionOf(v.app.code))).map((v) => v.app.code);
    if (!appCodes.length) throw new AppError('FunctionNodeForbidden', { detail: { appCode: null } });
  }
  const { rows, total } = await listBizLogs(edb, { ...query, appCodes }, { offset: (query.page - 1) * query.pageSize, limit: query.pageSize });
  const items = rows.map((r) => ({
    id: String(r.id),
    at: new Date(r.at).toISOString(),
    appCode: r.app_code,
    schemaCode: r.schema_code,
    part: r.part,
    handler: r.handler,
    level: r.level,
    message: r.message,
    line: r.line,
    durationMs: r.duration_ms,
    requestId: r.request_id,
    userId: r.user_id,
    userName: r.user_name ?? null,
  }));
  return { items, total, hasMore: query.page * query.pageSize < total };
}
