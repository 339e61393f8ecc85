import { OrgPickerField } from './org-picker-field.tsx';
import type { MultiPickerProps, PickerKind, SinglePickerProps } from './picker-types.ts';

// The four pickers are one field and one dialog; they only fix the kind and how many units the value holds.

function singlePicker(kind: PickerKind) {
  return function SinglePicker({ value, onChange, ...rest }: SinglePickerProps) {
    return <OrgPickerField {...rest} kind={kind} multiple={false} value={value ? [value] : []} onChange={(units) => onChange?.(units[0] ?? null)} />;
  };
}

function multiPicker(kind: PickerKind) {
  return function MultiPicker({ value, onChange, ...rest }: MultiPickerProps) {
    return <OrgPickerField {...rest} kind={kind} multiple value={value ?? []} onChange={(units) => onChange?.(units)} />;
  };
}

/** One person: value { id, name } or null. */
export const UserPicker = singlePicker('user');
/** Several people: value [{ id, name }]. */
export const MultiUserPicker = multiPicker('user');
/** One department. */
export const DepartmentPicker = singlePicker('department');
/** Several departments. */
export const MultiDepartmentPicker = multiPicker('department');
