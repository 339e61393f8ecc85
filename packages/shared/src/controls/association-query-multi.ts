/** Association query, multiple (关联表单多选): rows of another form, stored as an array of ObjectIds. */
import { objectText } from './display.ts';
import { associationControlOptions } from './options/association.ts';
import { ANYWHERE } from './placement.ts';
import { defineControlType } from './types.ts';
import { idListSchema } from './values.ts';

const displayName = { 'zh-CN': '关联表单多选', 'en-US': 'Associations' };

export const associationQueryMultiControl = defineControlType({
  key: 'associationQueryMulti',
  code: 302,
  group: 'advanced',
  displayName,
  dataType: 'references',
  // text[] in the row rather than a link table: one array read per row, and "contains" filters use a GIN index.
  column: { sqlType: 'text[]' },
  options: associationControlOptions(displayName['zh-CN']),
  value: idListSchema,
  displayText: (ids, _options, context) => objectText(ids ?? [], context),
  missingSettings: (options) => (options.schemaCode ? [] : ['schemaCode']),
  placement: ANYWHERE,
});
