/**
 * The form runtime's field contract (issue "Form runtime and business data"): one field kind per control type or
 * data type, each an editor and a display, both fed the control's published options and its value in the registry's
 * value format (packages/shared/src/controls). The form around them owns values, errors and the layout.
 */
import type { ComponentType } from 'react';
import type { AnyControlType } from '@tritium/shared/controls/index';

/** domain.md §2: the modes a form opens in. Create and Edit edit; View, Readonly and Print show. */
export const FORM_MODES = ['Create', 'Edit', 'View', 'Readonly', 'Print'] as const;
export type FormMode = (typeof FORM_MODES)[number];
export const isEditingMode = (mode: FormMode) => mode === 'Create' || mode === 'Edit';

export type Device = 'pc' | 'phone';

/** One published control as the runtime holds it. */
export interface RuntimeControl {
  code: string;
  type: AnyControlType;
  /** The control's published options (the registry's option schema, defaults applied). */
  options: Record<string, unknown>;
  /** Its title: options.displayName, else the type's name. */
  label: string;
}

export interface FieldProps<V = unknown> {
  control: RuntimeControl;
  /** The value in the registry's value format; null when empty. */
  value: V | null;
  onChange: (value: V | null) => void;
  /** The id of the input, which the field's title labels (`<label htmlFor>`); use it on the main input. */
  id: string;
  /** The server or the client check refused the value: show the field in its error state. */
  invalid: boolean;
  device: Device;
  /** The form being filled (uploads, association pickers). */
  schemaCode: string;
  /** Editing is off (the control is read-only for this person, or the form shows rather than edits). */
  disabled?: boolean;
}

export interface DisplayProps<V = unknown> {
  control: RuntimeControl;
  value: V | null;
  device: Device;
  /** The page is the print page: no buttons, no links that need a click, plain black text. */
  print: boolean;
}

/** How one kind of control edits and shows its value. Display is optional: the default shows the registry's text or '--'. */
export interface FieldKind<V = unknown> {
  Edit: ComponentType<FieldProps<V>>;
  Display?: ComponentType<DisplayProps<V>>;
}

/** domain.md §9: the empty value shows as '--'. */
export const EMPTY_TEXT = '--';

/** A field kind of any value type, as the registry of kinds holds them (each kind knows its own value type). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyFieldKind = FieldKind<any>;
