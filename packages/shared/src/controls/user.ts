/** User (人员单选): one user of the engine, stored as the user's id. */
import { z } from 'zod';
import { unitText } from './display.ts';
import { inputControlOptions } from './options/base.ts';
import { ANYWHERE } from './placement.ts';
import { defineControlType } from './types.ts';
import { idSchema } from './values.ts';

const displayName = { 'zh-CN': '人员单选', 'en-US': 'User' };

export const userControl = defineControlType({
  key: 'user',
  code: 12,
  group: 'basic',
  displayName,
  dataType: 'user',
  column: { sqlType: 'text' },
  options: inputControlOptions(displayName['zh-CN']).extend({
    defaultValue: z.enum(['none', 'currentUser']).default('none'),
  }),
  value: idSchema,
  displayText: (id, _options, context) => (id ? unitText(id, context) : ''),
  placement: ANYWHERE,
});
