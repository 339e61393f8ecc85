/** Radio list (单选框): one item of a list; stores the item's text. */
import { z } from 'zod';
import { MAX_SELECT_OPTIONS } from '../constants/limits.ts';
import { searchableOption } from './options/base.ts';
import { selectControlOptions, singleChoiceDefault } from './options/select.ts';
import { ANYWHERE } from './placement.ts';
import { defineControlType } from './types.ts';

const displayName = { 'zh-CN': '单选框', 'en-US': 'Radio list' };

export const radioListControl = defineControlType({
  key: 'radioList',
  code: 5,
  group: 'basic',
  displayName,
  dataType: 'string',
  column: { sqlType: 'text' },
  options: selectControlOptions(displayName['zh-CN'], singleChoiceDefault).safeExtend(searchableOption),
  // The text is kept even after the item is renamed or removed, so any non-empty text is a valid stored value; a new
  // choice must be among the items (`choices`), a record's unchanged value passes (docs/decisions/0029).
  value: z.string().min(1),
  displayText: (text) => text ?? '',
  choices: (options) => options.defaultItems,
  limits: { maxOptions: MAX_SELECT_OPTIONS },
  fewValues: true,
  placement: ANYWHERE,
});
