import { sql } from 'kysely';
import { contracts } from '@tritium/shared';
import { engineOf, getNodeOrThrow, loadAppViews, viewerOf, type NodeContext } from '../function-node/node-context.ts';

// The workbench (calls.md §7 "Schema, views, workbench"): a per-user layout and the user's recent activity.

/** What a user sees before saving a layout of their own. */
export const DEFAULT_WORKBENCH_CONFIG: contracts.WorkbenchConfig = {
  components: [
    { id: 'recent', type: 'recentActivity', visible: true, width: 4 },
    { id: 'todo', type: 'todo', visible: true, width: 2 },
    { id: 'messages', type: 'messages', visible: true, width: 2 },
    { id: 'apps', type: 'appList', visible: true, width: 4 },
  ],
};

export async function getConfig(ctx: NodeContext): Promise<{ config: contracts.WorkbenchConfig; isDefault: boolean }> {
  const row = await engineOf(ctx).selectFrom('workbench_configs').select('config').where('user_id', '=', ctx.userId).executeTakeFirst();
  // A stored layout that no longer fits the contract (an older shape) falls back to the default.
  const parsed = row ? contracts.WorkbenchConfig.safeParse(row.config) : undefined;
  return parsed?.success ? { config: parsed.data, isDefault: false } : { config: DEFAULT_WORKBENCH_CONFIG, isDefault: true };
}

export async function saveConfig(ctx: NodeContext, config: contracts.WorkbenchConfig) {
  const json = JSON.stringify(config);
  await engineOf(ctx)
    .insertInto('workbench_configs')
    .values({ user_id: ctx.userId, config: json, modified_time: new Date() })
    .onConflict((oc) => oc.column('user_id').doUpdateSet({ config: json, modified_time: new Date() }))
    .execute();
  return { config, isDefault: false };
}

/** Records that the caller opened a node they may open (404 otherwise). */
export async function recordVisit(ctx: NodeContext, code: string): Promise<void> {
  const edb = engineOf(ctx);
  const { node } = await getNodeOrThrow(edb, await viewerOf(edb, ctx), code);
  await edb
    .insertInto('workbench_visits')
    .values({ user_id: ctx.userId, node_code: node.code, visit_count: 1, last_visit_time: new Date() })
    .onConflict((oc) => oc.columns(['user_id', 'node_code']).doUpdateSet({ visit_count: sql`workbench_visits.visit_count + 1`, last_visit_time: new Date() }))
    .execute();
}

/** The caller's latest visits, newest first; nodes they may no longer open are left out. */
export async function recentActivity(ctx: NodeContext, limit: number) {
  const edb = engineOf(ctx);
  const visits = await edb
    .selectFrom('workbench_visits')
    .select(['node_code', 'visit_count', 'last_visit_time'])
    .where('user_id', '=', ctx.userId)
    .orderBy('last_visit_time', 'desc')
    .limit(limit * 3)
    .execute();
  if (!visits.length) return [];
  const apps = await edb.selectFrom('function_nodes').select(['code', 'app_code']).where('code', 'in', visits.map((v) => v.node_code)).execute();
  const appOf = new Map(apps.map((a) => [a.code, a.app_code]));
  const views = new Map((await loadAppViews(edb, await viewerOf(edb, ctx), [...new Set(appOf.values())])).map((v) => [v.app.code, v]));
  const out = [];
  for (const v of visits) {
    const view = views.get(appOf.get(v.node_code) ?? '');
    const node = view?.node(v.node_code);
    if (view && node) out.push({ node: view.present(node), lastVisitTime: new Date(v.last_visit_time).toISOString(), visitCount: v.visit_count });
    if (out.length >= limit) break;
  }
  return out;
}
