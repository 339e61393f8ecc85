/** Reusable organisation unit pickers: forms, workflows and the admin console use these. */
export { UserPicker, MultiUserPicker, DepartmentPicker, MultiDepartmentPicker } from './pickers.tsx';
export { OrgPickerDialog, type OrgPickerDialogProps } from './org-picker-dialog.tsx';
export type { PickedUnit, PickerKind, SinglePickerProps, MultiPickerProps } from './picker-types.ts';
export { OrgPickerField } from './org-picker-field.tsx';
export { useRoleList, type RoleListResult } from './use-role-list.ts';
