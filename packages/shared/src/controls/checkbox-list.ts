/** Checkbox list (复选框): several items of a list; stores their texts as a text array. */
import { z } from 'zod';
import { MAX_SELECT_OPTIONS } from '../constants/limits.ts';
import { joinTexts } from './display.ts';
import { multipleChoiceDefault, selectControlOptions, selectItemSchema } from './options/select.ts';
import { ANYWHERE } from './placement.ts';
import { defineControlType } from './types.ts';
import { splitListInput } from './input-values.ts';

const displayName = { 'zh-CN': '复选框', 'en-US': 'Checkbox list' };

export const checkboxListControl = defineControlType({
  key: 'checkboxList',
  code: 6,
  group: 'basic',
  displayName,
  dataType: 'strings',
  // text[] rather than a ';'-joined string: In/Contains filters become array operators with a GIN index.
  column: { sqlType: 'text[]' },
  options: selectControlOptions(displayName['zh-CN'], multipleChoiceDefault),
  value: z
    .array(selectItemSchema)
    .max(MAX_SELECT_OPTIONS)
    .refine((items) => new Set(items).size === items.length, '选项不能重复'),
  displayText: (items) => joinTexts(items ?? []),
  fromInput: splitListInput,
  choices: (options) => options.defaultItems,
  limits: { maxOptions: MAX_SELECT_OPTIONS },
  placement: ANYWHERE,
});
