/** Attributes shared by every data control and by every layout control, defined once (domain.md §3). */
import { z } from 'zod';
import { TEXT_BOX_MAX_LENGTH, TOOLTIP_MAX_LENGTH } from '../../constants/limits.ts';
import { codeSchema } from '../../validation/zod.ts';

// PostgreSQL truncates identifiers past 63 bytes, so longer codes could silently share a column.
export const CONTROL_CODE_MAX_LENGTH = 63;

/** A control's code: its DataField, the column name in i_<schemaCode>. */
export const controlCodeSchema = codeSchema.max(CONTROL_CODE_MAX_LENGTH, `编码不能超过${CONTROL_CODE_MAX_LENGTH}个字符`);

/** The control's title on the form; a new control is named after its type. */
export function displayNameSchema(defaultName: string) {
  return z.string().trim().min(1, '请输入控件名称').max(TEXT_BOX_MAX_LENGTH).default(defaultName);
}

/** A hide condition (DisplayRule): the control is hidden while the expression is true; '' means never. */
export const hideConditionSchema = z.string().default('');

/** Attributes every control has, with or without data. */
export function layoutControlOptions(defaultName: string) {
  return z.object({
    displayName: displayNameSchema(defaultName),
    visible: z.boolean().default(true),
    hideCondition: hideConditionSchema,
  });
}

/** Attributes every data control has. DataField is the control instance's `code`, not an option. */
export function dataControlOptions(defaultName: string) {
  return layoutControlOptions(defaultName).extend({
    required: z.boolean().default(false),
    readonly: z.boolean().default(false),
    /** Tip shown under the control. */
    description: z.string().max(TOOLTIP_MAX_LENGTH).default(''),
  });
}

/**
 * DataLink: fill this control from the first row of another form whose fields equal fields of this one;
 * when any condition field is empty the control is cleared.
 */
export const dataLinkSchema = z.object({
  schemaCode: codeSchema,
  conditions: z.array(z.object({ field: controlCodeSchema, sourceField: controlCodeSchema })).min(1),
  resultField: controlCodeSchema,
});
export type DataLink = z.output<typeof dataLinkSchema>;

/** Attributes of controls a person fills in: the data-control base plus DataLink. */
export function inputControlOptions(defaultName: string) {
  return dataControlOptions(defaultName).extend({
    dataLink: dataLinkSchema.nullable().default(null),
    /** Default-value formula: computed when a record is created, over the other defaults; '' = none (docs/decisions/0016). */
    defaultFormula: z.string().max(2000).default(''),
  });
}

/** Maps fields of this form (keys) to fields of a source row (values): association fill, OCR and the like. */
export const fieldMappingSchema = z.record(controlCodeSchema, controlCodeSchema).default(() => ({}));

/**
 * 支持模糊搜索 on a text control (docs/decisions/0119): the column gets a trigram index (and, but for a text area, a
 * lowered twin) that "contains" filters and searches use, which every write of a record also pays for. Unticked, a
 * "contains" on it still works, without the index. Absent on controls designed before the choice existed: a publish
 * keeps what the table has (and indexes what a view searches).
 */
export const searchableOption = { searchable: z.boolean().optional() };
