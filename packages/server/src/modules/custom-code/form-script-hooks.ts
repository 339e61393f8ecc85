import { setFormScripts, type SubmitOutcome } from '../business-data/form-scripts-port.ts';
import { findRecord, childRowsOf } from '../business-data/records.repo.ts';
import { presentChildRow, presentValues } from '../business-data/record.presenter.ts';
import type { RuntimeForm } from '../business-data/runtime-form.ts';
import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { assertScriptOk, runScript, type ScriptInput, type ScriptOutcome } from '../script/run-script.ts';
import { serverScriptOf, type ServerScript } from './script-source.ts';
import { runLimitsOf } from './script-limits.ts';

// The form runtime's scripts (docs/decisions/0118): the business-data port (form-scripts-port.ts) runs a form's
// `onLoad` and `onSubmit` through the sandbox. What a handler changes in ctx.record is kept only for the form's own
// fields; system fields and unknown codes are ignored.

type Row = Record<string, unknown>;
type Children = Record<string, Row[]>;

const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** The form's fields the handler changed: code → new value. */
export function changedFields(form: RuntimeForm, before: Row, after: Row): Row {
  const out: Row = {};
  for (const field of form.fields) if (Object.hasOwn(after, field.code) && !same(before[field.code], after[field.code])) out[field.code] = after[field.code];
  return out;
}

/** The sub-tables the handler changed: code → its rows. */
export function changedChildren(form: RuntimeForm, before: Children, after: Children): Children | undefined {
  const out: Children = {};
  for (const grid of form.grids) if (Array.isArray(after[grid.code]) && !same(before[grid.code] ?? [], after[grid.code])) out[grid.code] = after[grid.code]!;
  return Object.keys(out).length ? out : undefined;
}

/** The record a handler sees: the stored values with the caller's over them, and the sub-tables. */
export async function recordFor(edb: EngineExecutor, form: RuntimeForm, objectId: string | undefined, values: Row, children?: Children): Promise<{ record: Row; children: Children }> {
  const stored = objectId ? await findRecord(edb, form, objectId) : undefined;
  const record = { ...(stored ? presentValues(form.fields, stored) : {}), ...values };
  const rows: Children = { ...children };
  if (stored) for (const grid of form.grids) if (!rows[grid.code]) rows[grid.code] = (await childRowsOf(edb, grid, [objectId!])).map((r) => presentChildRow(grid, r));
  return { record, children: rows };
}

/**
 * Whether the source names the handler at all: a form whose script has no onLoad (most have none) runs no sandbox
 * and writes no log line on every read. A mention that is not an export only costs a run that finds nothing.
 */
export const mentions = (script: ServerScript, handler: string): boolean => new RegExp(`\\b${handler}\\b`).test(script.source);

/** One run of a form's handler, its failure thrown as the catalogue's error (the caller's transaction rolls back). */
export async function runFormHandler(edb: EngineExecutor, ctx: NodeContext, form: RuntimeForm, script: ServerScript, handler: string, input: ScriptInput): Promise<ScriptOutcome> {
  const outcome = await runScript({ edb, ctx, appCode: script.appCode, schemaCode: form.node.code, part: 'form-server', source: script.source, language: script.language, handler, input, limits: await runLimitsOf(edb, ctx) });
  // The log is written beside the transaction; awaiting it here would wait for the transaction itself (PGlite).
  void outcome.logsWritten;
  assertScriptOk(outcome);
  return outcome;
}

export function registerFormScripts(): void {
  setFormScripts({
    hasServerScript: async (edb, ctx, schemaCode) => (await serverScriptOf(edb, ctx, schemaCode)) !== null,
    async onLoad(edb, ctx, form, loaded) {
      const script = await serverScriptOf(edb, ctx, form.node.code);
      if (!script || !mentions(script, 'onLoad')) return loaded;
      const input = { isNew: loaded.isNew, objectId: loaded.objectId ?? null, record: { ...loaded.values }, children: loaded.children };
      const outcome = await runFormHandler(edb, ctx, form, script, 'onLoad', input);
      // Only what the form answers changes: fields the caller sees (loaded.values holds exactly those).
      const changes = Object.fromEntries(Object.entries(changedFields(form, loaded.values, outcome.record)).filter(([code]) => Object.hasOwn(loaded.values, code)));
      const { objectId: _objectId, ...rest } = loaded;
      return { ...(rest as typeof loaded), values: { ...loaded.values, ...changes } };
    },
    async onSubmit(edb, ctx, form, event): Promise<SubmitOutcome> {
      const script = await serverScriptOf(edb, ctx, form.node.code);
      if (!script || !mentions(script, 'onSubmit')) return { changes: {} };
      const { record, children } = await recordFor(edb, form, event.objectId, event.values, event.children);
      const outcome = await runFormHandler(edb, ctx, form, script, 'onSubmit', { actionName: event.actionName, objectId: event.objectId ?? null, isNew: !event.objectId, record, children });
      const changedRows = changedChildren(form, children, outcome.children);
      return { changes: changedFields(form, record, outcome.record), ...(changedRows ? { children: changedRows } : {}), ...(outcome.responded != null ? { responded: outcome.responded } : {}) };
    },
  });
}
