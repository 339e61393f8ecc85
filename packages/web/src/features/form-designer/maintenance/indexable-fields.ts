import { controlStorage, controlTypeByKey } from '@tritium/shared/controls/index';
import type { SystemField } from '@tritium/shared/constants/form';
import { controlName } from '../labels.ts';
import type { DesignerControl } from '../state/control-tree.ts';

export interface IndexField {
  code: string;
  label: string;
}

/** System columns an index may use, in the order offered (the server refuses ParentObjectId). */
export const INDEXABLE_SYSTEM_FIELDS = ['Name', 'SeqNo', 'Status', 'CreatedTime', 'ModifiedTime', 'CreatedBy', 'ModifiedBy', 'OwnerId', 'OwnerDeptId'] as const satisfies readonly SystemField[];

/** Main-table controls with a sortable column of their own (not lists of values, sub-tables or system fields). */
export function indexableControls(controls: readonly DesignerControl[]): IndexField[] {
  const out: IndexField[] = [];
  const walk = (list: readonly DesignerControl[]) => {
    for (const control of list) {
      const type = controlTypeByKey(control.type);
      const column = type ? controlStorage(type, control.options).column : null;
      if (column && 'childTable' in column) continue;
      if (column && !column.systemField && column.sqlType !== 'jsonb' && column.sqlType !== 'text[]') out.push({ code: control.code, label: controlName(control) });
      if (control.controls) walk(control.controls);
      control.panes?.forEach((pane) => walk(pane.controls));
    }
  };
  walk(controls);
  return out;
}
