/** Dynamic (动态控件): a control drawn and filled by the form's custom code; stores whatever JSON the code gives it. */
import { z } from 'zod';
import { plainText } from './display.ts';
import { dataControlOptions } from './options/base.ts';
import { NOT_IN_SUB_TABLE } from './placement.ts';
import { defineControlType } from './types.ts';

const displayName = { 'zh-CN': '动态控件', 'en-US': 'Dynamic' };

export const dynamicControl = defineControlType({
  key: 'dynamic',
  code: 1307,
  group: 'advanced',
  displayName,
  dataType: 'json',
  column: { sqlType: 'jsonb' },
  options: dataControlOptions(displayName['zh-CN']).extend({
    /** Name the custom code renders the control under. */
    componentName: z.string().default(''),
  }),
  value: z.json(),
  displayText: (value, _options, context) => plainText(value, context),
  placement: NOT_IN_SUB_TABLE,
});
