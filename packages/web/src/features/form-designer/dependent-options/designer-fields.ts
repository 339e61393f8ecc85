import { controlStorage, controlTypeByKey } from '@tritium/shared/controls/index';
import { THIS_FORM_PREFIX } from '@tritium/shared/formula/index';
import type { FormulaField } from '../../formula/formula-completion.ts';
import { controlName } from '../labels.ts';
import type { DesignerControl } from '../state/control-tree.ts';

// The fields a formula of the form being designed may name (from the draft, so new controls complete at once).

const hasValue = (control: DesignerControl) => {
  const type = controlTypeByKey(control.type);
  if (!type || type.dataType === 'none') return false;
  return !!controlStorage(type, control.options).column || type.dataType === 'lookup';
};

/** Main-table fields `{Code}` and sub-table columns `{Grid.Code}` (layouts and tabs looked into). */
export function draftFormulaFields(controls: readonly DesignerControl[], prefix?: string): FormulaField[] {
  const out: FormulaField[] = [];
  const walk = (list: readonly DesignerControl[]) => {
    for (const control of list) {
      const type = controlTypeByKey(control.type);
      if (type?.dataType === 'children') {
        for (const column of control.controls ?? []) if (hasValue(column)) out.push({ ref: `${prefix ? `${prefix}.` : ''}${control.code}.${column.code}`, label: `${controlName(control)}.${controlName(column)}` });
        continue;
      }
      if (hasValue(control)) out.push({ ref: prefix ? `${prefix}.${control.code}` : control.code, label: controlName(control) });
      if (control.controls) walk(control.controls);
      control.panes?.forEach((pane) => walk(pane.controls));
    }
  };
  walk(controls);
  // `{this.Grid.Code}` is not a reference the language reads: the data range reads main fields of this form.
  return prefix ? out.filter((f) => f.ref.split('.').length === 2) : out;
}

export const thisFormFields = (controls: readonly DesignerControl[]) => draftFormulaFields(controls, THIS_FORM_PREFIX);

/** The published fields of another form, from its schema (GET /v1/schema). */
export function schemaFormulaFields(schema: { properties: { name: string; displayName: string }[]; childSchemas: { schemaCode: string; displayName: string; properties: { name: string; displayName: string }[] }[] } | undefined): FormulaField[] {
  if (!schema) return [];
  return [
    ...schema.properties.map((p) => ({ ref: p.name, label: p.displayName })),
    ...schema.childSchemas.flatMap((child) => child.properties.map((p) => ({ ref: `${child.schemaCode}.${p.name}`, label: `${child.displayName}.${p.displayName}` }))),
  ];
}

/**
 * The fields a permission group may set a right on (docs/decisions/0037): main-table data fields, each sub-table, and
 * its columns as `Grid.Column` — stored values only (a lookup shows another form's value and has none of its own).
 */
export function permissionFields(controls: readonly DesignerControl[]): { code: string; label: string; type: string; grid?: string }[] {
  const stores = (control: DesignerControl) => {
    const type = controlTypeByKey(control.type);
    const column = type ? controlStorage(type, control.options).column : null;
    return !!column && !('childTable' in column) && !column.systemField;
  };
  const out: { code: string; label: string; type: string; grid?: string }[] = [];
  const walk = (list: readonly DesignerControl[]) => {
    for (const control of list) {
      if (controlTypeByKey(control.type)?.dataType === 'children') {
        out.push({ code: control.code, label: controlName(control), type: control.type });
        for (const column of control.controls ?? []) if (stores(column)) out.push({ code: `${control.code}.${column.code}`, label: `${controlName(control)}.${controlName(column)}`, type: column.type, grid: control.code });
        continue;
      }
      if (stores(control)) out.push({ code: control.code, label: controlName(control), type: control.type });
      if (control.controls) walk(control.controls);
      control.panes?.forEach((pane) => walk(pane.controls));
    }
  };
  walk(controls);
  return out;
}
