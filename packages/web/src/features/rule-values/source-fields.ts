import { controlTypeByKey, type ControlTypeKey } from '@tritium/shared/controls/index';

// What a business rule or an automation step reads of its form: the business rules' designer takes the draft being
// designed, the automation page the published definition — both are trees of this shape.

/** The fields of a form a rule or a step can read: main-table data fields, system fields, sub-table columns. */
export interface SourceFields {
  main: { code: string; name: string }[];
  grids: { code: string; name: string; columns: { code: string; name: string }[] }[];
}

/** A control of a definition or of the designer's tree: what reading its fields needs. */
export interface SourceControl {
  type: string;
  code: string;
  options?: unknown;
  controls?: readonly SourceControl[];
  panes?: readonly { controls: readonly SourceControl[] }[];
}

const SYSTEM = ['ObjectId', 'Name', 'SeqNo', 'CreatedBy', 'OwnerId', 'OwnerDeptId', 'CreatedTime', 'ModifiedTime'];
const nameOf = (control: SourceControl) => String((control.options as { displayName?: unknown } | undefined)?.displayName ?? control.code);
const isData = (control: SourceControl) => controlTypeByKey(control.type as ControlTypeKey)?.group !== 'layout' && control.type !== 'gridView';

/** Every control of the tree: sub-table columns and the contents of layouts and tabs included. */
function flatten(controls: readonly SourceControl[]): SourceControl[] {
  return controls.flatMap((c) => [c, ...flatten(c.controls ?? []), ...(c.panes ?? []).flatMap((p) => flatten(p.controls))]);
}

export function sourceFieldsOf(controls: readonly SourceControl[]): SourceFields {
  const all = flatten(controls);
  const grids = all.filter((c) => c.type === 'gridView');
  const inGrids = new Set(grids.flatMap((g) => g.controls ?? []));
  const main = all.filter((c) => !inGrids.has(c) && isData(c)).map((c) => ({ code: c.code, name: nameOf(c) }));
  return {
    main: [...main, ...SYSTEM.filter((code) => !main.some((f) => f.code === code)).map((code) => ({ code, name: code }))],
    grids: grids.map((g) => ({ code: g.code, name: nameOf(g), columns: (g.controls ?? []).filter(isData).map((c) => ({ code: c.code, name: nameOf(c) })) })),
  };
}
