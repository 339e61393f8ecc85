/** Formula (公式型控件): a value computed from other controls on save; its column follows bindType. */
import { z } from 'zod';
import { dataControlOptions } from './options/base.ts';
import { computedDisplayText, computedResultShape, computedStorage, computedValueSchema } from './options/computed.ts';
import { withDecimalDefault } from './options/number.ts';
import { ANYWHERE } from './placement.ts';
import { defineControlType } from './types.ts';

const displayName = { 'zh-CN': '公式型控件', 'en-US': 'Formula' };

export const formulaControl = defineControlType({
  key: 'formula',
  code: 304,
  group: 'advanced',
  displayName,
  dataType: 'decimal',
  column: { sqlType: 'numeric' },
  options: dataControlOptions(displayName['zh-CN'])
    .extend({
      /** ComputationRule, e.g. `{price}*{quantity}`; '' until the designer writes one. */
      expression: z.string().default(''),
      ...computedResultShape,
    })
    .transform(withDecimalDefault),
  value: computedValueSchema,
  displayText: computedDisplayText,
  storageFor: computedStorage,
  missingSettings: (options) => (options.expression.trim() ? [] : ['expression']),
  placement: ANYWHERE,
});
