import { PGliteAdapter, sql, type Kysely } from 'kysely';
import type { EngineDb, NodeRow } from '../../db/types.ts';
import { DEFAULT_SCHEMA_NODE_TYPES, FunctionNodeType } from '@tritium/shared/constants/function-node';
import type { FunctionNodeAuthorization as Permission } from '@tritium/shared/constants/org';
import { hiddenRowsJob } from './install-scope.ts';

/** Queries of one engine schema: engineDb(db or transaction, engineCode). */
export type EngineExecutor = Kysely<EngineDb>;

// The row type lives in db/types.ts so the request context's cache (below this module) can name it.
export type { NodeRow };

const nodeColumns = ['code', 'object_id', 'parent_code', 'app_code', 'display_name', 'icon', 'icon_color', 'node_type', 'summary', 'app_state', 'source', 'state', 'sort_key', 'url'] as const;

/** Published nodes only: rows a copy job is still writing carry its id and stay invisible. */
const published = (edb: EngineExecutor) => {
  const q = edb.selectFrom('function_nodes').select(nodeColumns);
  // An app package's install sees its own hidden rows (install-scope.ts); nobody else does.
  const job = hiddenRowsJob();
  return job === undefined ? q.where('copy_job_id', 'is', null) : q.where((eb) => eb.or([eb('copy_job_id', 'is', null), eb('copy_job_id', '=', job)]));
};

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

/**
 * Every node inside the given apps (the packages excluded), by app code, in no particular order (AppView orders
 * siblings itself). Two forms of the same answer: PGlite decodes every field of a result in JavaScript (10,000
 * nodes of 14 columns: about 155 ms as rows), so there each app's nodes come as one JSON array of value arrays
 * (about 40 ms); PostgreSQL builds that JSON slower than it sends the rows (about 15 ms more server time for the
 * same nodes), so it sends rows. The columns are text and integers: the JSON values are the row values.
 * docs/performance.md "Apps and function nodes".
 */
export async function listNodesByApp(edb: EngineExecutor, appCodes: string[] | 'all', form?: 'rows' | 'json'): Promise<Map<string, NodeRow[]>> {
  const byApp = new Map<string, NodeRow[]>();
  if (appCodes !== 'all' && !appCodes.length) return byApp;
  let nodes = published(edb).where('node_type', '<>', FunctionNodeType.AppPackage);
  if (appCodes !== 'all') nodes = nodes.where('app_code', 'in', appCodes);
  if ((form ?? (edb.getExecutor().adapter instanceof PGliteAdapter ? 'json' : 'rows')) === 'json') {
    const values = sql.join(nodeColumns.map((c) => sql.ref(`n.${c}`)));
    const rows = await edb
      .selectFrom(nodes.as('n'))
      .select(['n.app_code', sql<unknown[][]>`json_agg(json_build_array(${values}))`.as('nodes')])
      .groupBy('n.app_code')
      .execute();
    for (const r of rows) byApp.set(r.app_code, r.nodes.map(nodeRowOf));
    return byApp;
  }
  for (const n of await nodes.execute()) {
    const list = byApp.get(n.app_code);
    if (list) list.push(n);
    else byApp.set(n.app_code, [n]);
  }
  return byApp;
}

function nodeRowOf(values: unknown[]): NodeRow {
  const row: Record<string, unknown> = {};
  for (let i = 0; i < nodeColumns.length; i++) row[nodeColumns[i]] = values[i];
  return row as NodeRow;
}

/** A node that may decide its app's default schema; see defaultSchemaCandidates. */
export interface DefaultSchemaCandidate {
  app_code: string;
  code: string;
  node_type: number;
  sort_key: number;
  /** For a group: an eligible child (the group's first by sort key; several when their sort keys tie). */
  child_code: string | null;
  child_sort_key: number | null;
}

/**
 * domain.md §4 for viewers who see every node of the apps, without reading the apps' nodes: per app, among its
 * Normal children (by sort key), the first that is an eligible module or a group holding a Normal eligible module,
 * with that group's first such module. Ties of sort keys come back whole (FETCH … WITH TIES) so that the caller
 * breaks them as AppView does (defaultSchemaCodes in app-view.ts). Walks the (app_code, parent_code, sort_key)
 * index: a few rows per app. Apps without an eligible node have no row. A node whose parent is not in its app
 * (no call writes one) is not looked at; AppView would place it at the app's root.
 */
export async function defaultSchemaCandidates(edb: EngineExecutor, appCodes: string[] | 'all'): Promise<DefaultSchemaCandidate[]> {
  if (appCodes !== 'all' && !appCodes.length) return [];
  const eligible = [...DEFAULT_SCHEMA_NODE_TYPES];
  let q = edb
    .selectFrom('function_nodes as a')
    .innerJoinLateral(
      (eb) =>
        eb
          .selectFrom('function_nodes as t')
          .leftJoinLateral(
            (eb2) =>
              eb2
                .selectFrom('function_nodes as c')
                .select(['c.code', 'c.sort_key'])
                .where('t.node_type', '=', FunctionNodeType.GroupModule)
                .whereRef('c.app_code', '=', 't.app_code')
                .whereRef('c.parent_code', '=', 't.code')
                .where('c.copy_job_id', 'is', null)
                .where('c.state', '<>', 'Disabled')
                .where('c.node_type', 'in', eligible)
                .orderBy('c.sort_key')
                .fetch(1, 'with ties')
                .as('c'),
            (join) => join.onTrue(),
          )
          .select(['t.code', 't.node_type', 't.sort_key', 'c.code as child_code', 'c.sort_key as child_sort_key'])
          .whereRef('t.app_code', '=', 'a.code')
          .whereRef('t.parent_code', '=', 'a.code')
          .where('t.copy_job_id', 'is', null)
          .where('t.state', '<>', 'Disabled')
          .where((w) => w.or([w('t.node_type', 'in', eligible), w('c.code', 'is not', null)]))
          .orderBy('t.sort_key')
          .fetch(1, 'with ties')
          .as('pick'),
      (join) => join.onTrue(),
    )
    .select(['a.code as app_code', 'pick.code', 'pick.node_type', 'pick.sort_key', 'pick.child_code', 'pick.child_sort_key'])
    .where('a.node_type', '=', FunctionNodeType.AppPackage)
    .where('a.copy_job_id', 'is', null);
  if (appCodes !== 'all') q = q.where('a.code', 'in', appCodes);
  return q.execute();
}

/** The ids of the roles a user holds. */
/**
 * The org units a user acts through besides themself: their roles, and their departments with every department above
 * (a grant to a department covers those below it) — what the context statement reads, for a caller without one.
 */
export async function roleIdsOf(edb: EngineExecutor, userId: string): Promise<string[]> {
  const db = edb as unknown as Kysely<any>;
  const rows = await db
    .withRecursive('up(id)', (q) =>
      q.selectFrom('org_user_departments').select('department_id as id').where('user_id', '=', userId)
        .union((u) => u.selectFrom('org_units as o').innerJoin('up', 'up.id', 'o.id').select('o.parent_id as id').where('o.parent_id', 'is not', null)),
    )
    .selectFrom('org_role_members')
    .select('role_id as id')
    .where('user_id', '=', userId)
    .union((u) => u.selectFrom('up').select('id'))
    .execute();
  return rows.map((r) => String(r.id));
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
    .where((eb) => {
      const job = hiddenRowsJob();
      return job === undefined ? eb('n.copy_job_id', 'is', null) : eb.or([eb('n.copy_job_id', 'is', null), eb('n.copy_job_id', '=', job)]);
    })
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
