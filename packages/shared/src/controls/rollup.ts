/** Rollup (汇总): sum, count, max, min or emptiness of a field over sub-table or associated rows, kept on save. */
import { z } from 'zod';
import { ROLLUP_TYPES } from '../constants/formats.ts';
import { controlCodeSchema, dataControlOptions } from './options/base.ts';
import { computedDisplayText, computedResultShape, computedStorage, computedValueSchema } from './options/computed.ts';
import { withDecimalDefault } from './options/number.ts';
import { NOT_IN_SUB_TABLE } from './placement.ts';
import { defineControlType } from './types.ts';
import { codeSchema } from '../validation/zod.ts';

const displayName = { 'zh-CN': '汇总', 'en-US': 'Rollup' };

export const rollupControl = defineControlType({
  key: 'rollup',
  code: 1306,
  group: 'advanced',
  displayName,
  dataType: 'decimal',
  column: { sqlType: 'numeric' },
  options: dataControlOptions(displayName['zh-CN'])
    .extend({
      rollupType: z.enum(ROLLUP_TYPES).default('sum'),
      /** The sub-table or multiple association of this form whose rows are rolled up. */
      sourceCode: controlCodeSchema.nullable().default(null),
      /**
       * Another form whose Effective records are rolled up: those whose association field `sourceCode` (in that form)
       * holds this record (docs/decisions/0015). Null: `sourceCode` is a sub-table of this form.
       */
      sourceSchemaCode: codeSchema.max(64).nullable().default(null),
      /** The field of those rows; not needed for count. */
      sourceField: controlCodeSchema.nullable().default(null),
      /** Only rows matching this condition count; '' takes every row. */
      filter: z.string().default(''),
      ...computedResultShape,
    })
    .transform(withDecimalDefault),
  value: computedValueSchema,
  displayText: computedDisplayText,
  storageFor: computedStorage,
  // count needs no field: it counts rows.
  missingSettings: (options) => [
    ...(options.sourceCode ? [] : ['sourceCode']),
    ...(options.sourceField || options.rollupType === 'count' ? [] : ['sourceField']),
  ],
  placement: NOT_IN_SUB_TABLE,
});
