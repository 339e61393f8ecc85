/** Multi-department (部门多选): several departments, stored as an array of org unit ids. */
import { z } from 'zod';
import { unitText } from './display.ts';
import { inputControlOptions } from './options/base.ts';
import { ANYWHERE } from './placement.ts';
import { defineControlType } from './types.ts';
import { idListSchema } from './values.ts';

const displayName = { 'zh-CN': '部门多选', 'en-US': 'Departments' };

export const multiDepartmentControl = defineControlType({
  key: 'multiDepartment',
  code: 14,
  group: 'basic',
  displayName,
  dataType: 'units',
  column: { sqlType: 'text[]' },
  options: inputControlOptions(displayName['zh-CN']).extend({
    defaultValue: z.enum(['none', 'currentDepartment']).default('none'),
  }),
  value: idListSchema,
  displayText: (ids, _options, context) => unitText(ids ?? [], context),
  placement: ANYWHERE,
});
