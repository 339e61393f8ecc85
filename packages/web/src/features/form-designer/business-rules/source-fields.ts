import { controlTypeByKey } from '@tritium/shared/controls/index';
import { allControls, type DesignerControl } from '../state/control-tree.ts';

/** The fields of the form being designed a rule can read: main-table data fields, system fields, sub-table columns. */
export interface SourceFields {
  main: { code: string; name: string }[];
  grids: { code: string; name: string; columns: { code: string; name: string }[] }[];
}

const SYSTEM = ['ObjectId', 'Name', 'SeqNo', 'CreatedBy', 'OwnerId', 'OwnerDeptId', 'CreatedTime', 'ModifiedTime'];
const nameOf = (control: DesignerControl) => String(control.options.displayName ?? control.code);
const isData = (control: DesignerControl) => controlTypeByKey(control.type)?.group !== 'layout' && control.type !== 'gridView';

export function sourceFieldsOf(controls: DesignerControl[]): SourceFields {
  const grids = allControls(controls).filter((c) => c.type === 'gridView');
  const inGrids = new Set(grids.flatMap((g) => (g.controls ?? []).map((c) => c.uid)));
  const main = allControls(controls).filter((c) => !inGrids.has(c.uid) && isData(c)).map((c) => ({ code: c.code, name: nameOf(c) }));
  return {
    main: [...main, ...SYSTEM.filter((code) => !main.some((f) => f.code === code)).map((code) => ({ code, name: code }))],
    grids: grids.map((g) => ({ code: g.code, name: nameOf(g), columns: (g.controls ?? []).filter(isData).map((c) => ({ code: c.code, name: nameOf(c) })) })),
  };
}
