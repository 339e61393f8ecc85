/**
 * Associated property (关联属性): shows a field of the row an association query in this form points to.
 * It stores nothing; the value is read through the association, so it never goes stale.
 */
import { z } from 'zod';
import { codeSchema } from '../validation/zod.ts';
import { controlCodeSchema, dataControlOptions } from './options/base.ts';
import { ANYWHERE } from './placement.ts';
import { CONTROL_TYPE_KEYS, defineControlType } from './types.ts';

const displayName = { 'zh-CN': '关联属性', 'en-US': 'Associated property' };

/** sourcePropertySchema: the field shown and its control type, which formats the value. */
const sourcePropertySchema = z.object({
  schemaCode: codeSchema,
  propertyCode: controlCodeSchema,
  controlType: z.enum(CONTROL_TYPE_KEYS),
});

export const associatedPropertyControl = defineControlType({
  key: 'associatedProperty',
  code: 303,
  group: 'advanced',
  displayName,
  dataType: 'lookup',
  column: null,
  options: dataControlOptions(displayName['zh-CN']).extend({
    /** The association query control of this form to read through. */
    associationCode: controlCodeSchema.nullable().default(null),
    sourcePropertySchema: sourcePropertySchema.nullable().default(null),
  }),
  value: null,
  // Looked-up values are formatted by the source control type: see controlDisplayText in registry.ts.
  displayText: () => '',
  missingSettings: (options) => [
    ...(options.associationCode ? [] : ['associationCode']),
    ...(options.sourcePropertySchema ? [] : ['sourcePropertySchema']),
  ],
  placement: ANYWHERE,
});
