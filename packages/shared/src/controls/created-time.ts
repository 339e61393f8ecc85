/** Created time (创建时间): when the record was created, read from the CreatedTime system column. */
import { formatDateTime } from './display.ts';
import { dataControlOptions } from './options/base.ts';
import { displayFormatSchema } from './options/date.ts';
import { ONE_PER_FORM } from './placement.ts';
import { defineControlType } from './types.ts';
import { dateTimeValueSchema } from './values.ts';

const displayName = { 'zh-CN': '创建时间', 'en-US': 'Created time' };

export const createdTimeControl = defineControlType({
  key: 'createdTime',
  code: 205,
  group: 'system',
  displayName,
  dataType: 'datetime',
  column: { sqlType: 'timestamptz', systemField: 'CreatedTime' },
  options: dataControlOptions(displayName['zh-CN']).extend({ displayFormat: displayFormatSchema }),
  value: dateTimeValueSchema,
  displayText: (value, options, context) =>
    value ? formatDateTime(value, options.displayFormat, context?.timeZone) : '',
  placement: ONE_PER_FORM,
});
