import type { EngineExecutor } from '../function-node/function-node.repo.ts';
import type { NodeContext } from '../function-node/node-context.ts';
import type { RuntimeForm } from './runtime-form.ts';

// The port through which a form's server script (docs/decisions/0118) takes part in the form runtime, without business
// data importing the custom-code module (docs/decisions/0026: the module graph is a DAG). The app registers the
// implementation at start (registerFormScripts in custom-code/form-script-hooks.ts); without one, forms run no code.
//
// Where scripts run: the form's own actions a person takes in the browser — loading a record, Save, Submit, Remove,
// the workflow's actions on a work item, a button's action. Not for the open API's writes, imports, business rules,
// automations or a script's own writes: those are not the form's events, and a script writing records would otherwise
// run scripts again.

type Row = Record<string, unknown>;
type Children = Record<string, Row[]>;

export interface SubmitEvent {
  /** Save, Submit, Remove, a workflow action (Submit, Reject, SendBack, Forward, …) or a button's action name. */
  actionName: string;
  objectId?: string;
  /** The values the caller sends (merged over the stored record by the implementation). */
  values: Row;
  children?: Children;
}

export interface SubmitOutcome {
  /** Fields the script changed (code → new value): stored with the save. */
  changes: Row;
  /** Sub-tables the script replaced. */
  children?: Children;
  /** What the script answered the browser with (`ctx.respond`). */
  responded?: unknown;
}

export interface FormScripts {
  /** Whether the form (by its code) has a server script; answered from a cache, so a form without one costs nothing. */
  hasServerScript(edb: EngineExecutor, ctx: NodeContext, schemaCode: string): Promise<boolean>;
  /** `onLoad`: may change the values the form answers (nothing is stored). */
  onLoad<T extends { isNew: boolean; values: Row; children: Children }>(edb: EngineExecutor, ctx: NodeContext, form: RuntimeForm, loaded: T & { objectId?: string }): Promise<T>;
  /** `onSubmit`, in the caller's transaction: may change the record, refuse (throws the catalogue's 410001) or answer data. */
  onSubmit(edb: EngineExecutor, ctx: NodeContext, form: RuntimeForm, event: SubmitEvent): Promise<SubmitOutcome>;
}

const NONE: FormScripts = {
  hasServerScript: async () => false,
  onLoad: async (_edb, _ctx, _form, loaded) => loaded,
  onSubmit: async () => ({ changes: {} }),
};

let scripts: FormScripts = NONE;

export function setFormScripts(next: FormScripts): void {
  scripts = next;
}

export const formScripts = (): FormScripts => scripts;

/** Runs a form's `onSubmit` when it has a script: the caller's values with the script's changes, and what it answered. */
export async function submitWithScript(
  edb: EngineExecutor,
  ctx: NodeContext,
  form: RuntimeForm,
  event: SubmitEvent,
): Promise<{ values: Row; children?: Children; outcome?: SubmitOutcome }> {
  if (!(await scripts.hasServerScript(edb, ctx, form.node.code))) return { values: event.values, children: event.children };
  const outcome = await scripts.onSubmit(edb, ctx, form, event);
  return { values: { ...event.values, ...outcome.changes }, children: outcome.children ? { ...event.children, ...outcome.children } : event.children, outcome };
}
