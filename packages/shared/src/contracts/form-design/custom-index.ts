import { z } from 'zod';
import { FORM_INDEX_LIMITS } from '../../constants/limits.ts';
import { controlCodeSchema } from '../../controls/options/base.ts';
import { NodeCode } from '../function-node/index.ts';

// A form's custom indexes (domain.md §5: up to 5 indexes of 5 fields; calls.md §7 /v1/formconfig/customindex/*).
// Each is a real index on the published table. docs/decisions/0006-form-design.md.

export const CustomIndexDto = z.object({
  /** The index's name in the engine schema, derived from the table and the fields. */
  indexName: z.string(),
  /** Columns of the published main table, in index order. */
  fields: z.array(z.string()),
  createdTime: z.string(),
});
export type CustomIndexDto = z.infer<typeof CustomIndexDto>;

export const CustomIndexListBody = z.strictObject({ schemaCode: NodeCode });
export const CustomIndexListResult = z.object({
  list: z.array(CustomIndexDto),
  limits: z.object({ maxIndexes: z.number().int(), maxFieldsPerIndex: z.number().int() }),
});

/** Creates an index on `fields`, or replaces the index `indexName` with one on `fields`. */
export const CustomIndexSaveBody = z.strictObject({
  schemaCode: NodeCode,
  fields: z
    .array(controlCodeSchema)
    .min(1, '至少选择一个字段')
    .max(FORM_INDEX_LIMITS.maxFieldsPerIndex, `每个索引最多${FORM_INDEX_LIMITS.maxFieldsPerIndex}个字段`)
    .refine((fields) => new Set(fields.map((f) => f.toLowerCase())).size === fields.length, '字段不能重复'),
  indexName: z.string().trim().min(1).max(63).optional(),
});
export const CustomIndexSaveResult = CustomIndexDto;

export const CustomIndexRemoveBody = z.strictObject({ schemaCode: NodeCode, indexName: z.string().trim().min(1).max(63) });
export const CustomIndexRemoveResult = z.object({ removed: z.boolean() });
