import type { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError, parameterError } from '../../lib/app-error.ts';
import { canReadRecord } from '../business-data/record-policy.ts';
import { findRecord } from '../business-data/records.repo.ts';
import { getRuntimeFormOrThrow } from '../business-data/runtime-form.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { runScript } from '../script/run-script.ts';
import { administeredOwnerOrThrow } from './custom-code.policy.ts';
import { changedFields, recordFor } from './form-script-hooks.ts';
import { serverScriptOf } from './script-source.ts';
import { runLimitsOf } from './script-limits.ts';

// 试运行 (docs/decisions/0118): one handler of a form's server script — the saved one, or the editor's text — against a
// chosen record (or a new one), in a transaction that is always rolled back: the script's writes are undone, nothing
// is notified or logged, and the answer says what the handler changed, refused or logged. App administrators only.

class RolledBack extends Error {
  constructor(readonly result: contracts.DryRunResult) {
    super('dry run rolled back');
  }
}

const HANDLERS: Record<contracts.DryRunHandler, (actionName?: string) => string> = {
  onLoad: () => 'onLoad',
  onSubmit: () => 'onSubmit',
  action: (name) => `actions.${name}`,
  onListAction: () => 'onListAction',
};

export async function dryRun(ctx: NodeContext, body: contracts.DryRunBody): Promise<contracts.DryRunResult> {
  if (body.handler === 'action' && !(body.actionName && /^[A-Za-z_$][\w$]{0,99}$/.test(body.actionName))) {
    throw parameterError([{ path: 'actionName', message: '试运行动作时须填写动作名称（字母、数字、下划线或 $，不以数字开头）' }]);
  }
  try {
    await ctx.db.transaction().execute(async (trx) => {
      const edb = engineDb(trx as unknown as Db, ctx.engineCode);
      await administeredOwnerOrThrow(edb, ctx, { schemaCode: body.schemaCode });
      const form = await getRuntimeFormOrThrow(edb, ctx, body.schemaCode);
      if (body.objectId) {
        const row = await findRecord(edb, form, body.objectId);
        if (!row || !(await canReadRecord(edb, form, row, ctx.userId))) throw new AppError('BizObjectNotFound', { detail: { objectId: body.objectId } });
      }
      const saved = body.source === undefined ? await serverScriptOf(edb, { ...ctx, context: undefined }, form.node.code) : null;
      const source = body.source ?? saved?.source;
      if (!source?.trim()) throw new AppError('ScriptActionNotFound', { detail: { actionName: body.handler === 'action' ? body.actionName : body.handler } });
      const { record, children } = await recordFor(edb, form, body.objectId, {}, undefined);
      const actionName = body.handler === 'onSubmit' ? (body.actionName ?? 'Submit') : body.actionName;
      const outcome = await runScript({
        edb,
        ctx,
        appCode: form.node.app_code,
        schemaCode: form.node.code,
        part: 'form-server',
        source,
        language: body.language ?? saved?.language ?? 'ts',
        handler: HANDLERS[body.handler](body.actionName),
        input: { actionName, objectId: body.objectId ?? null, isNew: !body.objectId, record, children, params: body.params ?? null, objectIds: body.objectId ? [body.objectId] : [] },
        limits: await runLimitsOf(edb, ctx),
        dryRun: true,
      });
      const changes = Object.fromEntries(Object.entries(changedFields(form, record, outcome.record)).map(([code, after]) => [code, [record[code] ?? null, after]]));
      const named = form.fields.filter((f) => Object.hasOwn(changes, f.code)).map((f) => [f.code, typeof f.options.displayName === 'string' && f.options.displayName ? f.options.displayName : f.code]);
      throw new RolledBack({
        status: outcome.status,
        changes: changes as contracts.DryRunResult['changes'],
        fieldNames: Object.fromEntries(named),
        ...(outcome.refusal !== undefined ? { refusal: outcome.refusal } : {}),
        ...(outcome.error ? { error: outcome.error } : {}),
        logs: outcome.logs,
        durationMs: outcome.durationMs,
        ...(outcome.responded != null || outcome.value != null ? { responded: outcome.value ?? outcome.responded } : {}),
      });
    });
  } catch (error) {
    if (error instanceof RolledBack) return error.result;
    throw error;
  }
  throw new Error('unreachable: a dry run always rolls back');
}
