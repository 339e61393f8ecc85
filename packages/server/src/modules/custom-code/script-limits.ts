import { contracts } from '@tritium/shared';
import { AppError } from '../../lib/app-error.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { isAdministrator } from '../function-node/function-node.policy.ts';
import { viewerOf, type NodeContext } from '../function-node/node-context.ts';
import { VersionedCache } from '../request-context/versioned-cache.ts';
import type { ContextCaches } from '../request-context/context.ts';
import { recordOperation } from '../audit/oplog.ts';
import { assertMayCheck } from './custom-code.policy.ts';

// The engine's limits of a script run (docs/decisions/0118): CPU time and memory, set by the engine's Administrators
// within the platform's bounds (the contract checks them); without a row, the platform's defaults. Read on every run
// from the request context's cache (the table's trigger bumps the engine's 'forms' version).

const { cpuMs, memoryMb } = contracts.SCRIPT_LIMIT_BOUNDS;
const DEFAULTS = { cpuMs: cpuMs.default, memoryMb: memoryMb.default };
const caches = new WeakMap<ContextCaches, VersionedCache<contracts.ScriptLimits & { custom: boolean }>>();

async function read(edb: EngineExecutor): Promise<contracts.ScriptLimits & { custom: boolean }> {
  const row = await edb.selectFrom('script_limits').select(['cpu_ms', 'memory_mb']).executeTakeFirst();
  return row ? { cpuMs: row.cpu_ms, memoryMb: row.memory_mb, custom: true } : { ...DEFAULTS, custom: false };
}

async function limitsOf(edb: EngineExecutor, ctx: NodeContext): Promise<contracts.ScriptLimits & { custom: boolean }> {
  const context = ctx.context;
  if (!context || context.changing) return read(edb);
  let cache = caches.get(context.caches);
  if (!cache) caches.set(context.caches, (cache = new VersionedCache()));
  return cache.get(context.engineCode, context.formsVersion, 'limits', () => read(edb));
}

/** The limits a run of this engine gets, in the sandbox's units. */
export async function runLimitsOf(edb: EngineExecutor, ctx: NodeContext): Promise<{ cpuMs: number; memoryBytes: number }> {
  const limits = await limitsOf(edb, ctx);
  return { cpuMs: limits.cpuMs, memoryBytes: limits.memoryMb * 1024 * 1024 };
}

/** The limits as the code editor shows them: to whoever may write code. */
export async function readScriptLimits(edb: EngineExecutor, ctx: NodeContext): Promise<contracts.ScriptLimitsResult> {
  await assertMayCheck(edb, ctx, {});
  const limits = await read(edb);
  return { ...limits, canEdit: isAdministrator(await viewerOf(edb, ctx)) };
}

/** Sets the engine's limits (Administrators), written to the operation log. */
export async function saveScriptLimits(edb: EngineExecutor, ctx: NodeContext, body: contracts.ScriptLimits): Promise<contracts.ScriptLimitsResult> {
  if (!isAdministrator(await viewerOf(edb, ctx))) throw new AppError('FunctionNodeForbidden', { detail: { setting: 'scriptLimits' } });
  const before = await read(edb);
  await edb
    .insertInto('script_limits')
    .values({ id: 1, cpu_ms: body.cpuMs, memory_mb: body.memoryMb, updated_by: ctx.userId })
    .onConflict((oc) => oc.column('id').doUpdateSet({ cpu_ms: body.cpuMs, memory_mb: body.memoryMb, updated_by: ctx.userId, updated_at: new Date().toISOString() }))
    .execute();
  await recordOperation(edb, ctx, { kind: 'engineSetting', action: 'update', objectId: 'scriptLimits', objectName: '脚本运行限制', before: { cpuMs: before.cpuMs, memoryMb: before.memoryMb }, after: body });
  return { ...body, custom: true, canEdit: true };
}
