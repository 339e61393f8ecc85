/** Association query (关联表单): one row of another form, stored as that row's ObjectId. */
import { objectText } from './display.ts';
import { associationControlOptions } from './options/association.ts';
import { ANYWHERE } from './placement.ts';
import { defineControlType } from './types.ts';
import { idSchema } from './values.ts';

const displayName = { 'zh-CN': '关联表单', 'en-US': 'Association' };

export const associationQueryControl = defineControlType({
  key: 'associationQuery',
  code: 301,
  group: 'advanced',
  displayName,
  dataType: 'reference',
  column: { sqlType: 'text' },
  options: associationControlOptions(displayName['zh-CN']),
  value: idSchema,
  displayText: (id, _options, context) => (id ? objectText(id, context) : ''),
  missingSettings: (options) => (options.schemaCode ? [] : ['schemaCode']),
  placement: ANYWHERE,
});
