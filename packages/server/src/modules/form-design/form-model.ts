import { controlStorage, controlTypeByKey, type AnyControlType, type ControlDefinition, type ControlSqlType } from '@tritium/shared/controls/index';
import type { contracts } from '@tritium/shared';

// The tables a form definition asks for (docs/decisions/0006 "Tables"): the main table holds one column per data
// control, wherever the control sits (layouts and tabs are flattened); each grid view (sub-table) is a child table
// holding its own controls' columns. Every type and column comes from the control-type registry.

export interface ColumnModel {
  /** The column's name: the control's code, exactly as written. */
  code: string;
  sqlType: ControlSqlType;
  typeKey: string;
  /** A text control's 支持模糊搜索 (docs/decisions/0119): true, false, or absent (not chosen). */
  searchable?: boolean;
}

export interface ChildModel {
  /** The grid view control's code. */
  code: string;
  columns: ColumnModel[];
}

export interface FormModel {
  columns: ColumnModel[];
  children: ChildModel[];
}

/** Where a control sits: in the main table, or in the sub-table of `gridCode`. */
export interface ControlPlace {
  control: ControlDefinition;
  type: AnyControlType;
  gridCode?: string;
}

/** Every control of a definition, depth first, layouts' and tabs' contents included, with the sub-table it sits in. */
export function walkControls(controls: readonly ControlDefinition[], visit: (place: ControlPlace) => void, gridCode?: string): void {
  for (const control of controls) {
    const type = controlTypeByKey(control.type);
    if (!type) continue;
    visit({ control, type, gridCode });
    if (control.controls) walkControls(control.controls, visit, control.type === 'gridView' ? control.code : gridCode);
    for (const pane of control.panes ?? []) walkControls(pane.controls, visit, gridCode);
  }
}

/** The controls as a flat list (see walkControls). */
export function flattenControls(controls: readonly ControlDefinition[]): ControlPlace[] {
  const out: ControlPlace[] = [];
  walkControls(controls, (place) => out.push(place));
  return out;
}

/** The column a control adds to its table, or null (no data, a lookup, a sub-table, or a system column it only shows). */
export function columnOf(place: ControlPlace): ColumnModel | null {
  const { column } = controlStorage(place.type, place.control.options);
  if (!column || 'childTable' in column || column.systemField) return null;
  const searchable = (place.control.options as { searchable?: unknown } | undefined)?.searchable;
  return { code: place.control.code, sqlType: column.sqlType, typeKey: place.control.type, ...(typeof searchable === 'boolean' ? { searchable } : {}) };
}

export function isSubTable(place: ControlPlace): boolean {
  const { column } = controlStorage(place.type, place.control.options);
  return !!column && 'childTable' in column;
}

export function formModelOf(definition: Pick<contracts.FormDefinition, 'controls'> | null | undefined): FormModel {
  const model: FormModel = { columns: [], children: [] };
  if (!definition) return model;
  const childByCode = new Map<string, ChildModel>();
  walkControls(definition.controls, (place) => {
    if (isSubTable(place)) {
      const child = { code: place.control.code, columns: [] };
      childByCode.set(place.control.code, child);
      model.children.push(child);
      return;
    }
    const column = columnOf(place);
    if (!column) return;
    if (place.gridCode) childByCode.get(place.gridCode)?.columns.push(column);
    else model.columns.push(column);
  });
  return model;
}
