import type { Db } from '../../db/types.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { InstalledPlugin } from './plugin-instances.ts';

// The methods POST /v2/plugin/invoke dispatches to (docs/decisions/0123). Each provider module registers its own at
// import time (`definePluginMethods('payment', { precreate, … })`); the invoke route checks the plugin is installed,
// the method is one the template offers, and hands over. A method runs outside any transaction (it may call out) and
// opens its own where it writes.

export interface PluginMethodContext {
  db: Db;
  engineCode: string;
  /** The engine's tables, outside a transaction. */
  edb: EngineExecutor;
  user: { userId: string; name: string };
  plugin: InstalledPlugin;
  /** The platform's guarded fetch (lib/outbound-http.ts). */
  http: typeof fetch;
  /** The platform's public address (for callbacks and links), ending in '/'. */
  publicUrl: string;
}

export type PluginMethod = (ctx: PluginMethodContext, params: Record<string, unknown>) => Promise<unknown>;

const registry = new Map<string, Map<string, PluginMethod>>();

export function definePluginMethods(templateCode: string, methods: Record<string, PluginMethod>): void {
  const own = registry.get(templateCode) ?? new Map<string, PluginMethod>();
  for (const [name, method] of Object.entries(methods)) own.set(name, method);
  registry.set(templateCode, own);
}

export function pluginMethod(templateCode: string, name: string): PluginMethod | undefined {
  return registry.get(templateCode)?.get(name);
}
