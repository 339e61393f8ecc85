/** Multi-user (人员多选): several users, stored as an array of user ids. */
import { z } from 'zod';
import { unitText } from './display.ts';
import { inputControlOptions } from './options/base.ts';
import { ANYWHERE } from './placement.ts';
import { defineControlType } from './types.ts';
import { idListSchema } from './values.ts';

const displayName = { 'zh-CN': '人员多选', 'en-US': 'Users' };

export const multiUserControl = defineControlType({
  key: 'multiUser',
  code: 11,
  group: 'basic',
  displayName,
  dataType: 'users',
  // text[]: "contains this user" filters use array operators and a GIN index.
  column: { sqlType: 'text[]' },
  options: inputControlOptions(displayName['zh-CN']).extend({
    defaultValue: z.enum(['none', 'currentUser']).default('none'),
  }),
  value: idListSchema,
  displayText: (ids, _options, context) => unitText(ids ?? [], context),
  placement: ANYWHERE,
});
