/** Checkbox (是/否): yes or no. */
import { z } from 'zod';
import { boolText } from './display.ts';
import { inputControlOptions } from './options/base.ts';
import { ANYWHERE } from './placement.ts';
import { defineControlType } from './types.ts';
import { parseBooleanInput } from './input-values.ts';

const displayName = { 'zh-CN': '是/否', 'en-US': 'Yes/No' };

export const checkboxControl = defineControlType({
  key: 'checkbox',
  code: 8,
  group: 'basic',
  displayName,
  dataType: 'bool',
  column: { sqlType: 'boolean' },
  options: inputControlOptions(displayName['zh-CN']).extend({ defaultValue: z.boolean().default(false) }),
  value: z.boolean({ error: '须为“是”或“否”' }),
  fromInput: parseBooleanInput,
  displayText: (value, _options, context) => (value == null ? '' : boolText(value, context)),
  fewValues: true,
  placement: ANYWHERE,
});
