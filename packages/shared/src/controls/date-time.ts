/** Date-time (日期): a moment, shown in the control's display format. */
import { formatDateTime } from './display.ts';
import { inputControlOptions } from './options/base.ts';
import { dateDefaultValueSchema, dateRangeSchema, displayFormatSchema } from './options/date.ts';
import { ANYWHERE } from './placement.ts';
import { defineControlType } from './types.ts';
import { dateTimeValueSchema } from './values.ts';
import { parseDateTimeInput } from './input-values.ts';

const displayName = { 'zh-CN': '日期', 'en-US': 'Date' };

export const dateTimeControl = defineControlType({
  key: 'dateTime',
  code: 3,
  group: 'basic',
  displayName,
  dataType: 'datetime',
  // Every display format, hour-minute included, stores a full moment; the format only changes what is shown and picked.
  column: { sqlType: 'timestamptz' },
  options: inputControlOptions(displayName['zh-CN']).extend({
    /** DateTimeMode. */
    displayFormat: displayFormatSchema,
    defaultValue: dateDefaultValueSchema,
    rangeRule: dateRangeSchema.nullable().default(null),
  }),
  value: dateTimeValueSchema,
  fromInput: (input) => parseDateTimeInput(input) ?? input,
  displayText: (value, options, context) =>
    value ? formatDateTime(value, options.displayFormat, context?.timeZone) : '',
  placement: ANYWHERE,
});
