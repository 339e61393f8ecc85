import { createContext, useContext } from 'react';
import type { Device, FormMode } from '../fields/field-types.ts';
import type { FieldErrors, FormValues } from '../model/form-values.ts';

/** What every part of an open form reads: its values, errors, mode and the way to change a value. */
export interface RuntimeFormState {
  schemaCode: string;
  mode: FormMode;
  device: Device;
  titleWidth: number;
  form: FormValues;
  /** System fields of the record (CreatedBy, SeqNo, Status, ...) by name. */
  system: Record<string, unknown>;
  errors: FieldErrors;
  setValue: (code: string, value: unknown) => void;
  setRows: (gridCode: string, update: (rows: FormValues['children'][string]) => FormValues['children'][string]) => void;
  /** A record in a flow, handled at a node: what the node lets the handler see, change and must fill per control. */
  permissionOf?: (code: string) => ControlPermission;
  /** The caller's field rights from their permission groups (docs/decisions/0037), for sub-table columns. */
  fieldRights?: Record<string, 'hidden' | 'readonly'>;
}

export interface ControlPermission {
  visible: boolean;
  editable: boolean;
  required: boolean;
}

export const RuntimeFormContext = createContext<RuntimeFormState | null>(null);

export function useRuntimeForm(): RuntimeFormState {
  const state = useContext(RuntimeFormContext);
  if (!state) throw new Error('useRuntimeForm outside an open form');
  return state;
}

/**
 * The caller's field rights from loaddata as control permissions (docs/decisions/0037): a sub-table column's right is
 * named `Grid.Column`; undefined when every field is editable.
 */
export function permissionOfRights(rights: Record<string, 'hidden' | 'readonly'> | undefined): ((code: string) => ControlPermission) | undefined {
  if (!rights || Object.keys(rights).length === 0) return undefined;
  return (code) => ({ visible: rights[code] !== 'hidden', editable: !rights[code], required: false });
}
