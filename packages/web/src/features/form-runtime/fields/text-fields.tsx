/** Text, number, date-time and yes/no fields of the runtime (the date-time editor: date-time-field.tsx). */
import { Checkbox, Input, InputNumber, Progress } from 'antd';
import { TEXT_AREA_MAX_LENGTH, TEXT_BOX_MAX_LENGTH } from '@tritium/shared/constants/limits';
import { decimalPlacesOf } from '@tritium/shared/controls/index';
import type { AnyFieldKind, DisplayProps, FieldProps } from './field-types.ts';
import { DateTimeEdit } from './date-time-field.tsx';
import { DisplayText } from './default-display.tsx';

const full = { width: '100%' };

// domain.md §5: the text modes decide the keyboard a phone offers, not only the check.
const INPUT_TYPES: Record<string, { type: string; inputMode?: 'email' | 'tel' | 'text' }> = {
  Email: { type: 'email', inputMode: 'email' },
  Telephone: { type: 'tel', inputMode: 'tel' },
  IdCard: { type: 'text', inputMode: 'text' },
};

function TextEdit({ control, value, onChange, id, invalid, disabled }: FieldProps<string>) {
  const mode = INPUT_TYPES[String(control.options.textMode)] ?? { type: 'text' };
  return (
    <Input
      id={id}
      value={value ?? ''}
      type={mode.type}
      inputMode={mode.inputMode}
      maxLength={TEXT_BOX_MAX_LENGTH}
      status={invalid ? 'error' : undefined}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

function TextAreaEdit({ value, onChange, id, invalid, disabled }: FieldProps<string>) {
  return (
    <Input.TextArea
      id={id}
      value={value ?? ''}
      autoSize={{ minRows: 3, maxRows: 10 }}
      maxLength={TEXT_AREA_MAX_LENGTH}
      showCount
      status={invalid ? 'error' : undefined}
      disabled={disabled}
      onChange={(event) => onChange(event.target.value)}
    />
  );
}

function TextAreaDisplay(props: DisplayProps<string>) {
  return <div style={{ whiteSpace: 'pre-wrap', wordBreak: 'break-word' }}><DisplayText {...props} /></div>;
}

/**
 * Would this key put more digits after the decimal point than the control keeps? Such a digit is not typed: the value
 * stops at the allowed places and is never rounded (a pasted value with more is refused by the value check instead).
 */
function exceedsPlaces(input: HTMLInputElement, key: string, places: number): boolean {
  if (!/^\d$/.test(key)) return false;
  const { value, selectionStart, selectionEnd } = input;
  const next = value.slice(0, selectionStart ?? value.length) + key + value.slice(selectionEnd ?? value.length);
  const fraction = /\.(\d*)/.exec(next);
  return fraction !== null && fraction[1]!.length > places;
}

/** A number shown with the control's places when nobody is typing (12.5 reads 12.50): padded, never cut. */
function padPlaces(text: string, places: number): string {
  if (places <= 0 || !/^-?\d+(\.\d*)?$/.test(text)) return text;
  const [whole, fraction = ''] = text.split('.');
  return fraction.length >= places ? text : `${whole}.${fraction.padEnd(places, '0')}`;
}

function NumberEdit({ control, value, onChange, id, invalid, disabled }: FieldProps<number>) {
  const percent = control.options.showMode !== undefined && control.options.showMode !== 'normal';
  const places = decimalPlacesOf(control.options);
  return (
    <InputNumber
      id={id}
      style={full}
      value={value}
      suffix={percent ? '%' : undefined}
      status={invalid ? 'error' : undefined}
      disabled={disabled}
      formatter={(text, info) => (info.userTyping ? info.input : padPlaces(String(text ?? ''), places))}
      onKeyDown={(event) => {
        if (exceedsPlaces(event.currentTarget, event.key, places)) event.preventDefault();
      }}
      onChange={(next) => onChange(typeof next === 'number' ? next : null)}
    />
  );
}

function NumberDisplay(props: DisplayProps<number>) {
  const { control, value, print } = props;
  if (control.options.showMode === 'bar' && typeof value === 'number' && !print) {
    return <Progress percent={value} format={(p) => `${(p ?? 0).toFixed(decimalPlacesOf(control.options))}%`} />;
  }
  return <DisplayText {...props} />;
}

function CheckboxEdit({ control, value, onChange, id, disabled }: FieldProps<boolean>) {
  return (
    <Checkbox id={id} checked={value === true} disabled={disabled} onChange={(event) => onChange(event.target.checked)}>
      {control.label}
    </Checkbox>
  );
}

export const TEXT_FIELDS = {
  textBox: { Edit: TextEdit },
  textArea: { Edit: TextAreaEdit, Display: TextAreaDisplay },
  number: { Edit: NumberEdit, Display: NumberDisplay },
  dateTime: { Edit: DateTimeEdit },
  checkbox: { Edit: CheckboxEdit },
} satisfies Record<string, AnyFieldKind>;
