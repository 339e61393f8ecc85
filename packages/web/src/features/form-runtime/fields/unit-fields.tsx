/** People and departments: the organisation's pickers; the value holds ids, the form shows names. */
import { DepartmentPicker, MultiDepartmentPicker, MultiUserPicker, UserPicker, type PickedUnit } from '../../../components/org-picker/index.ts';
import { useDisplayContext, useLearnNames } from '../model/names.tsx';
import type { AnyFieldKind, FieldProps } from './field-types.ts';

function usePicked() {
  const context = useDisplayContext();
  return (id: string): PickedUnit => ({ id, name: context.unitName?.(id) ?? id });
}

function single(Picker: typeof UserPicker) {
  return function SingleUnitEdit({ value, onChange, id, disabled, control }: FieldProps<string>) {
    const picked = usePicked();
    const learn = useLearnNames();
    const change = (unit: PickedUnit | null) => {
      if (unit) learn('units', [unit]);
      onChange(unit?.id ?? null);
    };
    return <Picker id={id} aria-label={control.label} disabled={disabled} value={value ? picked(value) : null} onChange={change} />;
  };
}

function multiple(Picker: typeof MultiUserPicker) {
  return function MultiUnitEdit({ value, onChange, id, disabled, control }: FieldProps<string[]>) {
    const picked = usePicked();
    const learn = useLearnNames();
    return (
      <Picker
        id={id}
        aria-label={control.label}
        disabled={disabled}
        value={(value ?? []).map(picked)}
        onChange={(units) => {
          learn('units', units);
          onChange(units.length ? units.map((unit) => unit.id) : null);
        }}
      />
    );
  };
}

export const UNIT_FIELDS = {
  user: { Edit: single(UserPicker) },
  multiUser: { Edit: multiple(MultiUserPicker) },
  department: { Edit: single(DepartmentPicker) },
  multiDepartment: { Edit: multiple(MultiDepartmentPicker) },
} satisfies Record<string, AnyFieldKind>;
