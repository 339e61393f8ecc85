/** Department (部门单选): one department, stored as its org unit id. */
import { z } from 'zod';
import { unitText } from './display.ts';
import { inputControlOptions } from './options/base.ts';
import { ANYWHERE } from './placement.ts';
import { defineControlType } from './types.ts';
import { idSchema } from './values.ts';

const displayName = { 'zh-CN': '部门单选', 'en-US': 'Department' };

export const departmentControl = defineControlType({
  key: 'department',
  code: 13,
  group: 'basic',
  displayName,
  dataType: 'unit',
  column: { sqlType: 'text' },
  options: inputControlOptions(displayName['zh-CN']).extend({
    /** currentDepartment: the main department of the person filling in the form. */
    defaultValue: z.enum(['none', 'currentDepartment']).default('none'),
  }),
  value: idSchema,
  displayText: (id, _options, context) => (id ? unitText(id, context) : ''),
  placement: ANYWHERE,
});
