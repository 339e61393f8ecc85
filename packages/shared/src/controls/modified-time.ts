/** Modified time (修改时间): when the record was last changed, read from the ModifiedTime system column. */
import { formatDateTime } from './display.ts';
import { dataControlOptions } from './options/base.ts';
import { displayFormatSchema } from './options/date.ts';
import { ONE_PER_FORM } from './placement.ts';
import { defineControlType } from './types.ts';
import { dateTimeValueSchema } from './values.ts';

const displayName = { 'zh-CN': '修改时间', 'en-US': 'Modified time' };

export const modifiedTimeControl = defineControlType({
  key: 'modifiedTime',
  code: 206,
  group: 'system',
  displayName,
  dataType: 'datetime',
  column: { sqlType: 'timestamptz', systemField: 'ModifiedTime' },
  options: dataControlOptions(displayName['zh-CN']).extend({ displayFormat: displayFormatSchema }),
  value: dateTimeValueSchema,
  displayText: (value, options, context) =>
    value ? formatDateTime(value, options.displayFormat, context?.timeZone) : '',
  placement: ONE_PER_FORM,
});
