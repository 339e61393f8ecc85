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
