import type { Activity, FieldPermission } from './model.ts';

// What a node lets its handler do with each control (docs/decisions/0022). A control the node names has the named
// permission; the start node lets the originator edit everything it does not name (the originator fills the form);
// any other node shows what it does not name, read-only.

const START_DEFAULT: FieldPermission = { visible: true, editable: true, required: false };
const OTHER_DEFAULT: FieldPermission = { visible: true, editable: false, required: false };

export function fieldPermissionAt(activity: Activity | undefined, code: string): FieldPermission {
  const named = activity && 'fieldPermissions' in activity ? activity.fieldPermissions[code] : undefined;
  return named ?? defaultFieldPermission(activity);
}

/** The permission of the controls a node does not name. */
export function defaultFieldPermission(activity: Activity | undefined): FieldPermission {
  return activity?.type === 'Start' ? START_DEFAULT : OTHER_DEFAULT;
}

/** The controls a node requires (a required control is editable: the validator refuses anything else). */
export function requiredAt(activity: Activity | undefined): string[] {
  if (!activity || !('fieldPermissions' in activity)) return [];
  return Object.entries(activity.fieldPermissions).filter(([, p]) => p.required).map(([code]) => code);
}
