/** Attributes of association queries (关联表单): the source form, its filter and association fill. */
import { z } from 'zod';
import { codeSchema } from '../../validation/zod.ts';
import { fieldMappingSchema, inputControlOptions } from './base.ts';

export function associationControlOptions(defaultName: string) {
  return inputControlOptions(defaultName).extend({
    /** The associated form; chosen after the control is dropped. */
    schemaCode: codeSchema.nullable().default(null),
    /** Limits the rows offered, e.g. `{status}=="open"`; '' offers every row. */
    associationFilter: z.string().default(''),
    /** Association fill: controls of this form filled from the chosen row. */
    mappingControls: fieldMappingSchema,
    /** Lets the phone fill the control by scanning a code. */
    inputByScan: z.boolean().default(false),
  });
}
