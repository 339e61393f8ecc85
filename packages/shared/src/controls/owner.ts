/** Owner (拥有者): the user who owns the record, read from the OwnerId system column. */
import { unitText } from './display.ts';
import { dataControlOptions } from './options/base.ts';
import { ONE_PER_FORM } from './placement.ts';
import { defineControlType } from './types.ts';
import { idSchema } from './values.ts';

const displayName = { 'zh-CN': '拥有者', 'en-US': 'Owner' };

export const ownerControl = defineControlType({
  key: 'owner',
  code: 203,
  group: 'system',
  displayName,
  dataType: 'user',
  column: { sqlType: 'text', systemField: 'OwnerId' },
  options: dataControlOptions(displayName['zh-CN']),
  value: idSchema,
  displayText: (id, _options, context) => (id ? unitText(id, context) : ''),
  placement: ONE_PER_FORM,
});
