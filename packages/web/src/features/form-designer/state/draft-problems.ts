/** Whether the draft would be accepted by the save call: the contract's own schema and the registry's whole-form check. */
import { FormDefinition } from '@tritium/shared/contracts/form-design/index';
import { checkFormControls } from '@tritium/shared/controls/index';
import type { DesignerControl } from './control-tree.ts';
import { toDefinition, type DesignerState } from './designer-state.ts';

export type IssuePath = (string | number)[];

export interface DraftProblem {
  /** From the definition: ['attributes', …] or ['controls', 0, 'controls', 1, 'options', …]. */
  path: IssuePath;
  message: string;
}

export function draftProblems(state: Pick<DesignerState, 'attributes' | 'controls'>): DraftProblem[] {
  const parsed = FormDefinition.safeParse(toDefinition(state));
  if (!parsed.success) {
    return parsed.error.issues.map((issue) => ({ path: issue.path.filter((part): part is string | number => typeof part !== 'symbol'), message: issue.message }));
  }
  return checkFormControls(parsed.data.controls).map((problem) => ({ path: ['controls', ...problem.path], message: problem.message }));
}

/** The control a definition path points into (the innermost one), if any. */
export function controlAtPath(controls: DesignerControl[], path: IssuePath): DesignerControl | undefined {
  if (path[0] !== 'controls') return undefined;
  let list = controls;
  let found: DesignerControl | undefined;
  let i = 1;
  while (typeof path[i] === 'number') {
    const control: DesignerControl | undefined = list[path[i] as number];
    if (!control) break;
    found = control;
    i += 1;
    if (path[i] === 'controls' && control.controls) {
      list = control.controls;
      i += 1;
    } else if (path[i] === 'panes' && typeof path[i + 1] === 'number' && path[i + 2] === 'controls') {
      list = control.panes?.[path[i + 1] as number]?.controls ?? [];
      i += 3;
    } else break;
  }
  return found;
}

/** A 777 issue path ("definition.controls.0.options.displayName") as a definition path. */
export function parseIssuePath(path: string): IssuePath {
  const parts = path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));
  return parts[0] === 'definition' ? parts.slice(1) : parts;
}
