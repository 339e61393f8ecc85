import { sql, type Kysely } from 'kysely';
import type { EngineDb, FunctionNodeTable } from '../../db/types.ts';
import { FunctionNodeType } from '@tritium/shared/constants/function-node';
import type { Permission } from './function-node.policy.ts';

/** Queries of one engine schema: engineDb(db or transaction, engineCode). */
export type EngineExecutor = Kysely<EngineDb>;

export type NodeRow = Pick<
  FunctionNodeTable,
  'code' | 'object_id' | 'parent_code' | 'app_code' | 'display_name' | 'url' | 'node_type'
> & { icon: string; icon_color: string; summary: string; app_state: string; source: string; state: string; sort_key: number };

const nodeColumns = ['code', 'object_id', 'parent_code', 'app_code', 'display_name', 'icon', 'icon_color', 'node_type', 'summary', 'app_state', 'source', 'state', 'sort_key', 'url'] as const;

/** Published nodes only: rows a copy job is still writing carry its id and stay invisible. */
const published = (edb: EngineExecutor) => edb.selectFrom('function_nodes').select(nodeColumns).where('copy_job_id', 'is', null);

export async function findNode(edb: EngineExecutor, code: string): Promise<NodeRow | undefined> {
  return published(edb).where('code', '=', code).executeTakeFirst();
}

/** Codes are unique in the engine regardless of case, copies in progress included. */
export async function codeTaken(edb: EngineExecutor, code: string): Promise<boolean> {
  const row = await edb.selectFrom('function_nodes').select('code').where(sql`lower(code)`, '=', code.toLowerCase()).executeTakeFirst();
  return !!row;
}

/** The app packages, in the engine's order. */
export async function listApps(edb: EngineExecutor, appCodes?: string[]): Promise<NodeRow[]> {
  if (appCodes && !appCodes.length) return [];
  let q = published(edb).where('node_type', '=', FunctionNodeType.AppPackage);
  if (appCodes) q = q.where('code', 'in', appCodes);
  return q.orderBy('sort_key').orderBy('code').execute();
}

/** Every node inside the given apps (the packages excluded), parents' order by sort key. */
export async function listNodesOfApps(edb: EngineExecutor, appCodes: string[] | 'all'): Promise<NodeRow[]> {
  if (appCodes !== 'all' && !appCodes.length) return [];
  let q = published(edb).where('node_type', '<>', FunctionNodeType.AppPackage);
  if (appCodes !== 'all') q = q.where('app_code', 'in', appCodes);
  return q.orderBy('app_code').orderBy('parent_code').orderBy('sort_key').orderBy('code').execute();
}

/** The ids of the roles a user holds. */
export async function roleIdsOf(edb: EngineExecutor, userId: string): Promise<string[]> {
  const rows = await edb.selectFrom('org_role_members').select('role_id').where('user_id', '=', userId).execute();
  return rows.map((r) => r.role_id);
}

/** The grants naming any of the units, with the app each granted node belongs to. */
export async function grantsOf(edb: EngineExecutor, unitIds: string[]): Promise<{ node_code: string; app_code: string; permission: Permission }[]> {
  if (!unitIds.length) return [];
  const rows = await edb
    .selectFrom('node_permissions as p')
    .innerJoin('function_nodes as n', 'n.code', 'p.node_code')
    .select(['p.node_code', 'n.app_code', 'p.permission'])
    .where('p.unit_id', 'in', unitIds)
    .where('p.permission', '<>', 'none')
    .where('n.copy_job_id', 'is', null)
    .execute();
  return rows as { node_code: string; app_code: string; permission: Permission }[];
}

export async function nextSortKey(edb: EngineExecutor, parentCode: string | null): Promise<number> {
  const q = edb.selectFrom('function_nodes').select(sql<number>`coalesce(max(sort_key), -1) + 1`.as('k'));
  const row = await (parentCode === null ? q.where('parent_code', 'is', null) : q.where('parent_code', '=', parentCode)).executeTakeFirstOrThrow();
  return Number(row.k);
}

/** Gives the codes sort keys 0, 1, 2… in the order given. */
export async function renumber(edb: EngineExecutor, codes: string[]): Promise<void> {
  if (!codes.length) return;
  const cases = sql.join(codes.map((code, i) => sql`when ${code} then ${i}::int`), sql` `);
  await edb.updateTable('function_nodes').set({ sort_key: sql<number>`case code ${cases} end` }).where('code', 'in', codes).execute();
}

/** The published children of a parent (apps: parentCode null), in order. */
export async function siblingsOf(edb: EngineExecutor, parentCode: string | null): Promise<NodeRow[]> {
  const q = published(edb);
  return (parentCode === null ? q.where('parent_code', 'is', null) : q.where('parent_code', '=', parentCode)).orderBy('sort_key').orderBy('code').execute();
}
