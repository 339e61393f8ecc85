import { controlValueProblem } from '@tritium/shared/controls/index';
import { hiddenByCondition } from '@tritium/shared/formula/index';
import { translateMessage, validationMessage } from '@tritium/shared/validation/messages';
import { currentLocale } from '../../../lib/i18n.ts';
import '../../../lib/zod-messages.ts';
import type { RuntimeControl } from '../fields/field-types.ts';
import { collectFields, type RuntimeNode } from './runtime-tree.ts';

/** A sub-table row: its ObjectId once saved, a key for React, and its columns' values. */
export type GridRow = Record<string, unknown> & { __key: string };

export interface FormValues {
  values: Record<string, unknown>;
  children: Record<string, GridRow[]>;
}

/** Field problems keyed like the server's 777 paths: `values.<code>` and `children.<grid>.<row>.<code>`. */
export type FieldErrors = Record<string, string>;

let rowCounter = 0;
export const newRowKey = () => `row-${++rowCounter}`;
export const withRowKeys = (rows: Record<string, unknown>[]): GridRow[] => rows.map((row) => ({ ...row, __key: newRowKey() }));

/** Empty in the sense of "required": null, '', or an empty list. */
export const isEmptyValue = (value: unknown) => value == null || value === '' || (Array.isArray(value) && value.length === 0);

/** Controls whose value people enter (not system fields, computed values or display-only controls). */
export function isInput(control: RuntimeControl): boolean {
  const { type } = control;
  if (type.dataType === 'none' || type.dataType === 'lookup' || type.dataType === 'children') return false;
  if (type.group === 'system' || type.key === 'formula' || type.key === 'rollup') return false;
  return true;
}

/** The control's hide condition (DisplayRule) holds for the values as they are now. */
export const isHidden = (control: RuntimeControl, form: FormValues) => hiddenByCondition(control.options.hideCondition, { ...form.values, ...form.children });

function check(control: RuntimeControl, value: unknown, form: FormValues): string | null {
  if (!isInput(control) || isHidden(control, form)) return null;
  const locale = currentLocale();
  if (control.options.required === true && isEmptyValue(value)) return validationMessage('fillIn', { field: control.label }, locale);
  const problem = controlValueProblem(control.type, control.options, value);
  // The control rules write zh-CN; the same templates give the English text.
  return problem === null ? null : translateMessage(problem, locale);
}

/** The client's check before a save, the same rules as the server's (packages/shared/src/controls/check-value.ts). */
export function validateForm(tree: readonly RuntimeNode[], form: FormValues): FieldErrors {
  const errors: FieldErrors = {};
  const { fields, grids } = collectFields(tree);
  for (const control of fields) {
    const problem = check(control, form.values[control.code], form);
    if (problem) errors[`values.${control.code}`] = problem;
  }
  for (const grid of grids) {
    const rows = form.children[grid.control.code] ?? [];
    if (grid.control.options.required === true && rows.length === 0) errors[`values.${grid.control.code}`] = validationMessage('addOneRow', { field: grid.control.label }, currentLocale());
    rows.forEach((row, index) => {
      for (const column of grid.columns) {
        const problem = check(column, row[column.code], form);
        if (problem) errors[`children.${grid.control.code}.${index}.${column.code}`] = problem;
      }
    });
  }
  return errors;
}

/** What the save sends: input values only (the server fills the rest) and every sub-table's rows. */
export function executePayload(tree: readonly RuntimeNode[], form: FormValues) {
  const { fields, grids } = collectFields(tree);
  const values: Record<string, unknown> = {};
  for (const control of fields) if (isInput(control)) values[control.code] = form.values[control.code] ?? null;
  const children: Record<string, Record<string, unknown>[]> = {};
  for (const grid of grids) {
    children[grid.control.code] = (form.children[grid.control.code] ?? []).map((row) => {
      const out: Record<string, unknown> = {};
      if (typeof row.ObjectId === 'string') out.ObjectId = row.ObjectId;
      for (const column of grid.columns) if (isInput(column)) out[column.code] = row[column.code] ?? null;
      return out;
    });
  }
  return { values, children };
}

/** A 777 answer's issues as field errors (paths `values.X` / `children.G.i.X`). */
export function serverFieldErrors(detail: unknown): FieldErrors {
  const issues = (detail as { issues?: { path?: unknown; message?: unknown }[] } | undefined)?.issues;
  const errors: FieldErrors = {};
  for (const issue of issues ?? []) {
    const path = Array.isArray(issue.path) ? issue.path.join('.') : String(issue.path ?? '');
    if (path && typeof issue.message === 'string') errors[path] = issue.message;
  }
  return errors;
}
