import type { contracts } from '@tritium/shared';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import type { NodeRow } from './function-node.repo.ts';
import { engineOf, getAppViewOrThrow, getNodeOrThrow, loadAppSummaries, loadAppViews, viewerOf, type NodeContext } from './node-context.ts';
import { isAdministrator } from './function-node.policy.ts';

// The read calls of calls.md §7 "Apps and nodes". Everything answered is filtered by what the caller may open.

async function views(ctx: NodeContext, onlyApps?: string[]) {
  const edb = engineOf(ctx);
  return loadAppViews(edb, await viewerOf(edb, ctx), onlyApps);
}

/** Without children, apps seen whole are answered without reading their nodes (loadAppSummaries). */
export async function appList(ctx: NodeContext, withChildren: boolean): Promise<contracts.AppDto[]> {
  if (!withChildren) {
    const edb = engineOf(ctx);
    return loadAppSummaries(edb, await viewerOf(edb, ctx));
  }
  return (await views(ctx)).map((v) => v.presentApp(true));
}

/** The apps the caller administers (sub-administrators: their own list; Administrators: all). */
export async function subAdminAppList(ctx: NodeContext): Promise<contracts.FunctionNodeDto[]> {
  return (await views(ctx)).filter((v) => v.isAdmin).map((v) => v.present(v.app));
}

export async function adminAppCodes(ctx: NodeContext): Promise<{ codes: string[]; isAdministrator: boolean }> {
  const list = await views(ctx);
  return { codes: list.filter((v) => v.isAdmin).map((v) => v.app.code), isAdministrator: isAdministrator({ userId: ctx.userId, authType: ctx.authType, unitIds: [] }) };
}

export async function hasDashboard(ctx: NodeContext): Promise<boolean> {
  return (await views(ctx)).some((v) => v.flatten().some((n) => n.node_type === FunctionNodeType.DashBoardModule));
}

export async function appStatus(ctx: NodeContext, appCode: string | undefined): Promise<contracts.AppStatusResult> {
  const list = await views(ctx);
  const result: contracts.AppStatusResult = { hasApp: list.length > 0, appCount: list.length };
  if (appCode !== undefined) {
    const edb = engineOf(ctx);
    const view = await getAppViewOrThrow(edb, await viewerOf(edb, ctx), appCode);
    result.app = { code: view.app.code, appState: view.app.app_state, state: view.app.state as 'Normal' | 'Disabled', isAdmin: view.isAdmin };
  }
  return result;
}

export async function featureList(ctx: NodeContext, appCode: string) {
  const edb = engineOf(ctx);
  const view = await getAppViewOrThrow(edb, await viewerOf(edb, ctx), appCode);
  return { list: view.flatten().map((n) => view.present(n)), defaultSchemaCode: view.defaultSchemaCode() };
}

/** The visible children of an app or group, optionally of some types, optionally with hasChild. */
export async function children(ctx: NodeContext, body: { parentCode: string; nodeTypes?: number[]; checkHasChild: boolean }) {
  const edb = engineOf(ctx);
  const { view, node } = await getNodeOrThrow(edb, await viewerOf(edb, ctx), body.parentCode);
  let list = view.children(node.code);
  if (body.nodeTypes) list = list.filter((n) => body.nodeTypes!.includes(n.node_type));
  return list.map((n) => view.present(n, body.checkHasChild ? { hasChild: view.children(n.code).length > 0 } : {}));
}

/** Nodes whose name or code contains the keyword (case-insensitive), apps first then in tree order. */
export async function byKeyword(ctx: NodeContext, body: { keyword: string; nodeTypes?: number[]; appCode?: string }) {
  const keyword = body.keyword.toLowerCase();
  const matches = (n: NodeRow) =>
    (n.display_name.toLowerCase().includes(keyword) || n.code.toLowerCase().includes(keyword)) && (!body.nodeTypes || body.nodeTypes.includes(n.node_type));
  const out: contracts.FunctionNodeDto[] = [];
  for (const view of await views(ctx, body.appCode ? [body.appCode] : undefined)) {
    for (const n of [view.app, ...view.flatten()]) if (matches(n)) out.push(view.present(n));
  }
  return out;
}

/** The visible nodes among the codes, in the order asked; the others are left out. */
export async function byCodes(ctx: NodeContext, codes: string[]) {
  const found = await resolveCodes(ctx, codes);
  return codes.flatMap((c) => {
    const hit = found.get(c);
    return hit ? [hit.view.present(hit.node)] : [];
  });
}

/** The caller's permission on each code: none for unknown codes and for nodes they may not open. */
export async function authByCodes(ctx: NodeContext, codes: string[]) {
  const found = await resolveCodes(ctx, codes);
  return codes.map((code) => ({ code, permission: found.get(code)?.view.permissionOf(code) ?? ('none' as const) }));
}

async function resolveCodes(ctx: NodeContext, codes: string[]) {
  const edb = engineOf(ctx);
  const rows = await edb.selectFrom('function_nodes').select(['code', 'app_code']).where('code', 'in', codes).where('copy_job_id', 'is', null).execute();
  const appCodes = [...new Set(rows.map((r) => r.app_code))];
  const byApp = new Map((await loadAppViews(edb, await viewerOf(edb, ctx), appCodes)).map((v) => [v.app.code, v]));
  const found = new Map<string, { view: NonNullable<ReturnType<typeof byApp.get>>; node: NodeRow }>();
  for (const r of rows) {
    const view = byApp.get(r.app_code);
    const node = view?.node(r.code);
    if (view && node) found.set(r.code, { view, node });
  }
  return found;
}
