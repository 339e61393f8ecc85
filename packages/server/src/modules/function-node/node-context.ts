import { sql, type Transaction } from 'kysely';
import type { FastifyRequest } from 'fastify';
import type { Db, PlatformDb } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { actorOf } from '../../plugins/auth.ts';
import { AppView, type GrantMap } from './app-view.ts';
import { findNode, grantsOf, listApps, listNodesOfApps, roleIdsOf, type EngineExecutor, type NodeRow } from './function-node.repo.ts';
import { isAdministrator, strongest, type NodeViewer } from './function-node.policy.ts';

/** Who acts in which engine: every function-node service call starts from it. */
export interface NodeContext {
  db: Db;
  engineCode: string;
  userId: string;
  authType: number;
}

export function nodeContextOf(request: FastifyRequest, db: Db): NodeContext {
  const actor = actorOf(request);
  return { db, engineCode: actor.engine!.engine_code, userId: actor.userId!, authType: actor.authType! };
}

export const engineOf = (ctx: Pick<NodeContext, 'db' | 'engineCode'>): EngineExecutor => engineDb(ctx.db, ctx.engineCode);

export async function viewerOf(edb: EngineExecutor, ctx: Pick<NodeContext, 'userId' | 'authType'>): Promise<NodeViewer> {
  return { userId: ctx.userId, authType: ctx.authType, unitIds: [ctx.userId, ...(await roleIdsOf(edb, ctx.userId))] };
}

/**
 * The apps a viewer may open, as views. Administrators read every app; others only the apps in which they (or a
 * role of theirs) hold a grant, so an engine of 200 apps costs a member only the apps shared with them.
 */
export async function loadAppViews(edb: EngineExecutor, viewer: NodeViewer, onlyApps?: string[]): Promise<AppView[]> {
  const grants: GrantMap = new Map();
  let appCodes: string[] | undefined = onlyApps;
  if (!isAdministrator(viewer)) {
    const rows = await grantsOf(edb, viewer.unitIds);
    const granted = new Set<string>();
    for (const g of rows) {
      grants.set(g.node_code, strongest(grants.get(g.node_code) ?? 'none', g.permission));
      granted.add(g.app_code);
    }
    appCodes = (onlyApps ?? [...granted]).filter((c) => granted.has(c));
  }
  const apps = await listApps(edb, appCodes);
  if (!apps.length) return [];
  const nodes = await listNodesOfApps(edb, appCodes ?? 'all');
  const byApp = new Map<string, NodeRow[]>();
  for (const n of nodes) {
    const list = byApp.get(n.app_code) ?? [];
    list.push(n);
    byApp.set(n.app_code, list);
  }
  return apps.map((app) => new AppView(app, byApp.get(app.code) ?? [], viewer, grants)).filter((v) => v.isVisible);
}

/** The view of one app the viewer may open; otherwise 404 (an app one may not open does not exist for them). */
export async function getAppViewOrThrow(edb: EngineExecutor, viewer: NodeViewer, appCode: string): Promise<AppView> {
  const [view] = await loadAppViews(edb, viewer, [appCode]);
  if (!view) throw new AppError('FunctionNodeNotFound', { detail: { code: appCode } });
  return view;
}

/** A node the viewer may open, with the view of its app; otherwise 404. */
export async function getNodeOrThrow(edb: EngineExecutor, viewer: NodeViewer, code: string): Promise<{ view: AppView; node: NodeRow }> {
  const row = await findNode(edb, code);
  const view = row ? (await loadAppViews(edb, viewer, [row.app_code]))[0] : undefined;
  const node = view?.node(code);
  if (!view || !node) throw new AppError('FunctionNodeNotFound', { detail: { code } });
  return { view, node };
}

/**
 * Runs a change of the engine's function nodes in one transaction holding the engine's node lock (codes, sort
 * keys and moves are decided under it). Inside, only the transaction is used (docs/decisions/0001).
 */
export async function inNodeTransaction<T>(ctx: NodeContext, work: (tx: { trx: Transaction<PlatformDb>; edb: EngineExecutor; viewer: NodeViewer }) => Promise<T>): Promise<T> {
  return ctx.db.transaction().execute(async (trx) => {
    await lockFunctionNodes(trx, ctx.engineCode);
    const edb = engineDb(trx as unknown as Db, ctx.engineCode);
    return work({ trx, edb, viewer: await viewerOf(edb, ctx) });
  });
}

export async function lockFunctionNodes(trx: Transaction<PlatformDb>, engineCode: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`tritium:fn:${engineCode}`}))`.execute(trx);
}
