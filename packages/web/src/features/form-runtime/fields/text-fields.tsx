/** Text, number, date-time and yes/no fields of the runtime. */
import { Checkbox, DatePicker, Input, InputNumber, Progress, TimePicker } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { TEXT_AREA_MAX_LENGTH, TEXT_BOX_MAX_LENGTH } from '@tritium/shared/constants/limits';
import { normalizeDisplayFormat } from '@tritium/shared/constants/formats';
import type { AnyFieldKind, DisplayProps, FieldProps } from './field-types.ts';
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

const decimalsOf = (options: Record<string, unknown>) =>
  typeof options.decimalPlaces === 'number' ? options.decimalPlaces : options.showMode === 'normal' || options.showMode === undefined ? 0 : 2;

function NumberEdit({ control, value, onChange, id, invalid, disabled }: FieldProps<number>) {
  const percent = control.options.showMode !== undefined && control.options.showMode !== 'normal';
  return (
    <InputNumber
      id={id}
      style={full}
      value={value}
      precision={decimalsOf(control.options)}
      suffix={percent ? '%' : undefined}
      status={invalid ? 'error' : undefined}
      disabled={disabled}
      onChange={(next) => onChange(typeof next === 'number' ? next : null)}
    />
  );
}

function NumberDisplay(props: DisplayProps<number>) {
  const { control, value, print } = props;
  if (control.options.showMode === 'bar' && typeof value === 'number' && !print) {
    return <Progress percent={value} format={(p) => `${(p ?? 0).toFixed(decimalsOf(control.options))}%`} />;
  }
  return <DisplayText {...props} />;
}

/** The spec's lower-case formats (yyyy-mm-dd hh:mm) in dayjs' tokens. */
const dayjsFormat = (format: string) => format.replace('yyyy', 'YYYY').replace('-mm', '-MM').replace('dd', 'DD').replace('hh', 'HH');

function DateTimeEdit({ control, value, onChange, id, invalid, disabled }: FieldProps<string>) {
  const format = normalizeDisplayFormat(control.options.displayFormat);
  const current = value ? dayjs(value) : null;
  const change = (next: Dayjs | null) => onChange(next ? next.second(0).millisecond(0).toISOString() : null);
  const common = { id, style: full, value: current, status: invalid ? ('error' as const) : undefined, disabled, onChange: change };
  if (format === 'hh:mm') return <TimePicker {...common} format="HH:mm" />;
  if (format === 'yyyy-mm') return <DatePicker {...common} picker="month" format="YYYY-MM" />;
  return <DatePicker {...common} showTime={format.includes('hh') ? { format: 'HH:mm' } : false} format={dayjsFormat(format)} />;
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
