import type { FieldKind, ModeFieldInfo } from './types.ts';

// Which fields may play which role in a mode's settings. Option-like fields are the single-choice lists whose items
// the form defines; group fields add people and the data status (kanban columns, timeline rows).
const OPTION_CONTROLS = new Set(['dropDown', 'radioList']);

const KINDS: Record<FieldKind, (f: ModeFieldInfo, schemaCode: string) => boolean> = {
  any: () => true,
  text: (f) => f.dataType === 'string' || f.dataType === 'text',
  date: (f) => f.dataType === 'datetime',
  option: (f) => OPTION_CONTROLS.has(f.controlType),
  group: (f) => OPTION_CONTROLS.has(f.controlType) || f.dataType === 'user' || f.controlType === 'status' || f.code === 'Status',
  number: (f) => f.dataType === 'decimal' || f.dataType === 'int',
  image: (f) => f.controlType === 'attachment' || f.controlType === 'photo',
  location: (f) => f.dataType === 'location',
  selfParent: (f, schemaCode) => f.controlType === 'associationQuery' && (f.targetSchemaCode ?? '').toLowerCase() === schemaCode.toLowerCase(),
};

/** Whether `field` may play a role of `kind` in a view of the form `schemaCode`. */
export function fieldFits(kind: FieldKind, field: ModeFieldInfo, schemaCode: string): boolean {
  return KINDS[kind](field, schemaCode);
}
