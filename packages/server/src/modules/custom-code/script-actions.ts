import type { contracts } from '@tritium/shared';
import type { Db } from '../../db/types.ts';
import { engineDb } from '../../db/database.ts';
import { AppError } from '../../lib/app-error.ts';
import { canReadRecord } from '../business-data/record-policy.ts';
import { findRecord, findRecordsByIds } from '../business-data/records.repo.ts';
import { deleteStoredBytes, type RecordFilesDeps } from '../business-data/record-files.ts';
import { getRuntimeFormOrThrow } from '../business-data/runtime-form.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import { getAppViewOrThrow, viewerOf, type NodeContext } from '../function-node/node-context.ts';
import { assertScriptOk, runScript, type ScriptOutcome } from '../script/run-script.ts';
import { changedChildren, changedFields, recordFor, runFormHandler } from './form-script-hooks.ts';
import { appScriptOf, serverScriptOf } from './script-source.ts';
import { runLimitsOf } from './script-limits.ts';

// The actions of scripts the browser calls (docs/decisions/0118). A form's button runs `actions[name]` of the form's
// server script — or, without one, `onSubmit` with the button's name — for anyone who may open the form (and read the
// record named); the record's changes go back to the form unsaved, the script's own writes commit. An app's custom
// API runs `actions[name]` of the app's script for anyone who sees the app. Both run with the caller's rights.

/** Runs `work` in one engine transaction; the stored files the script's writes dropped go after the commit. */
async function inTransaction<T>(ctx: NodeContext, files: RecordFilesDeps, work: (edb: EngineExecutor, dropped: string[]) => Promise<T>): Promise<T> {
  const dropped: string[] = [];
  const result = await ctx.db.transaction().execute((trx) => work(engineDb(trx as unknown as Db, ctx.engineCode), dropped));
  await deleteStoredBytes(files, dropped);
  return result;
}

const answerOf = (outcome: ScriptOutcome): unknown => (outcome.value !== undefined && outcome.value !== null ? outcome.value : (outcome.responded ?? null));

export function runFormAction(ctx: NodeContext, body: contracts.FormActionBody, files: RecordFilesDeps): Promise<contracts.FormActionResult> {
  return inTransaction(ctx, files, async (edb, dropped) => {
    const form = await getRuntimeFormOrThrow(edb, ctx, body.schemaCode);
    if (body.objectId) {
      const row = await findRecord(edb, form, body.objectId);
      if (!row || !(await canReadRecord(edb, form, row, ctx.userId))) throw new AppError('BizObjectNotFound', { detail: { objectId: body.objectId } });
    }
    const script = await serverScriptOf(edb, ctx, form.node.code);
    if (!script) throw new AppError('ScriptActionNotFound', { detail: { actionName: body.actionName } });
    const { record, children } = await recordFor(edb, form, body.objectId, body.values ?? {}, body.children);
    const input = { actionName: body.actionName, objectId: body.objectId ?? null, isNew: !body.objectId, record, children, params: body.params ?? null };
    let outcome = await runFormHandler(edb, ctx, form, script, `actions.${body.actionName}`, input);
    if (!outcome.handled) outcome = await runFormHandler(edb, ctx, form, script, 'onSubmit', input);
    dropped.push(...outcome.dropped);
    const rows = changedChildren(form, children, outcome.children);
    const data = answerOf(outcome);
    return { values: { ...changedFields(form, record, outcome.record), ...rows }, ...(data !== null ? { data } : {}) };
  });
}

/**
 * A list button (docs/decisions/0118): the form's `onListAction` with the action's name and the records chosen, for
 * whoever may open the form; every record named must be one the caller may read.
 */
export function runListAction(ctx: NodeContext, body: contracts.ListActionBody, files: RecordFilesDeps): Promise<contracts.ListActionResult> {
  return inTransaction(ctx, files, async (edb, dropped) => {
    const form = await getRuntimeFormOrThrow(edb, ctx, body.schemaCode);
    const ids = [...new Set(body.objectIds)];
    const rows = await findRecordsByIds(edb, form, ids);
    const readable = new Set<string>();
    for (const row of rows) if (await canReadRecord(edb, form, row, ctx.userId)) readable.add(String(row.ObjectId));
    const missing = ids.find((id) => !readable.has(id));
    if (missing) throw new AppError('BizObjectNotFound', { detail: { objectId: missing } });
    const script = await serverScriptOf(edb, ctx, form.node.code);
    if (!script) throw new AppError('ScriptActionNotFound', { detail: { actionName: body.actionName } });
    const outcome = await runFormHandler(edb, ctx, form, script, 'onListAction', { actionName: body.actionName, objectIds: ids });
    if (!outcome.handled) throw new AppError('ScriptActionNotFound', { detail: { actionName: body.actionName } });
    dropped.push(...outcome.dropped);
    const data = answerOf(outcome);
    return data !== null ? { data } : {};
  });
}

/** An app's custom API by name; undefined when the app has no script or the script no such action. */
export async function runAppAction(edb: EngineExecutor, ctx: NodeContext, appCode: string, actionName: string, params: unknown, dropped: string[]): Promise<{ data: unknown } | undefined> {
  const script = await appScriptOf(edb, appCode);
  if (!script) return undefined;
  const outcome = await runScript({ edb, ctx, appCode, schemaCode: null, part: 'app-api', source: script.source, language: script.language, handler: `actions.${actionName}`, input: { actionName, params: params ?? null }, limits: await runLimitsOf(edb, ctx) });
  void outcome.logsWritten;
  if (!outcome.handled && outcome.status === 'ok') return undefined;
  assertScriptOk(outcome);
  dropped.push(...outcome.dropped);
  return { data: answerOf(outcome) };
}

export function invokeAppAction(ctx: NodeContext, body: contracts.AppInvokeBody, files: RecordFilesDeps): Promise<contracts.AppInvokeResult> {
  return inTransaction(ctx, files, async (edb, dropped) => {
    await getAppViewOrThrow(edb, await viewerOf(edb, ctx), body.appCode);
    const answered = await runAppAction(edb, ctx, body.appCode, body.actionName, body.params, dropped);
    if (!answered) throw new AppError('ScriptActionNotFound', { detail: { actionName: body.actionName } });
    return answered;
  });
}
