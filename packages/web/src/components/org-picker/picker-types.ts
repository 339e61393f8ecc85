import type { OrgScope } from '@tritium/shared/constants/org';

/** A chosen unit: its id, and the name to show without asking the server again. */
export interface PickedUnit {
  id: string;
  name: string;
}

/** What a picker chooses; the four pickers are the two kinds, one or many. */
export type PickerKind = 'user' | 'department';

/** A unit the picker offers: enough to show it, to tell namesakes apart and to filter by scope. */
export interface PickerCandidate extends PickedUnit {
  isExternal: boolean;
  /** Users: the main department; departments: the parent. Null when unknown. */
  parentName: string | null;
  mobile?: string | null;
}

/** What every picker accepts besides its value (they differ only by kind and multiplicity). */
export interface PickerCommonProps {
  /** Fixes the organisation scope: the 内部/外部/全部 switch is hidden. */
  scope?: OrgScope;
  /** The scope the switch starts at (default inner, domain.md §6). */
  defaultScope?: OrgScope;
  disabled?: boolean;
  placeholder?: string;
  /** Set by antd Form.Item so the label points at the field. */
  id?: string;
  /** The modal's title; default 选择人员 / 选择部门. */
  title?: string;
  'aria-label'?: string;
}

export interface SinglePickerProps extends PickerCommonProps {
  value?: PickedUnit | null;
  onChange?: (value: PickedUnit | null) => void;
}

export interface MultiPickerProps extends PickerCommonProps {
  value?: PickedUnit[];
  onChange?: (value: PickedUnit[]) => void;
  /** The most units one field may hold. */
  max?: number;
}
