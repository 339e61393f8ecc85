import { sql, type Transaction } from 'kysely';
import type { FastifyRequest } from 'fastify';
import type { contracts } from '@tritium/shared';
import type { Db, PlatformDb } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { actorOf } from '../../plugins/auth.ts';
import { AppView, defaultSchemaCodes, presentWholeApp, wholeAppPermission, type GrantMap } from './app-view.ts';
import { defaultSchemaCandidates, roleIdsOf, type EngineExecutor, type NodeRow } from './function-node.repo.ts';
import { markChanging, type ContextSnapshot } from '../request-context/context.ts';
import { nodeReads } from './node-reads.ts';
import { isAdministrator, strongest, type NodeViewer, type Permission } from './function-node.policy.ts';
import { originOf, type RequestOrigin } from '../audit/oplog.ts';

/** Who acts in which engine: every function-node service call starts from it. */
export interface NodeContext {
  db: Db;
  engineCode: string;
  userId: string;
  authType: number;
  /** The roles and cache versions the request's context statement read (docs/decisions/0032). */
  context?: ContextSnapshot;
  /** The request the call comes from, for the operation log (docs/decisions/0113). */
  origin?: RequestOrigin;
}

export function nodeContextOf(request: FastifyRequest, db: Db): NodeContext {
  const actor = actorOf(request);
  return { db, engineCode: actor.engine!.engine_code, userId: actor.userId!, authType: actor.authType!, context: actor.context, origin: originOf(request) };
}

export const engineOf = (ctx: Pick<NodeContext, 'db' | 'engineCode'>): EngineExecutor => engineDb(ctx.db, ctx.engineCode);

/** Runs `work` in one transaction of the engine; inside, only its executor is used (docs/decisions/0001). */
export function inEngineTransaction<T>(ctx: Pick<NodeContext, 'db' | 'engineCode'>, work: (edb: EngineExecutor) => Promise<T>): Promise<T> {
  return ctx.db.transaction().execute((trx) => work(engineDb(trx as unknown as Db, ctx.engineCode)));
}

export async function viewerOf(edb: EngineExecutor, ctx: Pick<NodeContext, 'userId' | 'authType' | 'context'>): Promise<NodeViewer> {
  // The request's snapshot holds this user's roles; a context made for someone else (spread with another userId)
  // reads theirs.
  const known = ctx.context;
  if (known && known.userId === ctx.userId && known.authType === ctx.authType) {
    return { userId: ctx.userId, authType: ctx.authType, unitIds: [ctx.userId, ...known.roleIds], context: known };
  }
  return { userId: ctx.userId, authType: ctx.authType, unitIds: [ctx.userId, ...(await roleIdsOf(edb, ctx.userId))] };
}

/** Whose grants count and which apps to read: every app for Administrators, otherwise the apps the grants name. */
async function scopeOf(edb: EngineExecutor, viewer: NodeViewer, onlyApps?: string[]): Promise<{ grants: GrantMap; appCodes: string[] | undefined }> {
  const grants: GrantMap = new Map();
  if (isAdministrator(viewer)) return { grants, appCodes: onlyApps };
  const rows = await nodeReads(edb, viewer).grantsOf(viewer.unitIds);
  const granted = new Set<string>();
  for (const g of rows) {
    grants.set(g.node_code, strongest(grants.get(g.node_code) ?? 'none', g.permission));
    granted.add(g.app_code);
  }
  return { grants, appCodes: (onlyApps ?? [...granted]).filter((c) => granted.has(c)) };
}

/** The views of the given apps (read with their nodes), the invisible ones left out. */
async function viewsOf(edb: EngineExecutor, viewer: NodeViewer, grants: GrantMap, apps: NodeRow[], appCodes: string[] | 'all'): Promise<AppView[]> {
  if (!apps.length) return [];
  const nodes = await nodeReads(edb, viewer).listNodesByApp(appCodes);
  return apps.map((app) => new AppView(app, nodes.get(app.code) ?? [], viewer, grants)).filter((v) => v.isVisible);
}

/**
 * The apps a viewer may open, as views. Administrators read every app; others only the apps in which they (or a
 * role of theirs) hold a grant, so an engine of 200 apps costs a member only the apps shared with them.
 */
export async function loadAppViews(edb: EngineExecutor, viewer: NodeViewer, onlyApps?: string[]): Promise<AppView[]> {
  const { grants, appCodes } = await scopeOf(edb, viewer, onlyApps);
  return viewsOf(edb, viewer, grants, await nodeReads(edb, viewer).listApps(appCodes), appCodes ?? 'all');
}

/**
 * The app list without children (the same answer as the views' presentApp(false)). An app the viewer sees whole
 * (Administrators: every app; others: a grant of at least access on the app) needs no node read: its default
 * schema comes from SQL. Apps shown only through grants inside them (few) are read as views.
 */
export async function loadAppSummaries(edb: EngineExecutor, viewer: NodeViewer): Promise<contracts.AppDto[]> {
  const { grants, appCodes } = await scopeOf(edb, viewer);
  const apps = await nodeReads(edb, viewer).listApps(appCodes);
  const whole = new Map<string, Permission>();
  const partial: NodeRow[] = [];
  for (const app of apps) {
    const permission = wholeAppPermission(viewer, grants, app.code);
    if (permission) whole.set(app.code, permission);
    else partial.push(app);
  }
  // Administrators (no app list of their own) see every app whole.
  const defaults = whole.size ? defaultSchemaCodes(await defaultSchemaCandidates(edb, appCodes ? [...whole.keys()] : 'all')) : new Map<string, string>();
  const views = new Map((await viewsOf(edb, viewer, grants, partial, partial.map((a) => a.code))).map((v) => [v.app.code, v]));
  return apps.flatMap((app) => {
    const permission = whole.get(app.code);
    if (permission) return [presentWholeApp(app, viewer, permission, defaults.get(app.code) ?? null)];
    const view = views.get(app.code);
    return view ? [view.presentApp(false)] : [];
  });
}

/** The view of one app the viewer may open; otherwise 404 (an app one may not open does not exist for them). */
export async function getAppViewOrThrow(edb: EngineExecutor, viewer: NodeViewer, appCode: string): Promise<AppView> {
  const [view] = await loadAppViews(edb, viewer, [appCode]);
  if (!view) throw new AppError('FunctionNodeNotFound', { detail: { code: appCode } });
  return view;
}

/** A node the viewer may open, with the view of its app; otherwise 404. */
export async function getNodeOrThrow(edb: EngineExecutor, viewer: NodeViewer, code: string): Promise<{ view: AppView; node: NodeRow }> {
  const row = await nodeReads(edb, viewer).findNode(code);
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
  markChanging(ctx.context);
  return ctx.db.transaction().execute(async (trx) => {
    await lockFunctionNodes(trx, ctx.engineCode);
    const edb = engineDb(trx as unknown as Db, ctx.engineCode);
    return work({ trx, edb, viewer: await viewerOf(edb, ctx) });
  });
}

export async function lockFunctionNodes(trx: Transaction<PlatformDb>, engineCode: string): Promise<void> {
  await sql`select pg_advisory_xact_lock(hashtext(${`tritium:fn:${engineCode}`}))`.execute(trx);
}
