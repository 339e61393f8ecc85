/**
 * What in an open form follows other values without a formula (docs/decisions/0016): association fills and associated
 * properties (when an association changes), data links (when a condition changes; an empty condition clears), and the
 * submit rules (a hidden Submit button, a refused Submit). The server derives the same on save; this shows it live.
 */
import type { DataLink } from '@tritium/shared/controls/options/base';
import { blockingSubmitRules, type SubmitRule } from '@tritium/shared/formula/index';
import type { RuntimeControl } from '../fields/field-types.ts';
import type { FormValues, GridRow } from './form-values.ts';
import { collectFields, type RuntimeNode } from './runtime-tree.ts';

const ASSOCIATIONS = new Set(['associationQuery', 'associationQueryMulti']);
export const isBlankValue = (value: unknown) => value == null || value === '' || (Array.isArray(value) && value.length === 0);
export const idsOf = (value: unknown): string[] => (Array.isArray(value) ? value.map(String) : typeof value === 'string' && value ? [value] : []);

/** The sub-table a column control belongs to, for the calls that name it `Grid.Code`. */
const gridOfControl = new WeakMap<RuntimeControl, string>();
export const controlPath = (control: RuntimeControl) => (gridOfControl.has(control) ? `${gridOfControl.get(control)}.${control.code}` : control.code);

/** Something that may fire: an association or a data link, in the main table or one sub-table row. */
export interface Trigger {
  id: string;
  /** What it depends on, as text: it fires when this changes. */
  key: string;
  kind: 'association' | 'link';
  control: RuntimeControl;
  path: string;
  gridCode?: string;
  rowKey?: string;
  /** association: the chosen ids; link: the condition values (this form's codes). */
  ids: string[];
  conditions: Record<string, unknown>;
}

export interface DependentControls {
  associations: { control: RuntimeControl; gridCode?: string }[];
  links: { control: RuntimeControl; link: DataLink; gridCode?: string }[];
}

export function dependentControls(tree: readonly RuntimeNode[]): DependentControls {
  const { fields, grids } = collectFields(tree);
  const out: DependentControls = { associations: [], links: [] };
  const filled = new Set<string>();
  const visit = (control: RuntimeControl, gridCode?: string) => {
    if (gridCode) gridOfControl.set(control, gridCode);
    if (ASSOCIATIONS.has(control.type.key) && control.options.schemaCode) {
      out.associations.push({ control, gridCode });
      for (const target of Object.keys((control.options.mappingControls as Record<string, string>) ?? {})) filled.add(`${gridCode ?? ''}.${target}`);
    }
  };
  fields.forEach((c) => visit(c));
  grids.forEach((grid) => grid.columns.forEach((c) => visit(c, grid.control.code)));
  const link = (control: RuntimeControl, gridCode?: string) => {
    const dataLink = control.options.dataLink as DataLink | null | undefined;
    // A field an association fills is not linked as well (the product ignores the data link then).
    if (dataLink && !filled.has(`${gridCode ?? ''}.${control.code}`)) out.links.push({ control, link: dataLink, gridCode });
  };
  fields.forEach((c) => link(c));
  grids.forEach((grid) => grid.columns.forEach((c) => link(c, grid.control.code)));
  return out;
}

/** Every trigger for the values as they are now. */
export function triggersOf(controls: DependentControls, form: FormValues): Trigger[] {
  const out: Trigger[] = [];
  const scopes = (gridCode?: string): { row: Record<string, unknown>; rowKey?: string }[] =>
    gridCode ? (form.children[gridCode] ?? []).map((row: GridRow) => ({ row, rowKey: row.__key })) : [{ row: form.values }];
  for (const { control, gridCode } of controls.associations) {
    for (const { row, rowKey } of scopes(gridCode)) {
      const ids = idsOf(row[control.code]);
      out.push({ id: `a:${gridCode ?? ''}.${control.code}:${rowKey ?? ''}`, key: JSON.stringify(ids), kind: 'association', control, path: controlPath(control), gridCode, rowKey, ids, conditions: {} });
    }
  }
  for (const { control, link, gridCode } of controls.links) {
    for (const { row, rowKey } of scopes(gridCode)) {
      const conditions = Object.fromEntries(link.conditions.map((c) => [c.field, c.field in row ? row[c.field] : form.values[c.field]]));
      out.push({ id: `l:${gridCode ?? ''}.${control.code}:${rowKey ?? ''}`, key: JSON.stringify(conditions), kind: 'link', control, path: controlPath(control), gridCode, rowKey, ids: [], conditions });
    }
  }
  return out;
}

/** Sets values of the main table, or of one sub-table row (by its key). */
export function setIn(form: FormValues, trigger: Pick<Trigger, 'gridCode' | 'rowKey'>, patch: Record<string, unknown>): FormValues {
  if (!trigger.gridCode) return { ...form, values: { ...form.values, ...patch } };
  const rows = form.children[trigger.gridCode] ?? [];
  return { ...form, children: { ...form.children, [trigger.gridCode]: rows.map((row) => (row.__key === trigger.rowKey ? { ...row, ...patch } : row)) } };
}

/** Whether a trigger still depends on what it fired for (an answer to an older value is dropped). */
export function stillCurrent(controls: DependentControls, form: FormValues, fired: Trigger): boolean {
  return triggersOf(controls, form).some((t) => t.id === fired.id && t.key === fired.key);
}

/** Submit rules for the values as they are now: the Submit buttons hidden, and the message of a refusing rule. */
export function submitRuleState(rules: readonly SubmitRule[] | undefined, form: FormValues): { hideSubmit: boolean; refusal: string | null } {
  const blocking = blockingSubmitRules(rules, { ...form.values, ...form.children });
  const error = blocking.find((rule) => rule.action === 'error');
  return { hideSubmit: blocking.some((rule) => rule.action === 'hideButton'), refusal: error ? error.message || '不满足提交条件，不能提交' : null };
}
