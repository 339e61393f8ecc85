import type { contracts } from '@tritium/shared';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { ContextCaches, ContextSnapshot } from '../request-context/context.ts';
import { VersionedCache } from '../request-context/versioned-cache.ts';
import { findSource } from './custom-code.repo.ts';

// The scripts' runtime reads a form's or an app's current source here (docs/decisions/0118): on every save of a
// record, so from the request's cache while the engine's 'forms' version holds — every change of custom_codes bumps
// it (the table's trigger) — and a form without a script costs no statement once its absence is cached.

export interface LoadedScript {
  source: string;
  language: contracts.CustomCodeLanguage;
  version: number;
}

/** One cache per app instance (its ContextCaches), so two apps in one process never share entries. */
const caches = new WeakMap<ContextCaches, VersionedCache<LoadedScript | null>>();

function cacheOf(context: ContextSnapshot): VersionedCache<LoadedScript | null> {
  let cache = caches.get(context.caches);
  if (!cache) caches.set(context.caches, (cache = new VersionedCache<LoadedScript | null>()));
  return cache;
}

/**
 * The current source of one part, or null when none was saved (or it is empty). `context`: the request's snapshot
 * (ctx.context of a NodeContext); without it, or once the request changes forms itself, the table is read.
 */
export async function loadScript(
  edb: EngineExecutor,
  owner: { appCode: string; schemaCode: string | null; part: contracts.CustomCodePart },
  context?: ContextSnapshot,
): Promise<LoadedScript | null> {
  const load = async (): Promise<LoadedScript | null> => {
    const row = await findSource(edb, owner);
    if (!row || !row.source.trim()) return null;
    return { source: row.source, language: row.language as contracts.CustomCodeLanguage, version: row.version };
  };
  if (!context || context.changing) return load();
  return cacheOf(context).get(context.engineCode, context.formsVersion, `${owner.appCode}\u0000${owner.schemaCode ?? ''}\u0000${owner.part}`, load);
}
