/** Drop-down (下拉框): one item of a list, or a field value of another form's rows; stores the text. */
import { z } from 'zod';
import { MAX_SELECT_OPTIONS } from '../constants/limits.ts';
import { codeSchema } from '../validation/zod.ts';
import { controlCodeSchema, searchableOption } from './options/base.ts';
import { selectControlOptions, singleChoiceDefault } from './options/select.ts';
import { ANYWHERE } from './placement.ts';
import { defineControlType } from './types.ts';

const displayName = { 'zh-CN': '下拉框', 'en-US': 'Drop-down' };

/** Items read from a field of another form, optionally filtered by values of this one. */
const associationSource = z.object({
  schemaCode: codeSchema,
  field: controlCodeSchema,
  filter: z.string().default(''),
});

export const dropDownControl = defineControlType({
  key: 'dropDown',
  code: 7,
  group: 'basic',
  displayName,
  dataType: 'string',
  column: { sqlType: 'text' },
  options: selectControlOptions(displayName['zh-CN'], singleChoiceDefault).safeExtend({
    association: associationSource.nullable().default(null),
    ...searchableOption,
  }),
  value: z.string().min(1),
  displayText: (text) => text ?? '',
  // Items read from another form's rows are a snapshot of text that changes there: any text is kept (decision 0029).
  choices: (options) => (options.association ? null : options.defaultItems),
  limits: { maxOptions: MAX_SELECT_OPTIONS },
  fewValues: true,
  placement: ANYWHERE,
});
