import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { VersionedCache } from '../request-context/versioned-cache.ts';
import type { ContextCaches } from '../request-context/context.ts';
import type { ScriptLanguage } from '../script/compile.ts';

// A form's server script found by the form's code alone (codes are unique in an engine): the workflow's actions know
// the form's code before they load the form, and a form without a script must cost no statement once that is cached
// (the 'forms' version: custom_codes' trigger bumps it on every save, docs/decisions/0118).

export interface ServerScript {
  appCode: string;
  source: string;
  language: ScriptLanguage;
  version: number;
}

const caches = new WeakMap<ContextCaches, VersionedCache<ServerScript | null>>();

async function read(edb: EngineExecutor, schemaCode: string): Promise<ServerScript | null> {
  const row = await edb.selectFrom('custom_codes').select(['app_code', 'source', 'language', 'version']).where('schema_code', '=', schemaCode).where('part', '=', 'form-server').executeTakeFirst();
  if (!row || !row.source.trim()) return null;
  return { appCode: row.app_code, source: row.source, language: row.language as ScriptLanguage, version: row.version };
}

/** The form's current server script, or null; from the request's cache while the engine's forms version holds. */
export async function serverScriptOf(edb: EngineExecutor, ctx: NodeContext, schemaCode: string): Promise<ServerScript | null> {
  const context = ctx.context;
  if (!context || context.changing) return read(edb, schemaCode);
  let cache = caches.get(context.caches);
  if (!cache) caches.set(context.caches, (cache = new VersionedCache<ServerScript | null>()));
  return cache.get(context.engineCode, context.formsVersion, schemaCode, () => read(edb, schemaCode));
}

/** An app's custom APIs (its app-api part), or null. */
export async function appScriptOf(edb: EngineExecutor, appCode: string): Promise<ServerScript | null> {
  const row = await edb.selectFrom('custom_codes').select(['app_code', 'source', 'language', 'version']).where('app_code', '=', appCode).where('schema_code', 'is', null).where('part', '=', 'app-api').executeTakeFirst();
  if (!row || !row.source.trim()) return null;
  return { appCode: row.app_code, source: row.source, language: row.language as ScriptLanguage, version: row.version };
}
