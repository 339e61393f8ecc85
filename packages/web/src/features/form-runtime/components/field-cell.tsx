import { useId, type ReactNode } from 'react';
import { Flex, Typography, theme } from 'antd';
import { isEditingMode, type RuntimeControl } from '../fields/field-types.ts';
import { DisplayText } from '../fields/default-display.tsx';
import { fieldKindFor } from '../fields/field-registry.ts';
import { isInput } from '../model/form-values.ts';
import { useRuntimeForm } from './form-context.ts';

/** Where a field's title sits: beside it (PC), above it (phone), or nowhere (sub-table cells under a header). */
export type TitlePlacement = 'beside' | 'above' | 'none';

interface FieldCellProps {
  control: RuntimeControl;
  value: unknown;
  onChange: (value: unknown) => void;
  /** The error key of this value (`values.X`, `children.G.i.X`). */
  errorKey: string;
  title: TitlePlacement;
}

/** One field: its title, the editor or the display for the form's mode, its tip and its error. */
export function FieldCell({ control, value, onChange, errorKey, title }: FieldCellProps) {
  const { token } = theme.useToken();
  const state = useRuntimeForm();
  const id = useId();
  const kind = fieldKindFor(control.type);
  const error = state.errors[errorKey];
  // Inputs edit; display-only controls with an action (buttons, OCR) keep their button; the rest is shown.
  const permission = state.permissionOf?.(control.code);
  const editing = isEditingMode(state.mode) && control.options.readonly !== true && (isInput(control) || control.type.dataType === 'none') && permission?.editable !== false;
  const print = state.mode === 'Print';
  // Buttons and OCR act while editing, greyed when locked; a record being read or printed has nothing to show for them.
  const lockedAction = !editing && control.type.dataType === 'none' && isEditingMode(state.mode) && !print;
  if (!editing && !lockedAction && control.type.dataType === 'none') return null;
  let body: ReactNode;
  if ((editing || lockedAction) && kind) {
    body = <kind.Edit control={control} value={value ?? null} onChange={onChange} id={id} invalid={!!error} device={state.device} schemaCode={state.schemaCode} disabled={lockedAction} />;
  } else if (kind?.Display) {
    body = <kind.Display control={control} value={value ?? null} device={state.device} print={print} />;
  } else {
    body = <DisplayText control={control} value={value ?? null} device={state.device} print={print} />;
  }
  const tip = typeof control.options.description === 'string' && control.options.description ? control.options.description : '';
  const content = (
    <Flex vertical gap={token.paddingXXS} style={{ flex: 1, minWidth: 0 }}>
      {body}
      {error && (
        <Typography.Text type="danger" role="alert" style={{ fontSize: token.fontSizeSM }}>
          {error}
        </Typography.Text>
      )}
      {tip && isEditingMode(state.mode) && (
        <Typography.Text type="secondary" style={{ fontSize: token.fontSizeSM }}>
          {tip}
        </Typography.Text>
      )}
    </Flex>
  );
  if (title === 'none' || (control.type.key === 'checkbox' && editing)) return <div aria-label={control.label}>{content}</div>;
  // A button's own text is its name: the title column stays (the buttons line up with the inputs) but empty.
  const isButton = control.type.key === 'button' || control.type.key === 'advancedButton';
  return (
    <Flex vertical={title === 'above'} gap={title === 'above' ? token.paddingXXS : token.padding} role="group" aria-label={control.label}>
      <label htmlFor={id} style={{ flex: title === 'beside' ? `0 0 ${state.titleWidth}px` : undefined, paddingTop: title === 'beside' ? token.paddingXXS : 0, color: token.colorTextSecondary }}>
        {(control.options.required === true || permission?.required === true) && editing && <span style={{ color: token.colorError, marginInlineEnd: token.marginXXS }}>*</span>}
        {!isButton && control.label}
      </label>
      {content}
    </Flex>
  );
}
