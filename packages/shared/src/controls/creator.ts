/** Creator (创建人): the user who created the record, read from the CreatedBy system column. */
import { unitText } from './display.ts';
import { dataControlOptions } from './options/base.ts';
import { ONE_PER_FORM } from './placement.ts';
import { defineControlType } from './types.ts';
import { idSchema } from './values.ts';

const displayName = { 'zh-CN': '创建人', 'en-US': 'Creator' };

export const creatorControl = defineControlType({
  key: 'creator',
  code: 202,
  group: 'system',
  displayName,
  dataType: 'user',
  column: { sqlType: 'text', systemField: 'CreatedBy' },
  options: dataControlOptions(displayName['zh-CN']),
  value: idSchema,
  displayText: (id, _options, context) => (id ? unitText(id, context) : ''),
  placement: ONE_PER_FORM,
});
