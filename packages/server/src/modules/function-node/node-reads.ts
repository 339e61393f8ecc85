import * as repo from './function-node.repo.ts';
import type { EngineExecutor, NodeRow } from './function-node.repo.ts';
import type { NodeViewer } from './function-node.policy.ts';
import type { ContextSnapshot, GrantRow } from '../request-context/context.ts';

// Function-node lookups of a request (docs/decisions/0032): from the app's cache while the engine's 'nodes' version
// is the one the request's context statement read. Inside a transaction (a change, which must see its own writes and
// locks) and without a snapshot (jobs, the system's standing) they read the tables as before — but for viewers that
// read forms for a transaction changing none (cachedInTransaction: rules and rollups acting for a form).

export interface NodeReads {
  findNode(code: string): Promise<NodeRow | undefined>;
  listApps(appCodes?: string[]): Promise<NodeRow[]>;
  listNodesByApp(appCodes: string[] | 'all'): Promise<Map<string, NodeRow[]>>;
  grantsOf(unitIds: string[]): Promise<GrantRow[]>;
}

const direct = (edb: EngineExecutor): NodeReads => ({
  findNode: (code) => repo.findNode(edb, code),
  listApps: (appCodes) => repo.listApps(edb, appCodes),
  listNodesByApp: (appCodes) => repo.listNodesByApp(edb, appCodes),
  grantsOf: (unitIds) => repo.grantsOf(edb, unitIds),
});

const byOrder = (a: NodeRow, b: NodeRow) => a.sort_key - b.sort_key || (a.code < b.code ? -1 : a.code > b.code ? 1 : 0);

function cached(edb: EngineExecutor, snapshot: ContextSnapshot): NodeReads {
  const cache = snapshot.caches.nodes;
  const { engineCode, nodesVersion: version } = snapshot;
  return {
    findNode: async (code) => (await cache.get(engineCode, version, `node:${code}`, () => repo.findNode(edb, code))) as NodeRow | undefined,
    async listApps(appCodes) {
      if (!appCodes) return repo.listApps(edb);
      const keys = [...new Set(appCodes)].map((c) => `app:${c}`);
      const found = await cache.getMany(engineCode, version, keys, async (missing) => {
        const rows = await repo.listApps(edb, missing.map((k) => k.slice(4)));
        const byCode = new Map(rows.map((r) => [`app:${r.code}`, r]));
        return new Map(missing.map((k) => [k, byCode.get(k)]));
      });
      return ([...found.values()].filter(Boolean) as NodeRow[]).sort(byOrder);
    },
    async listNodesByApp(appCodes) {
      if (appCodes === 'all') return repo.listNodesByApp(edb, 'all');
      const keys = [...new Set(appCodes)].map((c) => `nodes:${c}`);
      const found = await cache.getMany(engineCode, version, keys, async (missing) => {
        const rows = await repo.listNodesByApp(edb, missing.map((k) => k.slice(6)));
        return new Map(missing.map((k) => [k, rows.get(k.slice(6)) ?? []]));
      });
      const byApp = new Map<string, NodeRow[]>();
      for (const [key, nodes] of found) if ((nodes as NodeRow[]).length) byApp.set(key.slice(6), nodes as NodeRow[]);
      return byApp;
    },
    grantsOf: async (unitIds) =>
      (await cache.get(engineCode, version, `grants:${[...unitIds].sort().join(',')}`, () => repo.grantsOf(edb, unitIds))) as GrantRow[],
  };
}

/** The node reads for this viewer and executor. */
export function nodeReads(edb: EngineExecutor, viewer: NodeViewer): NodeReads {
  const snapshot = viewer.context;
  return snapshot && !snapshot.changing && (!edb.isTransaction || viewer.cachedInTransaction) ? cached(edb, snapshot) : direct(edb);
}
