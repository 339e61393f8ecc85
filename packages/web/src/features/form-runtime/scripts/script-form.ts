import type { ControlPermission } from '../components/form-context.ts';
import { collectFields, type RuntimeNode } from '../model/runtime-tree.ts';
import { isInput, type FormValues } from '../model/form-values.ts';
import type { JsonValue, OperationRules, ScriptOperation } from './script-protocol.ts';

/** What a browser script has hidden and locked on top of the form's own visibility and rights. */
export interface ScriptOverlay {
  hidden: ReadonlySet<string>;
  locked: ReadonlySet<string>;
}

export const NO_OVERLAY: ScriptOverlay = { hidden: new Set(), locked: new Set() };

/** The codes a script may name: it sets input fields of the main table, and shows, hides and locks any control. */
export function operationRules(tree: readonly RuntimeNode[]): OperationRules {
  const { fields, grids } = collectFields(tree);
  return {
    settable: new Set(fields.filter(isInput).map((control) => control.code)),
    known: new Set([...fields.map((control) => control.code), ...grids.map((grid) => grid.control.code)]),
  };
}

/** The overlay after show, hide, lock and unlock operations (other operations leave it as it is). */
export function nextOverlay(overlay: ScriptOverlay, ops: readonly ScriptOperation[]): ScriptOverlay {
  let hidden: Set<string> | null = null;
  let locked: Set<string> | null = null;
  for (const op of ops) {
    if (op.op === 'hide' || op.op === 'show') {
      hidden ??= new Set(overlay.hidden);
      if (op.op === 'hide') hidden.add(op.code);
      else hidden.delete(op.code);
    } else if (op.op === 'lock' || op.op === 'unlock') {
      locked ??= new Set(overlay.locked);
      if (op.op === 'lock') locked.add(op.code);
      else locked.delete(op.code);
    }
  }
  return hidden || locked ? { hidden: hidden ?? overlay.hidden, locked: locked ?? overlay.locked } : overlay;
}

/**
 * The form's permissions with the script's overlay: a script can hide and lock, and show and unlock only what it hid
 * or locked itself — never a field the person's rights or the flow's node hide or lock.
 */
export function withOverlay(permissionOf: ((code: string) => ControlPermission) | undefined, overlay: ScriptOverlay): ((code: string) => ControlPermission) | undefined {
  if (overlay.hidden.size === 0 && overlay.locked.size === 0) return permissionOf;
  return (code) => {
    const own = permissionOf?.(code) ?? { visible: true, editable: true, required: false };
    return { ...own, visible: own.visible && !overlay.hidden.has(code), editable: own.editable && !overlay.locked.has(code) };
  };
}

/** The values a script reads with form.get: the main table's fields and each sub-table's rows, as JSON. */
export function scriptValues(form: FormValues | null): Record<string, JsonValue> {
  if (!form) return {};
  const rows = Object.fromEntries(Object.entries(form.children).map(([code, list]) => [code, list.map(({ __key: _key, ...row }) => row)]));
  return JSON.parse(JSON.stringify({ ...form.values, ...rows })) as Record<string, JsonValue>;
}
