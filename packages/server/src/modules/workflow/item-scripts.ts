import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import { formScripts } from '../business-data/form-scripts-port.ts';
import { getRuntimeFormOrThrow } from '../business-data/runtime-form.ts';
import type { Action } from './workflow.core-types.ts';

// A work item's action runs the form's `onSubmit` script with the action's name (docs/decisions/0118), in the action's
// transaction: a refusal stops the action and leaves nothing written. Only an agreeing submit stores the script's
// changes of the record (through the item's own save); the other actions may refuse, log and write other records.

/** The action names a script's `ctx.actionName` reads for the workflow's actions. */
export const WORKFLOW_ACTION_NAMES: Partial<Record<Action['type'], string>> = {
  submit: 'Submit',
  reject: 'Reject',
  forback: 'SendBack',
  forward: 'Forward',
  addsign: 'AddSign',
  consult: 'Consult',
  retrieve: 'Retrieve',
  cancel: 'Cancel',
  finish: 'Finish',
};

export interface ScriptedEdit {
  values: Record<string, unknown>;
  children?: Record<string, Record<string, unknown>[]>;
  /** Fields the script set: saved although the node does not let the handler edit them. */
  scripted?: Set<string>;
  dropped: string[];
}

/** Runs the script of a person's action; answers the edit to save (the handler's, with the script's changes), if any. */
export async function scriptItemAction<E extends ScriptedEdit>(
  edb: EngineExecutor,
  ctx: NodeContext,
  instance: { schemaCode: string; objectId: string },
  action: Action,
  edit: E | undefined,
  bySystem: boolean | undefined,
): Promise<E | ScriptedEdit | undefined> {
  const actionName = WORKFLOW_ACTION_NAMES[action.type];
  if (!actionName || bySystem || !(await formScripts().hasServerScript(edb, ctx, instance.schemaCode))) return edit;
  const form = await getRuntimeFormOrThrow(edb, ctx, instance.schemaCode);
  const outcome = await formScripts().onSubmit(edb, ctx, form, { actionName, objectId: instance.objectId, values: edit?.values ?? {}, children: edit?.children });
  const codes = [...Object.keys(outcome.changes), ...Object.keys(outcome.children ?? {})];
  if (action.type !== 'submit' || !codes.length) return edit;
  const base: ScriptedEdit = edit ?? { values: {}, dropped: [] };
  base.values = { ...base.values, ...outcome.changes };
  if (outcome.children) base.children = { ...base.children, ...outcome.children };
  base.scripted = new Set([...(base.scripted ?? []), ...codes]);
  return base;
}
