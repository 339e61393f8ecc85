/** May this control type be dropped here? The designer's control-add check (domain.md §5). */
import type { ControlAddVerifyResult } from '../constants/formats.ts';
import { FORM_CONTROL_UPPER_LIMIT } from '../constants/limits.ts';
import { controlTypeByKey } from './registry.ts';
import type { ControlPlacement } from './types.ts';

/** The containers a control can be dropped into. */
export type ControlContainerKind = 'root' | 'subTable' | 'tab' | 'layout';

/** The container dropped into, or the chain of containers from the outermost to the innermost. */
export type ControlTarget = ControlContainerKind | readonly ControlContainerKind[];

/** What the check needs to know about the form: how many controls it has, in all, and of each type. */
export interface FormControlsSnapshot {
  readonly total: number;
  readonly countByType: Readonly<Record<string, number | undefined>>;
}

/** The parts of a control instance the snapshot reads; saved form JSON and ControlDefinition both fit. */
export interface ControlTreeNode {
  readonly type: string;
  readonly controls?: readonly ControlTreeNode[];
  readonly panes?: readonly { readonly controls?: readonly ControlTreeNode[] }[];
}

/** Counts every control of a form, sub-table columns and the contents of layouts and tabs included. */
export function snapshotOf(controls: readonly ControlTreeNode[]): FormControlsSnapshot {
  const countByType: Record<string, number> = {};
  let total = 0;
  const visit = (list: readonly ControlTreeNode[] | undefined) => {
    for (const control of list ?? []) {
      total += 1;
      countByType[control.type] = (countByType[control.type] ?? 0) + 1;
      visit(control.controls);
      for (const pane of control.panes ?? []) visit(pane.controls);
    }
  };
  visit(controls);
  return { total, countByType };
}

// Container → the placement flag that allows it → the result when the flag is off.
type ContainerRule = readonly [keyof ControlPlacement, ControlAddVerifyResult];
const CONTAINER_RULES: Readonly<Record<Exclude<ControlContainerKind, 'root'>, ContainerRule>> = {
  subTable: ['subTable', 'gridViewNoSupport'],
  tab: ['tab', 'tabNoSupport'],
  layout: ['layout', 'layoutNoSupport'],
};

/**
 * The control-add result for dropping one control of `typeKey` into `target`: `other` for an unknown
 * type, then the container checks (innermost container first), then one-per-form, then the per-type
 * and per-form upper limits.
 */
export function verifyControlAdd(
  form: FormControlsSnapshot,
  typeKey: string,
  target: ControlTarget = 'root',
): ControlAddVerifyResult {
  const type = controlTypeByKey(typeKey);
  if (!type) return 'other';
  const containers = (typeof target === 'string' ? [target] : [...target]).reverse();
  for (const container of containers) {
    if (container === 'root') continue;
    const rule: ContainerRule | undefined = CONTAINER_RULES[container];
    if (!rule) return 'other';
    if (!type.placement[rule[0]]) return rule[1];
  }
  const count = form.countByType[type.key] ?? 0;
  if (type.placement.onlyOne && count > 0) return 'onlyOne';
  if (type.limits?.maxPerForm !== undefined && count >= type.limits.maxPerForm) return 'upperLimit';
  if (form.total >= FORM_CONTROL_UPPER_LIMIT) return 'upperLimit';
  return 'success';
}

/** zh-CN text for each refusal, used where a saved form is checked (ControlDefinitionList). */
export const CONTROL_ADD_MESSAGES: Readonly<Record<Exclude<ControlAddVerifyResult, 'success'>, string>> = {
  onlyOne: '该控件在一个表单中只能添加一个',
  upperLimit: '控件数量已达上限',
  gridViewNoSupport: '子表中不能添加该控件',
  tabNoSupport: '标签页中不能添加该控件',
  layoutNoSupport: '一行多列中不能添加该控件',
  other: '不能添加该控件',
};
