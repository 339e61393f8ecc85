/** The date-time field of the runtime: picked, or typed in any of the common spellings. */
import { useState, type FocusEvent } from 'react';
import { DatePicker, Space, TimePicker, Typography, theme } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { useTranslation } from 'react-i18next';
import { normalizeDisplayFormat, type DateTimeDisplayFormat } from '@tritium/shared/constants/formats';
import type { FieldProps } from './field-types.ts';
import { parseTypedDate } from './typed-date.ts';

const full = { width: '100%' };
const EXAMPLE = dayjs('2024-05-20T14:30:00');

/** The spec's lower-case formats (yyyy-mm-dd hh:mm) in dayjs' tokens. */
const dayjsFormat = (format: string) => format.replace('yyyy', 'YYYY').replace('-mm', '-MM').replace('dd', 'DD').replace('hh', 'HH');

/** A typed moment to the precision the format keeps: a month field holds the month's first day, a date field midnight. */
function toPrecision(typed: Dayjs, format: DateTimeDisplayFormat): Dayjs {
  if (format === 'yyyy-mm') return typed.startOf('month');
  if (format === 'yyyy-mm-dd') return typed.startOf('day');
  return typed;
}

/** A date-time control in its display format: month, day, day and time, or time (domain.md §3). */
export function DateTimeEdit({ control, value, onChange, id, invalid, disabled, device }: FieldProps<string>) {
  const { t } = useTranslation();
  const { token } = theme.useToken();
  const [unreadable, setUnreadable] = useState<string | null>(null);
  const format = normalizeDisplayFormat(control.options.displayFormat);
  const pattern = dayjsFormat(format);
  const current = value ? dayjs(value) : null;
  const change = (next: Dayjs | null) => {
    setUnreadable(null);
    onChange(next ? next.second(0).millisecond(0).toISOString() : null);
  };
  // A picker keeps typed text only when it is in the picker's own format, and with a time only after 确定; leaving the
  // field reads the text here instead, or names it when it cannot be read.
  const takeTyped = (shown: string) => (event: FocusEvent<HTMLElement>) => {
    if (!(event.target instanceof HTMLInputElement)) return;
    const text = event.target.value.trim();
    const before = current ? current.format(shown) : '';
    if (text === before) return setUnreadable(null);
    const typed = text ? parseTypedDate(text, current ?? dayjs()) : null;
    if (text && !typed) return setUnreadable(text);
    change(typed && toPrecision(typed, format));
  };
  const common = { style: full, value: current, status: invalid || unreadable ? ('error' as const) : undefined, disabled, inputReadOnly: device === 'phone' };
  let picker;
  if (format === 'hh:mm') picker = <TimePicker {...common} id={id} format="HH:mm" onChange={change} onBlur={takeTyped('HH:mm')} />;
  else if (format === 'yyyy-mm') picker = <DatePicker {...common} id={id} picker="month" format={pattern} onChange={change} onBlur={takeTyped(pattern)} />;
  else if (format === 'yyyy-mm-dd') picker = <DatePicker {...common} id={id} format={pattern} onChange={change} onBlur={takeTyped(pattern)} />;
  else if (device === 'phone') {
    // A date panel beside a time panel is about 400 px wide, more than a phone's screen: there the day and the time are
    // picked apart, each panel fitting on its own.
    const atTimeOf = (day: Dayjs) => day.hour(current?.hour() ?? 0).minute(current?.minute() ?? 0);
    const onDay = (day: Dayjs | null) => change(day && atTimeOf(day));
    const onTime = (time: Dayjs | null) => change(time && (current ?? dayjs()).hour(time.hour()).minute(time.minute()));
    picker = (
      <Space.Compact style={full}>
        <DatePicker {...common} id={id} format="YYYY-MM-DD" onChange={onDay} />
        <TimePicker {...common} aria-label={t('formRuntimeFields.date.time', { label: control.label })} format="HH:mm" onChange={onTime} />
      </Space.Compact>
    );
  } else picker = <DatePicker {...common} id={id} showTime={{ format: 'HH:mm' }} format={pattern} onChange={change} onBlur={takeTyped(pattern)} />;
  return (
    <>
      {picker}
      {unreadable !== null && (
        <Typography.Text type="danger" role="alert" style={{ display: 'block', fontSize: token.fontSizeSM }}>
          {t('formRuntimeFields.date.unreadable', { text: unreadable, example: EXAMPLE.format(pattern) })}
        </Typography.Text>
      )}
    </>
  );
}
